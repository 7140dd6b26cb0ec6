/**
 * The deletion itself: one unit of work that signs the customer out everywhere, erases their
 * personal data (AccountErasure), keeps their transactions and KYC record for 5 years in the
 * retention store, and queues a deletion record for staff review. Any failure rolls it all back
 * and raises a staff alert.
 */
import { Cause, Effect, Option } from "effect"
import type { AccountWithCustomer } from "../account/Model.js"
import { raiseAlert } from "../admin/Alerts.js"
import { RefreshTokenRepo } from "../auth/Ports.js"
import { coreAccountDigest } from "../banking/BankAccount.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import { PlanRepo } from "../plans/Ports.js"
import { DeletionId, newId } from "../shared/Ids.js"
import { atomically, now } from "../shared/UseCase.js"
import { MovementInFlight } from "../transfers/Errors.js"
import { TransferRepo } from "../transfers/Ports.js"
import { DeletionFailed } from "./Errors.js"
import { DeletionRecord } from "./Model.js"
import { AccountErasure } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"

/** How long transactions and KYC records are kept after a deletion. */
export const RETENTION_YEARS = 5

export const retainUntilFrom = (at: Date) => {
  const d = new Date(at.getTime())
  d.setUTCFullYear(d.getUTCFullYear() + RETENTION_YEARS)
  return d
}

/** The withdrawable balance last seen at the provider, for the deletion record (null when unknown). */
const lastBalance = (accountNumber: string | null) =>
  accountNumber === null
    ? Effect.succeed(null)
    : Effect.flatMap(CoreBanking, (bank) => bank.account(accountNumber)).pipe(
      Effect.map((s) => s.withdrawableBalanceKobo as bigint | null),
      Effect.orElseSucceed(() => null)
    )

/**
 * Deletes the account now (the caller checked it may be: closed, or never banked). Idempotent: a
 * customer already deleted answers its deletion's retainUntil. MovementInFlight while a movement of
 * the customer is not final (nothing done). DeletionFailed (and a critical staff
 * alert) when the unit of work fails: nothing changed.
 */
export const deleteNow = (found: AccountWithCustomer, via: string | null) =>
  Effect.gen(function*() {
    const erasure = yield* AccountErasure
    const customerId = found.customer.id
    // never with a movement not final: its outcome (a reversal, say) is still to come. Movement rows
    // outlive the erasure (AccountErasure keeps them), but a deletion waits for them to settle.
    if (found.customer.customerStatus !== "deleted" && (yield* (yield* TransferRepo).hasUnsettledMovement(customerId))) {
      return yield* new MovementInFlight()
    }
    const at = yield* now
    const deletionId = yield* newId(DeletionId)
    const retainUntil = retainUntilFrom(at)
    const lastBalanceKobo = yield* lastBalance(found.customer.coreAccountNumber)
    const plan = yield* (yield* PlanRepo).findForCustomer(customerId)
    const number = found.customer.coreAccountNumber
    const digest = number === null ? null : yield* coreAccountDigest(number)
    const done = yield* atomically(Effect.gen(function*() {
      const counts = yield* erasure.erase({ customerId, accountId: found.account.id, deletionId, retainUntil, now: at, coreAccountDigest: digest })
      if (Option.isNone(counts)) return false
      // signed out everywhere: refresh tokens are erased with the account, and access tokens of a
      // deleted account are refused at once (Auth.authenticate reads the status on every request)
      yield* (yield* RefreshTokenRepo).revokeAllForAccount(found.account.id, at)
      yield* erasure.recordDeletion(new DeletionRecord({
        id: deletionId,
        customerId,
        status: "pending_review",
        via,
        counts: counts.value,
        planId: Option.match(plan, { onNone: () => null, onSome: (p) => p.id }),
        lastBalanceKobo,
        retainUntil,
        createdAt: at
      }))
      return true
    })).pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.gen(function*() {
          yield* Effect.logError("account deletion failed").pipe(Effect.annotateLogs({ customerId, cause: Cause.pretty(cause) }))
          const alert = yield* raiseAlert({
            kind: "account_deletion_failed",
            dedupKey: `account_deletion_failed:${customerId}`,
            message: `Deleting customer ${customerId} failed part-way and was rolled back: nothing was erased. ` +
              "Check the logs for the cause; the customer may ask again.",
            customerId
          })
          return yield* new DeletionFailed({ alertId: alert.id })
        })
      )
    )
    if (done) {
      yield* Effect.logInfo("account deleted").pipe(Effect.annotateLogs({ customerId, deletionId }))
      return { retainUntil }
    }
    const earlier = Option.getOrThrow(yield* erasure.findDeletion(customerId))
    return { retainUntil: earlier.retainUntil }
  }).pipe(withSpan("Lifecycle.deleteNow"))

/** The daily purge of retained records past their retainUntil. */
export const purgeRetained = Effect.gen(function*() {
  return yield* (yield* AccountErasure).purgeRetained(yield* now)
}).pipe(withSpan("Lifecycle.purgeRetained"))
