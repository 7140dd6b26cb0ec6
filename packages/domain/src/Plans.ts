/**
 * Disbursement plans: a customer commits a pot that is paid back to their own bank account in
 * equal instalments (PlanSchedule.ts says when and how much). Every payout, Borrow and Extra Cash
 * is a movement of the transfer saga (Transfers.ts): there is no second money path.
 *
 * Life of a plan (Plan.state):
 * - awaiting_funds → active when the wallet covers the plan: the total AND the NIP fee (with VAT) of
 *   every payout (`reservedFor`; POST, the activation job, a deposit).
 *   Activation fixes the anchor: cycle 0 is the first slot after that moment.
 * - active: the due-payout job pays cycle after cycle. A cycle has one Instalment record (unique
 *   per plan and cycle) and at most one live payout attempt, linked under the plan's row lock, so
 *   several scheduler processes pay it once. Missed cycles (downtime) are paid one after the other,
 *   in order, and the schedule continues from its anchor.
 * - A payout the wallet cannot cover fails without a debit: the plan is `depleted` (plan_depleted);
 *   it resumes, catching up, once the wallet covers the rest of the pot and its fees.
 * - A payout that fails at the bank is reversed by the saga (disbursement_failed) and tried again
 *   after `plans.payoutRetry.retryAfterMinutes`; after `maxAttempts` failures the plan is `paused`
 *   (plan_paused) until the customer edits it (e.g. a new withdrawal account).
 * - A payout the bank answers "pending" holds the plan on that cycle until reconciliation settles it.
 * - completed once the last cycle is paid; a new POST then starts a new plan.
 *
 * Editing (POST on an existing plan, or the OTP-gated PATCH):
 * - destination, time or time zone only: the cycles and their amounts stay; the remaining due dates
 *   move to the new time (from the same anchor); a paused plan resumes.
 * - amount, duration, frequency or week day: the remaining schedule is replaced. Paid cycles stay in
 *   the history; the new total is paid in new cycles from the first slot after the edit, and the
 *   plan is active again only when the wallet covers the new total and its fees. Borrow count stays (per plan).
 * - refused while a payout of the plan is in progress.
 */
import { Duration, Effect, Option } from "effect"
import { passOtpGate } from "./Auth.js"
import { consumeOtp } from "./Otp.js"
import { banks } from "./Banking.js"
import * as Beneficiaries from "./Beneficiaries.js"
import { CoreBanking } from "./CoreBanking.js"
import {
  AccountNotActive,
  BorrowNotEligible,
  ExtraCashNotAllowed,
  IdempotencyConflict,
  InvalidPlanTerms,
  NoBankAccount,
  OtpGateRejected,
  PayoutInProgress,
  PlanNotActive,
  PlanNotFound,
  TransferFailed,
  WithdrawalsNotAllowed
} from "./Errors.js"
import * as Fees from "./Fees.js"
import { Instalment, newTransfer, Plan, type Transfer } from "./Models.js"
import { formatNaira, type Kobo } from "./Money.js"
import * as Notices from "./Notices.js"
import * as Schedule from "./PlanSchedule.js"
import { AccountRepo, Ids, MovementInFlight, OtpRepo, PlanRepo, SecretHasher, TransactionRepo, TransferRepo } from "./Ports.js"
import * as Settings from "./Settings.js"
import { drive, INSUFFICIENT_BALANCE, LEASE } from "./Transfers.js"
import { atomically, now, requireAccount } from "./UseCase.js"

// ---------------------------------------------------------------------------------------------
// Terms
// ---------------------------------------------------------------------------------------------

export interface PlanInput {
  readonly totalAmountKobo: Kobo
  readonly durationDays: number
  readonly frequency: Schedule.Frequency
  readonly weekDay?: Schedule.WeekDay | undefined
  readonly withdrawalAccountNumber: string
  readonly withdrawalBankCode: string
  readonly withdrawalAccountName?: string | undefined
  readonly scheduledTime?: string | undefined
  readonly scheduledTimezone?: string | undefined
}

export const termsOf = (plan: Plan): Schedule.ScheduleTerms => ({
  frequency: plan.frequency,
  durationDays: plan.durationDays,
  weekDay: plan.weekDay,
  scheduledTime: plan.scheduledTime,
  timeZone: plan.timeZone
})

const unitOf = { daily: "day", weekly: "week", monthly: "month (30 days)" } as const

/**
 * The cross-field rules of plan terms (types and enums are the HTTP schema's): a week day for weekly
 * plans, a real time and zone, at least one whole cycle, and the limits of `plans.limits`. All
 * problems at once, by field.
 */
