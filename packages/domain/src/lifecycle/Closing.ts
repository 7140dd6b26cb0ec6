/**
 * Closing an account: the whole withdrawable balance swept out through the transfer saga (one
 * movement, journaled, idempotent by key, one in flight per customer, recovered and reconciled by
 * the existing jobs), then the core account frozen, the plan ended, the customer closed and told.
 *
 * - `closeAccount` (POST /customers/close-account): OTP-gated; the idempotency key is looked up
 *   first, so a retry gets the first answer without a new code. The customer is moved to `closing`
 *   in the unit of work that stores the sweep movement and the closure, under the plan's row lock:
 *   from then on no other movement can start (every money path needs `active`) and the due-payout
 *   job pays nothing (it checks the customer under the same lock).
 * - The sweep sends the largest amount whose amount + NIP fee (with VAT) fits in the withdrawable
 *   balance (`maxWithdrawal` with no Extra Cash fee: only the 4% penalty is waived). A balance that
 *   cannot cover the fee sends nothing and the closure proceeds at once.
 * - `settleClosure` finishes a closure whose sweep is final: confirmed → freeze at the provider,
 *   plan `closed`, customer `closed`, statement email (and the deletion, if it was asked for);
 *   failed → customer `active` again, and an email. A sweep the bank answered "pending" is finished
 *   by `processClosures` (scheduler) once reconciliation settles it. Claims carry a lease, so any
 *   number of processes can run it; every step is idempotent (the provider answers a second freeze
 *   with the first one's reference).
 */
