/**
 * Creating and editing a plan (POST upsert, OTP-gated PATCH).
 */
import { Effect, Option } from "effect"
import { AccountNotActive } from "../account/Errors.js"
import { passOtpGate } from "../auth/OtpGate.js"
import { banks } from "../banking/Caches.js"
import { NoBankAccount } from "../banking/Errors.js"
import * as Beneficiaries from "../beneficiaries/Beneficiaries.js"
import * as Settings from "../settings/Settings.js"
import { atomically, now } from "../shared/UseCase.js"
import { activateIfFunded } from "./Activation.js"
import { InvalidPlanTerms, PayoutInProgress, PlanNotFound } from "./Errors.js"
import { Instalment, Plan } from "./Model.js"
import { PlanRepo } from "./Ports.js"
import { replan, wholePotKobo } from "./Pot.js"
import { findPlan, requireCustomer } from "./Queries.js"
import * as Schedule from "./Schedule.js"
import { type PlanInput, termsOf, validateTerms } from "./Terms.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, PlanId, newId } from "../shared/Ids.js"

/** A verified destination account (a plan's withdrawal account; also where a closure sweeps to). */
export interface Destination {
  readonly accountNumber: string
  readonly bankCode: string
  readonly bankName: string
  readonly accountName: string
  readonly sessionId: string
}

/**
 * The withdrawal account, confirmed by NIP name enquiry (its name is used when none is supplied),
 * within the customer's name-enquiry budget (`Beneficiaries.lookupFor`: the answer names the holder).
 */
const verifyDestination = (accountId: AccountId, input: PlanInput) =>
  Effect.gen(function*() {
    const found = yield* Beneficiaries.lookupFor(accountId, input.withdrawalAccountNumber, input.withdrawalBankCode)
    const bankList = yield* banks
    const bankName = bankList.find((b) => b.bankCode === input.withdrawalBankCode)?.bankName ?? input.withdrawalBankCode
    const supplied = input.withdrawalAccountName?.trim()
    return {
      accountNumber: input.withdrawalAccountNumber,
      bankCode: input.withdrawalBankCode,
      bankName,
      accountName: supplied !== undefined && supplied !== "" ? supplied : found.accountName,
      sessionId: found.nipSessionId
    } satisfies Destination
  })

/** The plan's fields that say where its payouts go. */
const payoutFields = (destination: Destination) => ({
  withdrawalAccountNumber: destination.accountNumber,
  withdrawalBankCode: destination.bankCode,
  withdrawalBankName: destination.bankName,
  withdrawalAccountName: destination.accountName,
  nameEnquirySessionId: destination.sessionId
})

export const requireWallet = (accountId: AccountId) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    if (customer.coreAccountNumber === null) return yield* new NoBankAccount()
    if (customer.customerStatus !== "active") return yield* new AccountNotActive({ customerStatus: customer.customerStatus })
    return { customer, accountNumber: customer.coreAccountNumber }
  })

/** The one-time code of an OTP-gated change, as the client sent it (either part may be missing). */
export interface OtpProof {
  readonly otpPinId?: string | undefined
  readonly otpCode?: string | undefined
}

const redirects = (plan: Plan, input: PlanInput) =>
  plan.withdrawalAccountNumber !== input.withdrawalAccountNumber || plan.withdrawalBankCode !== input.withdrawalBankCode

/**
 * A POST that would send an existing plan's payouts to another account (number or bank) passes the
 * same OTP gate as PATCH: without a code it is a validation error naming otpPinId and otpCode, and
 * a wrong code is OtpGateRejected (the code is spent either way). Other edits need no code, and a
 * code sent along with them is not spent. True when the gate was passed.
 */
const gateRedirect = (accountId: AccountId, plan: Plan, input: PlanInput, otp: OtpProof) =>
  Effect.gen(function*() {
    if (!redirects(plan, input)) return false
    if (otp.otpPinId === undefined || otp.otpCode === undefined) {
      const required = ["Required to change the plan's withdrawal account (as for PATCH): request a code first"]
      return yield* new InvalidPlanTerms({
        fieldErrors: {
          ...(otp.otpPinId === undefined ? { otpPinId: required } : {}),
          ...(otp.otpCode === undefined ? { otpCode: required } : {})
        }
      })
    }
    yield* passOtpGate(accountId, otp.otpPinId, otp.otpCode)
    return true
  })

/**
 * `POST /disbursements/plan`: creates the plan (awaiting funds, active at once when the wallet
 * already covers it), or edits the open one (see the module notes); a change of the open plan's
 * withdrawal account needs the OTP (`gateRedirect`).
 */