export const validateTerms = (input: PlanInput, limits: Settings.PlanLimits) => {
  const errors: Record<string, Array<string>> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const terms: Schedule.ScheduleTerms = {
    frequency: input.frequency,
    durationDays: input.durationDays,
    weekDay: input.frequency === "weekly" ? input.weekDay ?? null : null,
    scheduledTime: input.scheduledTime ?? Schedule.DEFAULT_SCHEDULED_TIME,
    timeZone: input.scheduledTimezone ?? Schedule.DEFAULT_TIME_ZONE
  }
  if (input.frequency === "weekly" && input.weekDay === undefined) add("weekDay", "weekDay is required for a weekly plan")
  if (!Schedule.isValidScheduledTime(terms.scheduledTime)) add("scheduledTime", "Use HH:MM on a 24-hour clock")
  if (!Schedule.isValidTimeZone(terms.timeZone)) add("scheduledTimezone", "Unknown time zone; use an IANA name such as Africa/Lagos")
  const cycles = Schedule.cycleCount(input.frequency, input.durationDays)
  if (!Number.isInteger(input.durationDays) || input.durationDays < 1) add("durationDays", "Must be a whole number of days, at least 1")
  else if (input.durationDays > limits.maxDurationDays) add("durationDays", `At most ${limits.maxDurationDays} days`)
  else if (cycles === 0) add("durationDays", `${input.durationDays} days hold no whole ${unitOf[input.frequency]} cycle`)
  if (input.totalAmountKobo > limits.maxTotalKobo) add("totalAmountKobo", `At most ${formatNaira(limits.maxTotalKobo)}`)
  else if (cycles > 0 && Schedule.regularAmount(input.totalAmountKobo, cycles) < limits.minInstalmentKobo) {
    add("totalAmountKobo", `Each instalment must be at least ${formatNaira(limits.minInstalmentKobo)}`)
  }
  return Object.keys(errors).length > 0
    ? Effect.fail(new InvalidPlanTerms({ fieldErrors: errors }))
    : Effect.succeed({ terms, cycles })
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

const requireCustomer = (accountId: string) => Effect.map(requireAccount(accountId), (a) => a.customer)

/** The customer's plan (the open one, else the latest completed one), or none. */
export const findPlan = (customerId: string) => Effect.flatMap(PlanRepo, (repo) => repo.findForCustomer(customerId))

/**
 * `GET /disbursements/plan`: the customer's plan or PlanNotFound. A plan waiting for funds (or
 * depleted) is checked against the wallet first, so a customer who just funded it sees it active
 * at once rather than after the activation job's next run.
 */
export const getPlan = (accountId: string) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const plan = yield* findPlan(customer.id)
    if (Option.isNone(plan)) return yield* new PlanNotFound()
    return yield* activateIfFunded(plan.value)
  }).pipe(Effect.withSpan("Plans.getPlan"))

/** The per-cycle amount a client shows: the regular instalment (the last one also carries the remainder). */
export const instalmentAmount = (plan: Plan): Kobo => Schedule.regularAmount(plan.totalAmountKobo, plan.cycleCount)

/** `GET /disbursements/history`: the customer's payouts (scheduled and Borrow), newest first. */
export const history = (accountId: string) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    return yield* (yield* TransactionRepo).listForCustomerByPurpose(customer.id, "disbursement")
  }).pipe(Effect.withSpan("Plans.history"))

/**
 * `GET /disbursements/plan/quote`: depositFee estimates what the customer's own bank may charge to
 * send `amountKobo` into the wallet by NIP (not charged by us); disbursementFee is the NIP fee (with
 * VAT) we debit on top of a payout of `amountKobo`, each cycle.
 */
export const quote = (amountKobo: Kobo) =>
  Effect.gen(function*() {
    const fee = Fees.quote(amountKobo, yield* Settings.get(Settings.NipFees))
    const depositFee = { feeKobo: fee.feeKobo + fee.vatKobo, description: "Estimate of what your bank may charge to fund your wallet by transfer; not charged by us" }
    const disbursementFee = { feeKobo: fee.feeKobo + fee.vatKobo, description: "NIP transfer fee (with VAT) debited with each payout" }
    return { amountKobo, depositFee, disbursementFee, totalFeesKobo: depositFee.feeKobo + disbursementFee.feeKobo }
  })

// ---------------------------------------------------------------------------------------------
// Creating and editing
// ---------------------------------------------------------------------------------------------

interface Destination {
  readonly accountNumber: string
  readonly bankCode: string
  readonly bankName: string
  readonly accountName: string
  readonly sessionId: string
}

/** The withdrawal account, confirmed by NIP name enquiry (its name is used when none is supplied). */
const verifyDestination = (input: PlanInput) =>
  Effect.gen(function*() {
    const found = yield* Beneficiaries.lookup(input.withdrawalAccountNumber, input.withdrawalBankCode)
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

const requireWallet = (accountId: string) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    if (customer.coreAccountNumber === null) return yield* new NoBankAccount()
    if (customer.customerStatus !== "active") return yield* new AccountNotActive({ customerStatus: customer.customerStatus })
    return { customer, accountNumber: customer.coreAccountNumber }
  })

/**
 * `POST /disbursements/plan`: creates the plan (awaiting funds, active at once when the wallet
 * already covers it), or edits the open one (see the module notes).
 */