import { Cause, Duration, Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { AccountNotActive } from "../account/Errors.js"
import type { AccountWithCustomer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { raiseAlert } from "../admin/Alerts.js"
import { passOtpGate } from "../auth/OtpGate.js"
import { PinRepo } from "../auth/Ports.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import { NoBankAccount } from "../banking/Errors.js"
import { BeneficiaryRepo } from "../beneficiaries/Ports.js"
import * as Notices from "../notifications/Notices.js"
import type { Destination } from "../plans/Editing.js"
import { maxWithdrawal } from "../plans/ExtraCash.js"
import { Plan } from "../plans/Model.js"
import { PlanRepo } from "../plans/Ports.js"
import * as Settings from "../settings/Settings.js"
import { formatNaira, type Kobo } from "../shared/Money.js"
import { Ids, SecretHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { IdempotencyConflict, MovementInFlight, TransferFailed } from "../transfers/Errors.js"
import { drive } from "../transfers/Executor.js"
import * as Fees from "../transfers/Fees.js"
import { newTransfer, type Transfer } from "../transfers/Model.js"
import { TransferRepo } from "../transfers/Ports.js"
import { LEASE } from "../transfers/Steps.js"
import { deleteNow } from "./Erasure.js"
import { NoClosureDestination } from "./Errors.js"
import { AccountClosure } from "./Model.js"
import { ClosureRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId, TransactionId } from "../shared/Ids.js"

/** The reason sent to the provider with the freeze of a closed account. */
export const CLOSE_FREEZE_REASON = "Account closed by the customer"

/** What close-account answers: the sweep's status and what it sent. */
export interface ClosureAnswer {
  readonly status: "confirmed" | "pending"
  readonly amountWithdrawnKobo: Kobo
  readonly closure: AccountClosure
}

/** The one request close-account makes: every retry of a key is the same request. */
export const closeRequestHash = Effect.flatMap(SecretHasher, (h) => h.digest("close-account-request", "close-account"))

const leaseFrom = (at: Date) => new Date(at.getTime() + Duration.toMillis(LEASE))

/** The answer of a stored closure: its sweep's status (a failed sweep is TransferFailed). */
export const answerOf = (closure: AccountClosure) =>
  Effect.gen(function*() {
    if (closure.transactionId === null) {
      return { status: "confirmed", amountWithdrawnKobo: 0n, closure } satisfies ClosureAnswer as ClosureAnswer
    }
    const t = Option.getOrThrow(yield* (yield* TransferRepo).findById(closure.transactionId))
    if (t.status === "failed") {
      return yield* new TransferFailed({ transactionId: t.id, reason: t.failureReason ?? "The transfer failed" })
    }
    return { status: t.status, amountWithdrawnKobo: t.amountKobo, closure } satisfies ClosureAnswer as ClosureAnswer
  })

/**
 * The closure stored under this key, if any (a different request under the key is a conflict: a
 * movement of another operation already holds it).
 */
export const closureByKey = (customerId: CustomerId, idempotencyKey: string, requestHash: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* ClosureRepo).findByKey(customerId, idempotencyKey)
    if (Option.isSome(found)) {
      return found.value.requestHash === requestHash ? found : yield* new IdempotencyConflict()
    }
    const movement = yield* (yield* TransferRepo).findByIdempotencyKey(customerId, idempotencyKey)
    if (Option.isSome(movement)) return yield* new IdempotencyConflict()
    return Option.none<AccountClosure>()
  })

/** The open plan's withdrawal account, else the default saved beneficiary. */
const destinationOf = (customerId: CustomerId, plan: Option.Option<Plan>) =>
  Effect.gen(function*() {
    if (Option.isSome(plan)) {
      const p = plan.value
      return {
        accountNumber: p.withdrawalAccountNumber,
        bankCode: p.withdrawalBankCode,
        bankName: p.withdrawalBankName,
        accountName: p.withdrawalAccountName,
        sessionId: p.nameEnquirySessionId
      } satisfies Destination
    }
    const saved = (yield* (yield* BeneficiaryRepo).list(customerId)).find((b) => b.isDefault)
    if (saved === undefined) return yield* new NoClosureDestination()
    // of unknown age: the saga makes a fresh name enquiry before it sends
    return { ...saved, sessionId: "" } satisfies Destination
  })

/** The customer's plan that can still pay out (not completed, not already ended). */
export const openPlanOf = (customerId: CustomerId) =>
  Effect.map(
    Effect.flatMap(PlanRepo, (repo) => repo.findForCustomer(customerId)),
    Option.filter((p) => p.state !== "completed" && p.state !== "closed")
  )

export interface ClosureRequest {
  readonly idempotencyKey: string
  readonly requestHash: string
  /** set by delete-account: the deletion follows the closure */
  readonly deleteVia: Option.Option<string | null>
}

/**
 * Starts the closure of an active customer (after the OTP gate): checks, the sweep amount, then
 * in one unit of work the customer `closing`, the closure and its sweep movement; the sweep is
 * driven at once and the closure finished when it is final.
 */
export const startClosure = (found: AccountWithCustomer, request: ClosureRequest) =>
  Effect.gen(function*() {
    const { customer } = found
    if (customer.customerStatus !== "active") return yield* new AccountNotActive({ customerStatus: customer.customerStatus })
    const accountNumber = customer.coreAccountNumber
    if (accountNumber === null) return yield* new NoBankAccount()
    const transfers = yield* TransferRepo
    // any movement not final, a transfer the bank answered "pending" included (its failure would
    // reverse the money into a frozen, closed account): the spec's "a transaction in progress"
    if (yield* transfers.hasUnsettledMovement(customer.id)) return yield* new MovementInFlight()
    const plan = yield* openPlanOf(customer.id)
    const destination = yield* destinationOf(customer.id, plan)
    const nip = yield* Settings.get(Settings.NipFees)
    const snapshot = yield* (yield* CoreBanking).account(accountNumber)
    // only the Extra Cash penalty is waived: the NIP fee (with VAT) is still debited
    const amountKobo = maxWithdrawal(snapshot.withdrawableBalanceKobo, 0n, nip)
    const fee = Fees.quote(amountKobo, nip)
    const ids = yield* Ids
    const closureId = yield* ids.next
    const transferId = TransactionId.make(yield* ids.next)
    const started = yield* Effect.uninterruptible(atomically(Effect.gen(function*() {
      const at = yield* now
      const plans = yield* PlanRepo
      // the plan's row lock orders the closure with a payout starting now
      if (Option.isSome(plan)) yield* plans.lock(plan.value.id)
      const accounts = yield* AccountRepo
      const current = Option.getOrThrow(yield* accounts.findById(found.account.id)).customer
      if (current.customerStatus !== "active") return yield* new AccountNotActive({ customerStatus: current.customerStatus })
      // first: a twin racing this one (another closure of the customer, or the same key) waits on
      // the closure's unique keys and is refused here, before anything else is written
      const closure = new AccountClosure({
        id: closureId,
        customerId: customer.id,
        idempotencyKey: request.idempotencyKey,
        requestHash: request.requestHash,
        transactionId: amountKobo > 0n ? transferId : null,
        amountKobo,
        planId: Option.match(plan, { onNone: () => null, onSome: (p) => p.id }),
        status: "closing",
        freezeReference: null,
        deleteRequested: Option.isSome(request.deleteVia),
        deleteVia: Option.getOrNull(request.deleteVia),
        createdAt: at,
        updatedAt: at,
        closedAt: null
      })
      if (!(yield* (yield* ClosureRepo).insert(closure))) {
        return yield* new AccountNotActive({ customerStatus: "closing" })
      }
      yield* accounts.transitionStatus(found.account.id, "active", "closing", at)
      // The status read above takes no lock: a change committed since (an admin freeze, say) makes
      // the transition match no row. Only a customer `closing` now may go on; anything else rolls
      // the closure back, refused on the status they have now.
      const moved = Option.getOrThrow(yield* accounts.findById(found.account.id)).customer
      if (moved.customerStatus !== "closing") return yield* new AccountNotActive({ customerStatus: moved.customerStatus })
      let transfer: Transfer | null = null
      if (amountKobo > 0n) {
        const created = yield* transfers.create(newTransfer({
          id: transferId,
          customerId: customer.id,
          sourceAccountNumber: accountNumber,
          planId: null,
          purpose: "early_withdrawal",
          amountKobo,
          feeKobo: fee.feeKobo + fee.vatKobo,
          destinationAccountNumber: destination.accountNumber,
          destinationBankCode: destination.bankCode,
          destinationBankName: destination.bankName,
          destinationAccountName: destination.accountName,
          nameEnquirySessionId: destination.sessionId,
          narration: "Account closure",
          idempotencyKey: request.idempotencyKey,
          requestHash: request.requestHash,
          leaseUntil: leaseFrom(at),
          createdAt: at
        }))
        // the key is taken (another operation, or a twin of this request that won the race)
        if (!created.created) return yield* new IdempotencyConflict()
        transfer = created.transfer
      }
      // Again, now that the sweep holds the customer's in-flight slot (a movement starting from now
      // waits for this unit of work and is refused): one that started after the check above.
      if (yield* transfers.hasUnsettledMovement(customer.id, transfer?.id)) return yield* new MovementInFlight()
      return { closure, transfer }
    })).pipe(Effect.tap(({ transfer }) => (transfer === null ? Effect.void : drive(transfer)))))
    yield* settleClosure(started.closure.id)
    return started.closure
  }).pipe(withSpan("Lifecycle.startClosure"))

/**
 * `POST /customers/close-account`. A key seen before answers as it did (no new code needed); a
 * movement not final refuses (MovementInFlight) before the OTP gate, so the code is not spent; a
 * new closure passes the gate first. A refusal that a twin request racing this one may have
 * caused (it holds the in-flight slot or already moved the customer to `closing`) is answered
 * with that twin's closure when it stored one under this key.
 */
export const closeAccount = (accountId: AccountId, input: { readonly idempotencyKey: string; readonly otpPinId: string; readonly otpCode: string }) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    const requestHash = yield* closeRequestHash
    const earlier = yield* closureByKey(found.customer.id, input.idempotencyKey, requestHash)
    if (Option.isSome(earlier)) return yield* answerOf(earlier.value)
    const raced = (e: AccountNotActive | MovementInFlight | IdempotencyConflict) =>
      Effect.flatMap(closureByKey(found.customer.id, input.idempotencyKey, requestHash), (stored) =>
        Option.isSome(stored)
          ? answerOf(stored.value)
          : Effect.fail<AccountNotActive | MovementInFlight | IdempotencyConflict | TransferFailed>(e))
    // a movement not final refuses before the gate, so the code stays good (startClosure checks again)
    if (yield* (yield* TransferRepo).hasUnsettledMovement(found.customer.id)) return yield* raced(new MovementInFlight())
    yield* passOtpGate(accountId, input.otpPinId, input.otpCode)
    return yield* startClosure(found, { idempotencyKey: input.idempotencyKey, requestHash, deleteVia: Option.none() }).pipe(
      Effect.flatMap(answerOf),
      Effect.catchTags({ AccountNotActive: raced, MovementInFlight: raced, IdempotencyConflict: raced })
    )
  }).pipe(withSpan("Lifecycle.closeAccount"))

