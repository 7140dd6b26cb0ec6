/**
 * Extra Cash: an early withdrawal beyond the schedule, with its fee.
 */
import { Effect, Option } from "effect"
import * as Settings from "../settings/Settings.js"
import { formatNaira, type Kobo } from "../shared/Money.js"
import { SecretHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { WithdrawalsNotAllowed } from "../transfers/Errors.js"
import { driveFresh } from "../transfers/Executor.js"
import * as Fees from "../transfers/Fees.js"
import { reservedFor, walletBalance } from "./Activation.js"
import { requireWallet } from "./Editing.js"
import { ExtraCashNotAllowed, PlanNotActive } from "./Errors.js"
import { Plan } from "./Model.js"
import { createMovement } from "./Payouts.js"
import { PlanRepo } from "./Ports.js"
import { findPlan, requireCustomer } from "./Queries.js"
import { replay, replayOr, sameRequest } from "./Replay.js"
import * as Schedule from "./Schedule.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

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

const requireActivePlan = (customerId: CustomerId) =>
  Effect.flatMap(findPlan(customerId), (found) =>
    Option.isSome(found) && found.value.state === "active" ? Effect.succeed(found.value) : Effect.fail(new PlanNotActive()))

/** `GET /disbursements/plan/extra-cash/quote` (400 without an active plan). */
export const extraCashQuote = (accountId: AccountId) =>
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
  }).pipe(withSpan("Plans.extraCashQuote"))

/**
 * `POST /disbursements/plan/extra-cash`: an early withdrawal of unused vault balance to the plan's
 * withdrawal account. The destination gets the full amount; the flat fee and the NIP fee are debited
 * from the wallet on top. Refused above the maximum, and beyond 3 a day (local day in the plan's
 * zone) or 5 per plan: the caps are counted under the plan's row lock with the new movement stored
 * in the same transaction, so concurrent requests cannot exceed them. The saga checks the reserve
 * again against the balance it reads while holding the customer's one in-flight slot.
 */
export const extraCash = (accountId: AccountId, amountKobo: Kobo, idempotencyKey: string) =>
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
      Effect.flatMap(({ created, transfer }) => (created ? driveFresh(transfer) : Effect.succeed(transfer)))
    ))
    return yield* sameRequest(started, requestHash)
  }).pipe(
    Effect.catchTags({
      MovementInFlight: (e) => replayOr(accountId, idempotencyKey, `extra-cash:${amountKobo}`, e),
      ExtraCashNotAllowed: (e) => replayOr(accountId, idempotencyKey, `extra-cash:${amountKobo}`, e)
    }),
    withSpan("Plans.extraCash")
  )