export const upsertPlan = (accountId: string, input: PlanInput) =>
  Effect.gen(function*() {
    const { customer } = yield* requireWallet(accountId)
    const { terms, cycles } = yield* validateTerms(input, yield* Settings.get(Settings.PlanLimitsSetting))
    const destination = yield* verifyDestination(input)
    const repo = yield* PlanRepo
    const existing = yield* repo.findForCustomer(customer.id)
    if (Option.isSome(existing) && existing.value.state !== "completed") {
      return yield* edit(existing.value.id, input, terms, cycles, destination)
    }
    const at = yield* now
    const plan = yield* repo.insert(
      new Plan({
        id: yield* (yield* Ids).next,
        customerId: customer.id,
        totalAmountKobo: input.totalAmountKobo,
        durationDays: terms.durationDays,
        frequency: terms.frequency,
        weekDay: terms.weekDay,
        scheduledTime: terms.scheduledTime,
        timeZone: terms.timeZone,
        withdrawalAccountNumber: destination.accountNumber,
        withdrawalBankCode: destination.bankCode,
        withdrawalBankName: destination.bankName,
        withdrawalAccountName: destination.accountName,
        nameEnquirySessionId: destination.sessionId,
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
      // a concurrent request created the plan first: this one edits it, as it would a moment later
      const winner = Option.getOrThrow(yield* repo.findForCustomer(customer.id))
      return yield* edit(winner.id, input, terms, cycles, destination)
    }
    return yield* activateIfFunded(plan.right)
  }).pipe(Effect.withSpan("Plans.upsertPlan"))

const scheduleChanged = (plan: Plan, input: PlanInput, terms: Schedule.ScheduleTerms) =>
  plan.totalAmountKobo !== input.totalAmountKobo || plan.durationDays !== terms.durationDays ||
  plan.frequency !== terms.frequency || plan.weekDay !== terms.weekDay

/**
 * The edit, under the plan's row lock, in one transaction with `gate` (the OTP consumption of a
 * PATCH: both happen or neither). The wallet is checked for activation after the commit, never
 * while the transaction (and, on PGlite, the one connection) is held across a provider call.
 * A concurrent save (the scheduler settling a payout) is retried.
 */
const edit = (
  planId: string,
  input: PlanInput,
  terms: Schedule.ScheduleTerms,
  cycles: number,
  destination: Destination,
  gate: Effect.Effect<void, OtpGateRejected, OtpRepo> = Effect.void
) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const saved = yield* atomically(Effect.gen(function*() {
      yield* gate
      const plan = Option.getOrThrow(yield* repo.lock(planId))
      const current = yield* repo.findInstalment(plan.id, plan.cycleBase + plan.nextCycle)
      if (Option.isSome(current) && current.value.transactionId !== null && current.value.status === "open") {
        return yield* new PayoutInProgress()
      }
      const base = {
        ...plan,
        scheduledTime: terms.scheduledTime,
        timeZone: terms.timeZone,
        withdrawalAccountNumber: destination.accountNumber,
        withdrawalBankCode: destination.bankCode,
        withdrawalBankName: destination.bankName,
        withdrawalAccountName: destination.accountName,
        nameEnquirySessionId: destination.sessionId,
        updatedAt: at
      }
      // a resumed instalment gets its full number of attempts again
      if (Option.isSome(current) && current.value.status === "open" && current.value.attempts > 0) {
        yield* repo.saveInstalment(new Instalment({ ...current.value, attempts: 0, updatedAt: at }))
      }
      if (plan.state === "awaiting_funds" || scheduleChanged(plan, input, terms)) {
        // a new schedule for the new pot: numbering goes on after the cycles already paid
        return yield* repo.save(
          new Plan({
            ...base,
            totalAmountKobo: input.totalAmountKobo,
            durationDays: terms.durationDays,
            frequency: terms.frequency,
            weekDay: terms.weekDay,
            state: "awaiting_funds",
            cycleCount: cycles,
            cycleBase: plan.cycleBase + plan.nextCycle,
            nextCycle: 0,
            anchorDate: null,
            nextDueAt: null
          })
        )
      }
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

/**
 * `PATCH /disbursements/plan`: the same edit as POST on an existing plan, behind the OTP gate (a
 * code from either OTP request endpoint). The code is consumed only when the edit is made.
 */
export const patchPlan = (accountId: string, input: PlanInput, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    const { customer } = yield* requireWallet(accountId)
    const existing = yield* findPlan(customer.id)
    if (Option.isNone(existing) || existing.value.state === "completed") return yield* new PlanNotFound()
    const { terms, cycles } = yield* validateTerms(input, yield* Settings.get(Settings.PlanLimitsSetting))
    const destination = yield* verifyDestination(input)
    const otpId = yield* passOtpGate(accountId, otpPinId, otpCode)
    const consume = Effect.flatMap(consumeOtp(otpId), (used) => (used ? Effect.void : Effect.fail(new OtpGateRejected())))
    return yield* edit(existing.value.id, input, terms, cycles, destination, consume)
  }).pipe(Effect.withSpan("Plans.patchPlan"))

// ---------------------------------------------------------------------------------------------
// Activation
// ---------------------------------------------------------------------------------------------

const walletBalance = (customerId: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(customerId)
    const accountNumber = Option.flatMapNullable(found, (a) => a.customer.coreAccountNumber)
    if (Option.isNone(accountNumber)) return Option.none<{ accountNumber: string; withdrawableKobo: Kobo }>()
    const snapshot = yield* (yield* CoreBanking).account(accountNumber.value)
    return Option.some({ accountNumber: accountNumber.value, withdrawableKobo: snapshot.withdrawableBalanceKobo })
  })

/**
 * What the wallet must hold for the plan to be "covered": its remaining payouts AND the NIP fee
 * (with VAT) each of them debits. One definition for activation, the depleted notice and Extra
 * Cash's reserve. A payout needs only its own instalment and fee, never more than this, so a plan
 * that is activated can pay its next cycle, and a depleted plan is not resumed before it can (a
 * plan on its last cycle with exactly the pot in the wallet used to loop depleted → active).
 */
export const reservedFor = (plan: Plan, nip: Fees.NipFeeSchedule): Kobo => {
  const remaining = plan.cycleCount - plan.nextCycle
  if (remaining <= 0 || plan.state === "completed") return 0n
  const regular = Schedule.regularAmount(plan.totalAmountKobo, plan.cycleCount)
  const last = Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.cycleCount - 1)
  const feeOf = (amount: Kobo) => Fees.quote(amount, nip).totalKobo
  return BigInt(remaining - 1) * feeOf(regular) + feeOf(last)
}

/** `reservedFor` under the current NIP fee settings. */
export const coverageNeeded = (plan: Plan) => Effect.map(Settings.get(Settings.NipFees), (nip) => reservedFor(plan, nip))

/**
 * Activates a plan awaiting funds, or resumes a depleted one, when the wallet covers the rest of the
 * pot. A new plan is anchored at the first slot after now; a depleted one keeps its anchor, so its
 * missed cycles are due at once and are caught up in order. Provider trouble leaves it as it is.
 */
export const activateIfFunded = (plan: Plan) =>
  Effect.gen(function*() {
    if (plan.state !== "awaiting_funds" && plan.state !== "depleted") return plan
    const wallet = yield* walletBalance(plan.customerId)
    if (Option.isNone(wallet) || wallet.value.withdrawableKobo < (yield* coverageNeeded(plan))) return plan
    const at = yield* now
    const terms = termsOf(plan)
    const anchor = plan.state === "awaiting_funds" || plan.anchorDate === null ? Schedule.anchorDate(terms, at) : plan.anchorDate
    const activated = yield* (yield* PlanRepo).save(
      new Plan({
        ...plan,
        state: "active",
        anchorDate: anchor,
        nextDueAt: Schedule.dueAt(terms, anchor, plan.nextCycle),
        activatedAt: plan.activatedAt ?? at,
        updatedAt: at
      })
    )
    yield* Effect.logInfo("plan activated").pipe(Effect.annotateLogs({ planId: plan.id, from: plan.state }))
    return activated
  }).pipe(
    Effect.catchTags({
      PlanConflict: () => Effect.succeed(plan),
      ProviderRefused: () => Effect.succeed(plan),
      ProviderUnknownOutcome: () => Effect.succeed(plan),
      ProviderMisconfigured: () => Effect.succeed(plan)
    })
  )

/**
 * The activation job: plans awaiting funds or depleted whose wallet now covers them become active.
 * An activated plan is released at once (the due-payout job must see it); one still short keeps its
 * lease until it expires, which sends it to the back of the queue: every waiting plan gets its turn.
 */
export const activateFundedPlans = (options: { readonly limit?: number; readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const claimed = yield* repo.claimInactive(at, new Date(at.getTime() + Duration.toMillis(LEASE)), options.limit ?? 200)
    const activated = yield* Effect.forEach(
      claimed,
      (plan) =>
        activateIfFunded(plan).pipe(
          Effect.map((p) => p.state === "active"),
          Effect.tap((activated) => (activated ? repo.release(plan.id) : Effect.void))
        ),
      { concurrency: options.concurrency ?? 8 }
    )
    return { checked: claimed.length, activated: activated.filter(Boolean).length }
  }).pipe(Effect.withSpan("Plans.activateFundedPlans"))

/** After a deposit: the customer's plan may now be covered. */
export const activateForCustomer = (customerId: string) =>
  Effect.flatMap(findPlan(customerId), Option.match({ onNone: () => Effect.void, onSome: (p) => Effect.asVoid(activateIfFunded(p)) }))

// ---------------------------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------------------------

const cycleIndex = (plan: Plan) => plan.cycleBase + plan.nextCycle

const nipFeeOf = (amountKobo: Kobo) =>
  Effect.map(Settings.get(Settings.NipFees), (schedule) => {
    const q = Fees.quote(amountKobo, schedule)
    return q.feeKobo + q.vatKobo
  })

const sourceAccount = (customerId: string) =>
  Effect.flatMap(AccountRepo, (repo) => repo.findByCustomerId(customerId)).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && found.value.customer.coreAccountNumber !== null
        ? Effect.succeed(found.value.customer.coreAccountNumber)
        : Effect.fail(new NoBankAccount())
    )
  )