/** Finishes the closure if its sweep is final and no other process holds it; the closure as it stands. */
export const settleClosure = (closureId: string) =>
  Effect.gen(function*() {
    const repo = yield* ClosureRepo
    const at = yield* now
    const claimed = yield* repo.claim(closureId, at, leaseFrom(at))
    if (Option.isSome(claimed)) yield* work(claimed.value)
    return Option.getOrThrow(yield* repo.findById(closureId))
  })

/**
 * The work on a claimed closure: a sweep still pending is left to reconciliation (lease released);
 * a failed one reopens the account; a confirmed one (or none) finishes the closure. A closed one
 * whose deletion was asked for (and failed before) is deleted.
 */
const work = (closure: AccountClosure) =>
  Effect.gen(function*() {
    const repo = yield* ClosureRepo
    if (closure.status === "closed") return yield* followWithDeletion(closure)
    const t = closure.transactionId === null
      ? null
      : Option.getOrThrow(yield* (yield* TransferRepo).findById(closure.transactionId))
    if (t !== null && t.status === "pending") return yield* repo.save(closure)
    if (t !== null && t.status === "failed") return yield* reopen(closure, t)
    yield* finish(closure, t)
  })

const reopen = (closure: AccountClosure, t: Transfer) =>
  Effect.gen(function*() {
    const at = yield* now
    const found = Option.getOrThrow(yield* (yield* AccountRepo).findByCustomerId(closure.customerId))
    yield* atomically(Effect.gen(function*() {
      yield* (yield* AccountRepo).transitionStatus(found.account.id, "closing", "active", at)
      yield* (yield* ClosureRepo).save(new AccountClosure({ ...closure, status: "failed", updatedAt: at }))
    }))
    yield* Notices.raise({
      customerId: closure.customerId,
      kind: "account_closure_failed",
      transactionId: t.id,
      subject: "Your account was not closed",
      message: `We could not close your account: the transfer of ${formatNaira(t.amountKobo)} to ` +
        `${t.destinationAccountName} (${t.destinationAccountNumber}) failed (${t.failureReason ?? "refused by the bank"}). ` +
        "Any amount debited was returned to your wallet, and your account remains active."
    })
  })