export const upsertPlan = (accountId: AccountId, input: PlanInput, otp: OtpProof = {}) =>
  Effect.gen(function*() {
    const { customer } = yield* requireWallet(accountId)
    const { terms, cycles } = yield* validateTerms(input, yield* Settings.get(Settings.PlanLimitsSetting))
    const repo = yield* PlanRepo
    const existing = yield* repo.findForCustomer(customer.id)
    if (Option.isSome(existing) && existing.value.state !== "completed") {
      yield* gateRedirect(accountId, existing.value, input, otp)
      const destination = yield* verifyDestination(accountId, input)
      return yield* edit(existing.value.id, input, terms, cycles, destination)
    }
    const destination = yield* verifyDestination(accountId, input)
    const at = yield* now
    const plan = yield* repo.insert(
      new Plan({
        id: yield* newId(PlanId),
        customerId: customer.id,
        totalAmountKobo: input.totalAmountKobo,
        durationDays: terms.durationDays,
        frequency: terms.frequency,
        weekDay: terms.weekDay,
        scheduledTime: terms.scheduledTime,
        timeZone: terms.timeZone,
        ...payoutFields(destination),
        state: "awaiting_funds",
        cycleCount: cycles,
        cycleBase: 0,
        nextCycle: 0,
        anchorDate: null,
        nextDueAt: null,
        borrowCount: 0,
        leaseUntil: null,
        version: 0,
        activatedAt: null,
        completedAt: null,
        createdAt: at,
        updatedAt: at
      })
    ).pipe(Effect.either)
    if (plan._tag === "Left") {
      // a concurrent request created the plan first: this one edits it, as it would a moment
      // later, so it too needs the code to send the winner's payouts elsewhere
      const winner = Option.getOrThrow(yield* repo.findForCustomer(customer.id))
      yield* gateRedirect(accountId, winner, input, otp)
      return yield* edit(winner.id, input, terms, cycles, destination)
    }
    return yield* activateIfFunded(plan.right)
  }).pipe(withSpan("Plans.upsertPlan"))

/** Whether the edit changes the whole plan's amount or schedule (not only where or at what time it pays). */
const scheduleChanged = (plan: Plan, input: PlanInput, terms: Schedule.ScheduleTerms) =>
  wholePotKobo(plan) !== input.totalAmountKobo || plan.durationDays !== terms.durationDays ||
  plan.frequency !== terms.frequency || plan.weekDay !== terms.weekDay

/**
 * The edit, under the plan's row lock, in one transaction. The wallet is checked for activation after the commit, never
 * while the transaction (and, on PGlite, the one connection) is held across a provider call.
 * A concurrent save (the scheduler settling a payout) is retried.
 *
 * `input` and `cycles` describe the WHOLE plan (Pot.ts): a new amount or schedule keeps the
 * instalments paid as its first cycles and spreads the rest of the pot over the cycles left;
 * refused (400 by field) when nothing would be left to pay them with.
 */
export const edit = (
  planId: PlanId,
  input: PlanInput,
  terms: Schedule.ScheduleTerms,
  cycles: number,
  destination: Destination
) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const limits = yield* Settings.get(Settings.PlanLimitsSetting)
    const saved = yield* atomically(Effect.gen(function*() {
      const plan = Option.getOrThrow(yield* repo.lock(planId))
      const current = yield* repo.findInstalment(plan.id, plan.cycleBase + plan.nextCycle)
      if (Option.isSome(current) && current.value.transactionId !== null && current.value.status === "open") {
        return yield* new PayoutInProgress()
      }
      const base = {
        ...plan,
        scheduledTime: terms.scheduledTime,
        timeZone: terms.timeZone,
        ...payoutFields(destination),
        updatedAt: at
      }
      if (plan.state === "awaiting_funds" || scheduleChanged(plan, input, terms)) {
        // a new schedule for the rest of the whole pot: numbering goes on after the cycles already paid
        const next = yield* replan(plan, input.totalAmountKobo, cycles, limits)
        // a resumed instalment gets its full number of attempts again
        yield* resetAttempts(current, at)
        return yield* repo.save(
          new Plan({
            ...base,
            ...next,
            durationDays: terms.durationDays,
            frequency: terms.frequency,
            weekDay: terms.weekDay,
            state: "awaiting_funds",
            nextCycle: 0,
            anchorDate: null,
            nextDueAt: null,
            // funded (and its fees fixed) anew on activation
            payoutFeeCapKobo: null,
            lastPayoutFeeCapKobo: null
          })
        )
      }
      yield* resetAttempts(current, at)
      const edited = new Plan(base)
      const resumes = plan.state === "paused" || plan.state === "active"
      return yield* repo.save(
        new Plan({
          ...edited,
          state: resumes ? "active" : plan.state,
          nextDueAt: resumes && plan.anchorDate !== null ? Schedule.dueAt(termsOf(edited), plan.anchorDate, plan.nextCycle) : plan.nextDueAt
        })
      )
    }))
    return saved
  }).pipe(
    Effect.retry({ times: 3, while: (e) => e._tag === "PlanConflict" }),
    Effect.catchTag("PlanConflict", () => Effect.fail(new PayoutInProgress())),
    Effect.flatMap(activateIfFunded)
  )

/** A failed open instalment gets its full number of attempts again. */
const resetAttempts = (current: Option.Option<Instalment>, at: Date) =>
  Option.isSome(current) && current.value.status === "open" && current.value.attempts > 0
    ? Effect.asVoid(Effect.flatMap(PlanRepo, (repo) => repo.saveInstalment(new Instalment({ ...current.value, attempts: 0, updatedAt: at }))))
    : Effect.void

/**
 * `PATCH /disbursements/plan`: the same edit as POST on an existing plan, behind the OTP gate (a
 * code from either OTP request endpoint). A well-formed request spends the code whatever follows
 * (no plan, a destination the bank does not know, a payout in progress): ask for a new one.
 */
export const patchPlan = (accountId: AccountId, input: PlanInput, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    const { terms, cycles } = yield* validateTerms(input, yield* Settings.get(Settings.PlanLimitsSetting))
    yield* passOtpGate(accountId, otpPinId, otpCode)
    const { customer } = yield* requireWallet(accountId)
    const existing = yield* findPlan(customer.id)
    if (Option.isNone(existing) || existing.value.state === "completed") return yield* new PlanNotFound()
    const destination = yield* verifyDestination(accountId, input)
    return yield* edit(existing.value.id, input, terms, cycles, destination)
  }).pipe(withSpan("Plans.patchPlan"))