/** The open instalment record of the plan's next cycle, created (as scheduled) when missing. */
const ensureCurrentInstalment = (plan: Plan, at: Date) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const amountKobo = Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle)
    const dueAt = Schedule.dueAt(termsOf(plan), plan.anchorDate!, plan.nextCycle)
    const stored = yield* repo.ensureInstalment(
      new Instalment({
        planId: plan.id,
        cycle: cycleIndex(plan),
        amountKobo,
        kind: "scheduled",
        status: "open",
        attempts: 0,
        transactionId: null,
        dueAt,
        paidAt: null,
        createdAt: at,
        updatedAt: at
      })
    )
    // an edit may have replaced the schedule since the record was made: it takes the current terms
    if (stored.status === "open" && stored.transactionId === null && (stored.amountKobo !== amountKobo || stored.dueAt.getTime() !== dueAt.getTime())) {
      return yield* repo.saveInstalment(new Instalment({ ...stored, amountKobo, dueAt, updatedAt: at }))
    }
    return stored
  })

interface PayoutRequest {
  readonly kind: "scheduled" | "borrow" | "extra_cash"
  readonly amountKobo: Kobo
  readonly feeKobo: Kobo
  readonly reserveKobo?: Kobo
  readonly idempotencyKey: string
  readonly requestHash: string
  readonly narration: string
}

/** A new movement from the wallet to the plan's withdrawal account (stored, not yet driven). */
const createMovement = (plan: Plan, request: PayoutRequest, at: Date) =>
  Effect.gen(function*() {
    const id = yield* (yield* Ids).next
    return yield* (yield* TransferRepo).create(
      newTransfer({
        id,
        customerId: plan.customerId,
        sourceAccountNumber: yield* sourceAccount(plan.customerId),
        planId: plan.id,
        purpose: request.kind === "extra_cash" ? "early_withdrawal" : "disbursement",
        amountKobo: request.amountKobo,
        feeKobo: request.feeKobo,
        reserveKobo: request.reserveKobo ?? 0n,
        destinationAccountNumber: plan.withdrawalAccountNumber,
        destinationBankCode: plan.withdrawalBankCode,
        destinationBankName: plan.withdrawalBankName,
        destinationAccountName: plan.withdrawalAccountName,
        // of unknown age: the saga makes a fresh name enquiry before it sends (NIP sessions expire)
        nameEnquirySessionId: plan.nameEnquirySessionId,
        narration: request.narration,
        idempotencyKey: request.idempotencyKey.replace("{id}", id),
        requestHash: request.requestHash,
        leaseUntil: new Date(at.getTime() + Duration.toMillis(LEASE)),
        createdAt: at
      })
    )
  })