const freezeAtProvider = (customerId: CustomerId, accountNumber: string, at: Date) =>
  Effect.gen(function*() {
    const { freezeReference } = yield* (yield* CoreBanking).freeze({ accountNumber, reason: CLOSE_FREEZE_REASON })
    yield* (yield* PinRepo).recordProviderFreeze(customerId, freezeReference, at)
    return freezeReference
  })

const finish = (closure: AccountClosure, t: Transfer | null) =>
  Effect.gen(function*() {
    const repo = yield* ClosureRepo
    const at = yield* now
    const found = Option.getOrThrow(yield* (yield* AccountRepo).findByCustomerId(closure.customerId))
    const accountNumber = found.customer.coreAccountNumber!
    const frozen = yield* Effect.either(freezeAtProvider(closure.customerId, accountNumber, at))
    if (frozen._tag === "Left") {
      // not closed yet: the job tries again; staff are told once it keeps failing
      yield* raiseAlert({
        kind: "account_closure_stuck",
        dedupKey: `account_closure_stuck:${closure.id}`,
        message: `Closure ${closure.id} of customer ${closure.customerId}: its sweep is done but the core account ` +
          `could not be frozen (${frozen.left._tag}). The closure job retries every minute; check the account with the bank.`,
        customerId: closure.customerId,
        transactionId: closure.transactionId
      })
      return yield* repo.save(closure)
    }
    const closed = new AccountClosure({ ...closure, status: "closed", freezeReference: frozen.right, closedAt: at, updatedAt: at })
    yield* atomically(Effect.gen(function*() {
      if (closure.planId !== null) {
        const plans = yield* PlanRepo
        const plan = Option.getOrThrow(yield* plans.lock(closure.planId))
        if (plan.state !== "completed" && plan.state !== "closed") {
          yield* plans.save(new Plan({ ...plan, state: "closed", nextDueAt: null, updatedAt: at })).pipe(Effect.orDie)
        }
      }
      yield* (yield* AccountRepo).transitionStatus(found.account.id, "closing", "closed", at)
      yield* repo.save(closed)
    }))
    yield* Notices.raise({
      customerId: closure.customerId,
      kind: "account_closed",
      transactionId: t?.id ?? null,
      planId: closure.planId,
      subject: "Your account is closed",
      message: t === null
        ? "Your account is closed. Your wallet held too little to cover the transfer fee, so nothing was sent. " +
          "Thank you for saving with us."
        : `Your account is closed. We sent ${formatNaira(t.amountKobo)} to ${t.destinationAccountName} ` +
          `(${t.destinationBankName}, ${t.destinationAccountNumber}), reference ${t.id}; the transfer fee was ` +
          `${formatNaira(t.feeKobo)}. Your plan has ended and no further payouts will be made.`
    })
    if (closed.deleteRequested) yield* followWithDeletion(closed)
  })