/**
 * Starts the payout of the plan's next cycle, if it is due and has no live attempt: under the plan's
 * row lock the instalment record is made and linked to a new movement, so however many schedulers
 * get here, one attempt exists. Returns the movement to drive, if one was started.
 */
const startDuePayout = (planId: string) =>
  atomically(Effect.gen(function*() {
    const repo = yield* PlanRepo
    const at = yield* now
    const plan = Option.getOrThrow(yield* repo.lock(planId))
    if (plan.state !== "active" || plan.nextDueAt === null || plan.nextDueAt.getTime() > at.getTime()) return Option.none<Transfer>()
    if (plan.nextCycle >= plan.cycleCount) return Option.none<Transfer>()
    const instalment = yield* ensureCurrentInstalment(plan, at)
    if (instalment.status !== "open" || instalment.transactionId !== null) return Option.none<Transfer>()
    const created = yield* createMovement(plan, {
      kind: "scheduled",
      amountKobo: instalment.amountKobo,
      feeKobo: yield* nipFeeOf(instalment.amountKobo),
      idempotencyKey: `plan-payout:{id}`,
      requestHash: `plan:${plan.id}:${instalment.cycle}`,
      narration: `Plan payout ${plan.nextCycle + 1} of ${plan.cycleCount}`
    }, at)
    yield* repo.saveInstalment(new Instalment({ ...instalment, transactionId: created.transfer.id, updatedAt: at }))
    return Option.some(created.transfer)
  }))

/**
 * Records the outcome of the live attempt of the plan's current instalment, once its movement is
 * final (see the module notes): paid → the schedule moves on (or the plan completes); failed → the
 * instalment is free again and the plan is depleted, retried later or paused. Idempotent.
 */
export const settle = (planId: string) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const transfers = yield* TransferRepo
    const at = yield* now
    const raised = yield* atomically(Effect.gen(function*() {
      const plan = Option.getOrThrow(yield* repo.lock(planId))
      if (plan.nextCycle >= plan.cycleCount) return null
      const found = yield* repo.findInstalment(plan.id, cycleIndex(plan))
      if (Option.isNone(found)) return null
      const instalment = found.value
      const transfer = instalment.transactionId === null ? Option.none<Transfer>() : yield* transfers.findById(instalment.transactionId)
      if (instalment.status === "open" && (Option.isNone(transfer) || transfer.value.status === "pending")) return null
      if (instalment.status === "paid" || (Option.isSome(transfer) && transfer.value.status === "confirmed")) {
        const paidAt = instalment.paidAt ?? (Option.isSome(transfer) ? transfer.value.updatedAt : at)
        yield* repo.saveInstalment(new Instalment({ ...instalment, status: "paid", paidAt, updatedAt: at }))
        const nextCycle = plan.nextCycle + 1
        const completed = nextCycle >= plan.cycleCount
        yield* repo.save(
          new Plan({
            ...plan,
            nextCycle,
            borrowCount: plan.borrowCount + (instalment.kind === "borrow" && instalment.status === "open" ? 1 : 0),
            state: completed ? "completed" : plan.state,
            nextDueAt: completed ? null : Schedule.dueAt(termsOf(plan), plan.anchorDate!, nextCycle),
            completedAt: completed ? at : null,
            updatedAt: at
          })
        )
        return completed
          ? {
            kind: "plan_completed" as const,
            subject: "Your disbursement plan is complete",
            message: `Every instalment of your ${formatNaira(plan.totalAmountKobo)} plan has been paid.`
          }
          : null
      }
      // the attempt failed (its debit, if any, reversed by the saga)
      const failed = transfer.pipe(Option.getOrThrow)
      if (instalment.kind === "borrow") {
        // a Borrow that did not go through leaves the cycle to the schedule
        yield* repo.saveInstalment(new Instalment({ ...instalment, kind: "scheduled", transactionId: null, updatedAt: at }))
        return null
      }
      if (failed.failureReason === INSUFFICIENT_BALANCE && failed.debitState !== "applied") {
        const needed = yield* coverageNeeded(plan)
        yield* repo.saveInstalment(new Instalment({ ...instalment, transactionId: null, updatedAt: at }))
        yield* repo.save(new Plan({ ...plan, state: "depleted", nextDueAt: null, updatedAt: at }))
        return {
          kind: "plan_depleted" as const,
          subject: "Your plan payout is on hold: fund your wallet",
          message: `Your ${formatNaira(instalment.amountKobo)} payout due ${instalment.dueAt.toISOString()} could not be made: ` +
            `your wallet does not cover it and its fee. Fund your wallet with at least ${formatNaira(needed)} ` +
            `and your plan resumes, paying what is due.`
        }
      }
      const rules = yield* Settings.get(Settings.PayoutRetrySetting)
      const attempts = instalment.attempts + 1
      yield* repo.saveInstalment(new Instalment({ ...instalment, attempts, transactionId: null, updatedAt: at }))
      if (attempts >= rules.maxAttempts) {
        yield* repo.save(new Plan({ ...plan, state: "paused", nextDueAt: null, updatedAt: at }))
        return {
          kind: "plan_paused" as const,
          subject: "Your plan payouts are paused",
          message: `We could not pay ${formatNaira(instalment.amountKobo)} to ${plan.withdrawalAccountName} ` +
            `(${plan.withdrawalAccountNumber}) after ${attempts} attempts. The money is in your wallet. ` +
            `Check the withdrawal account and update your plan to resume the payouts.`
        }
      }
      yield* repo.save(
        new Plan({ ...plan, nextDueAt: new Date(at.getTime() + rules.retryAfterMinutes * 60_000), updatedAt: at })
      )
      return null
    }))
    if (raised !== null) yield* Notices.raise({ customerId: (yield* repo.findById(planId)).pipe(Option.getOrThrow).customerId, planId, ...raised })
  }).pipe(
    // someone else settled it first: that is fine
    Effect.catchTag("PlanConflict", () => Effect.void),
    Effect.withSpan("Plans.settle", { attributes: { planId } })
  )

export interface PlanRun {
  readonly paid: number
  readonly failed: number
}

/**
 * Works one plan as far as it goes now: settles the live attempt, then pays every due cycle, one
 * after the other (catch-up after downtime), until the plan is not due, waits on a pending payout,
 * or the customer has another movement in flight (tried again on the next run).
 */
export const runPlan = (planId: string) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    let paid = 0
    let failed = 0
    for (let guard = 0; guard < 10_000; guard++) {
      yield* settle(planId)
      const plan = Option.getOrThrow(yield* repo.findById(planId))
      const started = yield* startDuePayout(plan.id).pipe(
        Effect.catchTag("MovementInFlight", () => Effect.succeed(Option.none<Transfer>()))
      )
      if (Option.isNone(started)) break
      const t = yield* drive(started.value)
      if (t.status === "confirmed") paid++
      else if (t.status === "failed") failed++
      else {
        // pending: reconciliation settles it; the plan waits on this cycle
        yield* settle(planId)
        break
      }
      // a failure may leave the plan due again later (retry) or stopped; the loop sees it
      if (t.status === "failed") {
        yield* settle(planId)
        break
      }
    }
    return { paid, failed } satisfies PlanRun
  }).pipe(Effect.withSpan("Plans.runPlan", { attributes: { planId } }))

/**
 * The due-payout job: claims due plans in batches (FOR UPDATE SKIP LOCKED, with a lease), works each
 * with bounded concurrency, and goes on until nothing is due or `maxBatches` batches ran. Safe to
 * run in several processes at once.
 */
export const processDuePayouts = (
  options: { readonly batchSize?: number; readonly concurrency?: number; readonly maxBatches?: number } = {}
) =>
  Effect.gen(function*() {
    const repo = yield* PlanRepo
    const batchSize = options.batchSize ?? 200
    let plans = 0
    let paid = 0
    let failed = 0
    for (let batch = 0; batch < (options.maxBatches ?? 50); batch++) {
      const at = yield* now
      const claimed = yield* repo.claimDue(at, new Date(at.getTime() + Duration.toMillis(LEASE)), batchSize)
      if (claimed.length === 0) break
      const runs = yield* Effect.forEach(
        claimed,
        (plan) =>
          runPlan(plan.id).pipe(
            Effect.catchAllCause((cause) =>
              Effect.logError("plan run failed").pipe(
                Effect.annotateLogs({ planId: plan.id, cause: String(cause) }),
                Effect.as({ paid: 0, failed: 0 })
              )
            ),
            Effect.ensuring(repo.release(plan.id))
          ),
        { concurrency: options.concurrency ?? 16 }
      )
      plans += claimed.length
      for (const r of runs) {
        paid += r.paid
        failed += r.failed
      }
      if (claimed.length < batchSize) break
    }
    return { plans, paid, failed }
  }).pipe(Effect.withSpan("Plans.processDuePayouts"))

// ---------------------------------------------------------------------------------------------
// Borrow
// ---------------------------------------------------------------------------------------------

export type BorrowEligibility =
  | { readonly eligible: true; readonly amountKobo: Kobo }
  | { readonly eligible: false; readonly amountKobo: Kobo; readonly reason: string }

/**
 * Borrow rules (pure): the plan is active; the next cycle is not the final one; the customer has
 * not already borrowed or been paid this period; the lifetime cap is not reached. "This period" is
 * the one ending at the next due date on the plan's calendar: Borrow pays that cycle now, so a
 * second Borrow (or one after the cycle was paid) would reach into a later period. A cycle whose
 * payout is due or in progress also refuses.
 */
export const borrowEligibility = (
  plan: Plan,
  at: Date,
  cap: number,
  current: Option.Option<Instalment>
): BorrowEligibility => {
  const amountKobo = plan.nextCycle < plan.cycleCount
    ? Schedule.amountOfCycle(plan.totalAmountKobo, plan.cycleCount, plan.nextCycle)
    : 0n
  const no = (reason: string): BorrowEligibility => ({ eligible: false, amountKobo, reason })
  if (plan.state !== "active" || plan.anchorDate === null) return no("Your plan is not active")
  if (plan.nextCycle >= plan.cycleCount - 1) return no("Borrow is not available for the final period of a plan")
  if (Option.isSome(current) && current.value.status === "open" && current.value.transactionId !== null) {
    return no("A payout of your plan is in progress")
  }
  if (plan.nextDueAt !== null && plan.nextDueAt.getTime() <= at.getTime()) return no("A scheduled payout of your plan is due now")
  // the calendar's next cycle: the first whose due date is still ahead
  const terms = termsOf(plan)
  let calendar = 0
  while (calendar < plan.cycleCount && Schedule.dueAt(terms, plan.anchorDate, calendar).getTime() <= at.getTime()) calendar++
  if (plan.nextCycle > calendar) return no("You have already borrowed or been paid this period")
  if (plan.borrowCount >= cap) return no(`You have used all ${cap} borrows of this plan`)
  return { eligible: true, amountKobo }
}

const requireOpenPlan = (customerId: string) =>
  Effect.flatMap(findPlan(customerId), (found) =>
    Option.isSome(found) && found.value.state !== "completed" ? Effect.succeed(found.value) : Effect.fail(new PlanNotFound()))