/** The deletion asked for with the closure; a failure (alerted) leaves it to the next run of the job. */
const followWithDeletion = (closure: AccountClosure) =>
  Effect.gen(function*() {
    const found = Option.getOrThrow(yield* (yield* AccountRepo).findByCustomerId(closure.customerId))
    if (found.customer.customerStatus === "closed") {
      yield* Effect.ignore(deleteNow(found, closure.deleteVia))
    }
    yield* (yield* ClosureRepo).save(closure)
  })

/**
 * The closure job (every minute, and at start-up): finishes closures whose sweep reconciliation
 * settled, and retries freezes that failed. Safe in several processes (claims with a lease).
 * Deletions asked for with the closure follow it (see Deletion.ts, which wraps this job).
 */
export const processClosures = (options: { readonly limit?: number } = {}) =>
  Effect.gen(function*() {
    const at = yield* now
    const claimed = yield* (yield* ClosureRepo).claimSettled(at, leaseFrom(at), options.limit ?? 100)
    yield* Effect.forEach(claimed, (c) =>
      work(c).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logError("closure work failed").pipe(Effect.annotateLogs({ closureId: c.id, cause: Cause.pretty(cause) }))
        )
      ), { concurrency: 4, discard: true })
    return claimed.length
  }).pipe(withSpan("Lifecycle.processClosures"))