/** `GET /disbursements/plan/borrow/quote`. */
export const borrowQuote = (accountId: string) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const found = yield* findPlan(customer.id)
    if (Option.isNone(found)) return yield* new PlanNotFound()
    const plan = found.value
    const current = yield* (yield* PlanRepo).findInstalment(plan.id, cycleIndex(plan))
    return borrowEligibility(plan, yield* now, yield* Settings.get(Settings.BorrowCap), current)
  }).pipe(Effect.withSpan("Plans.borrowQuote"))

/** A movement stored under this key earlier: the same request gets its outcome, another is a conflict. */
const replay = (customerId: string, idempotencyKey: string, requestHash: string) =>
  Effect.flatMap(TransferRepo, (repo) => repo.findByIdempotencyKey(customerId, idempotencyKey)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed(Option.none<Transfer>()),
      onSome: (t): Effect.Effect<Option.Option<Transfer>, TransferFailed | IdempotencyConflict> =>
        t.requestHash === requestHash ? Effect.map(outcome(t), Option.some) : Effect.fail(new IdempotencyConflict())
    }))
  )

const outcome = (t: Transfer) =>
  t.status === "failed"
    ? Effect.fail(new TransferFailed({ transactionId: t.id, reason: t.failureReason ?? "The transfer failed" }))
    : Effect.succeed(t)

/**
 * A refusal that an identical request racing this one may have caused (its movement now holds the
 * in-flight slot, the cycle or a cap): if a movement is stored under this request's key, that is
 * the answer, as for a plain retry; otherwise the refusal stands.
 */
const replayOr = <E>(accountId: string, idempotencyKey: string, request: string, refusal: E) =>
  Effect.gen(function*() {
    const hash = yield* (yield* SecretHasher).digest("plan-request", request)
    const customer = yield* requireCustomer(accountId)
    const stored = yield* replay(customer.id, idempotencyKey, hash)
    return Option.isSome(stored) ? stored.value : yield* Effect.fail(refusal)
  })

/** The outcome of a movement stored under the request's key, or a conflict if another request stored it. */
const sameRequest = (t: Transfer, requestHash: string) =>
  t.requestHash === requestHash ? outcome(t) : Effect.fail(new IdempotencyConflict())

/**
 * `POST /disbursements/plan/borrow`: pays the next cycle now (no fee beyond its NIP fee). The cycle
 * then counts as paid: its scheduled payout is skipped and the schedule continues from the next
 * one. The idempotency key works as for transfers. Eligibility is checked again under the plan's
 * row lock, so concurrent requests cannot exceed the cap or borrow twice in a period.
 */
export const borrow = (accountId: string, idempotencyKey: string) =>
  Effect.gen(function*() {
    const { customer } = yield* requireWallet(accountId)
    if (customer.firstDepositAt === null) return yield* new WithdrawalsNotAllowed()
    const requestHash = yield* (yield* SecretHasher).digest("plan-request", "borrow")
    const earlier = yield* replay(customer.id, idempotencyKey, requestHash)
    if (Option.isSome(earlier)) return earlier.value
    const planId = (yield* requireOpenPlan(customer.id)).id
    const repo = yield* PlanRepo
    const cap = yield* Settings.get(Settings.BorrowCap)
    // stored and driven as one uninterruptible step: a client that goes away does not leave the
    // customer's account in flight until recovery takes over
    const started = yield* Effect.uninterruptible(atomically(Effect.gen(function*() {
      const at = yield* now
      const plan = Option.getOrThrow(yield* repo.lock(planId))
      const current = yield* repo.findInstalment(plan.id, cycleIndex(plan))
      const eligibility = borrowEligibility(plan, at, cap, current)
      if (!eligibility.eligible) return yield* new BorrowNotEligible({ reason: eligibility.reason })
      const instalment = yield* ensureCurrentInstalment(plan, at)
      const created = yield* createMovement(plan, {
        kind: "borrow",
        amountKobo: instalment.amountKobo,
        feeKobo: yield* nipFeeOf(instalment.amountKobo),
        idempotencyKey,
        requestHash,
        narration: `Borrow: plan payout ${plan.nextCycle + 1} of ${plan.cycleCount}`
      }, at)
      // a concurrent request with the same key got there first: its movement is the answer (its
      // own request drives it)
      if (!created.created) return { transfer: created.transfer, created: false }
      yield* repo.saveInstalment(new Instalment({ ...instalment, kind: "borrow", transactionId: created.transfer.id, updatedAt: at }))
      return { transfer: created.transfer, created: true }
    })).pipe(
      Effect.flatMap(({ created, transfer }) =>
        created ? Effect.zipLeft(drive(transfer), settle(planId)) : Effect.succeed(transfer)
      )
    ))
    return yield* sameRequest(started, requestHash)
  }).pipe(
    Effect.catchTags({
      MovementInFlight: (e) => replayOr(accountId, idempotencyKey, "borrow", e),
      BorrowNotEligible: (e) => replayOr(accountId, idempotencyKey, "borrow", e)
    }),
    Effect.withSpan("Plans.borrow")
  )

// ---------------------------------------------------------------------------------------------
// Extra Cash
// ---------------------------------------------------------------------------------------------

/** Extra Cash fees on `amountKobo`: the flat fee plus the NIP fee with VAT. */
export const extraCashFees = (amountKobo: Kobo, feeBasisPoints: bigint, nip: Fees.NipFeeSchedule): Kobo => {
  const q = Fees.quote(amountKobo, nip)
  return Fees.basisPointsOf(amountKobo, feeBasisPoints) + q.feeKobo + q.vatKobo
}

/**
 * The largest amount whose debit (amount + fees) fits in `free` kobo. Fees only grow with the amount,
 * so the debit is monotone and a binary search finds it exactly.
 */
export const maxWithdrawal = (free: Kobo, feeBasisPoints: bigint, nip: Fees.NipFeeSchedule): Kobo => {
  if (free <= 0n) return 0n
  let lo = 0n
  let hi = free
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n
    if (mid + extraCashFees(mid, feeBasisPoints, nip) <= free) lo = mid
    else hi = mid - 1n
  }
  return lo
}

const extraCashPosition = (plan: Plan) =>
  Effect.gen(function*() {
    const nip = yield* Settings.get(Settings.NipFees)
    const rules = yield* Settings.get(Settings.ExtraCashSetting)
    const wallet = yield* walletBalance(plan.customerId)
    const vaultBalanceKobo = Option.match(wallet, { onNone: () => 0n, onSome: (w) => w.withdrawableKobo })
    const reservedKobo = reservedFor(plan, nip)
    const free = vaultBalanceKobo - reservedKobo
    return {
      vaultBalanceKobo,
      reservedKobo,
      maxWithdrawalKobo: maxWithdrawal(free, rules.feeBasisPoints, nip),
      feeRate: Number(rules.feeBasisPoints) / 10_000,
      rules,
      nip
    }
  })

const requireActivePlan = (customerId: string) =>
  Effect.flatMap(findPlan(customerId), (found) =>
    Option.isSome(found) && found.value.state === "active" ? Effect.succeed(found.value) : Effect.fail(new PlanNotActive()))

/** `GET /disbursements/plan/extra-cash/quote` (400 without an active plan). */
export const extraCashQuote = (accountId: string) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const plan = yield* requireActivePlan(customer.id)
    const position = yield* extraCashPosition(plan)
    const repo = yield* PlanRepo
    const at = yield* now
    const today = Schedule.localDayBounds(at, plan.timeZone).start
    return {
      vaultBalanceKobo: position.vaultBalanceKobo,
      reservedKobo: position.reservedKobo,
      maxWithdrawalKobo: position.maxWithdrawalKobo,
      feeRate: position.feeRate,
      usedToday: yield* repo.countMovements(plan.id, "early_withdrawal", today),
      usedTotal: yield* repo.countMovements(plan.id, "early_withdrawal", null),
      perDay: position.rules.perDay,
      perPlan: position.rules.perPlan
    }
  }).pipe(Effect.withSpan("Plans.extraCashQuote"))

/**
 * `POST /disbursements/plan/extra-cash`: an early withdrawal of unused vault balance to the plan's
 * withdrawal account. The destination gets the full amount; the flat fee and the NIP fee are debited
 * from the wallet on top. Refused above the maximum, and beyond 3 a day (local day in the plan's
 * zone) or 5 per plan: the caps are counted under the plan's row lock with the new movement stored
 * in the same transaction, so concurrent requests cannot exceed them. The saga checks the reserve
 * again against the balance it reads while holding the customer's one in-flight slot.
 */
export const extraCash = (accountId: string, amountKobo: Kobo, idempotencyKey: string) =>
  Effect.gen(function*() {
    const { customer } = yield* requireWallet(accountId)
    const requestHash = yield* (yield* SecretHasher).digest("plan-request", `extra-cash:${amountKobo}`)
    const earlier = yield* replay(customer.id, idempotencyKey, requestHash)
    if (Option.isSome(earlier)) return earlier.value
    if (customer.firstDepositAt === null) return yield* new WithdrawalsNotAllowed()
    const plan = yield* requireActivePlan(customer.id)
    if (amountKobo <= 0n) return yield* new ExtraCashNotAllowed({ reason: "The amount must be positive" })
    const position = yield* extraCashPosition(plan)
    if (amountKobo > position.maxWithdrawalKobo) {
      return yield* new ExtraCashNotAllowed({
        reason: `The most you can withdraw now is ${formatNaira(position.maxWithdrawalKobo)}`
      })
    }
    const repo = yield* PlanRepo
    const started = yield* Effect.uninterruptible(atomically(Effect.gen(function*() {
      const at = yield* now
      const locked = Option.getOrThrow(yield* repo.lock(plan.id))
      if (locked.state !== "active") return yield* new PlanNotActive()
      if ((yield* repo.countMovements(plan.id, "early_withdrawal", null)) >= position.rules.perPlan) {
        return yield* new ExtraCashNotAllowed({ reason: `Extra Cash is limited to ${position.rules.perPlan} per plan` })
      }
      const today = Schedule.localDayBounds(at, locked.timeZone).start
      if ((yield* repo.countMovements(plan.id, "early_withdrawal", today)) >= position.rules.perDay) {
        return yield* new ExtraCashNotAllowed({ reason: `Extra Cash is limited to ${position.rules.perDay} a day` })
      }
      const created = yield* createMovement(locked, {
        kind: "extra_cash",
        amountKobo,
        feeKobo: extraCashFees(amountKobo, position.rules.feeBasisPoints, position.nip),
        reserveKobo: reservedFor(locked, position.nip),
        idempotencyKey,
        requestHash,
        narration: "Extra Cash"
      }, at)
      return created
    })).pipe(
      Effect.flatMap(({ created, transfer }) => (created ? drive(transfer) : Effect.succeed(transfer)))
    ))
    return yield* sameRequest(started, requestHash)
  }).pipe(
    Effect.catchTags({
      MovementInFlight: (e) => replayOr(accountId, idempotencyKey, `extra-cash:${amountKobo}`, e),
      ExtraCashNotAllowed: (e) => replayOr(accountId, idempotencyKey, `extra-cash:${amountKobo}`, e)
    }),
    Effect.withSpan("Plans.extraCash")
  )

export { MovementInFlight }
