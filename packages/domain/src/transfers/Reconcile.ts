/**
 * Reconciliation of pending transfers and the recovery job that drives every due movement.
 */
import { Duration, Effect } from "effect"
import { raiseAlert } from "../admin/Alerts.js"
import { now } from "../shared/UseCase.js"
import { drive, driveFresh, yieldLease } from "./Executor.js"
import type { Transfer, TransferClaim } from "./Model.js"
import { TransferRepo } from "./Ports.js"
import { ExhaustedRequeries, nextRequeryDelayMs, referencesOf, requeryWindowMs, TransferPolicy } from "./Saga.js"
import { LEASE, load, lostBeforeStart, requery } from "./Steps.js"
import { withSpan } from "../shared/Spans.js"

/**
 * Reconciliation of a transfer the provider answered "pending", as the driver holding `held`'s
 * epoch: requery; a final answer completes the saga (confirmed, or failed and reversed). Only a
 * definite "pending" counts toward TransferPolicy.maxRequeries (then: failed, the debit reversed,
 * and a staff alert, since the bank may still pay it); no answer (timeout, provider down, or a
 * reference it says it does not know) never does: the transfer is requeried later, and a staff
 * alert is raised once it has had no final answer for longer than the whole requery window.
 */
export const reconcile = (held: TransferClaim) =>
  Effect.gen(function*() {
    const repo = yield* TransferRepo
    const t = yield* load(held.id)
    if (t.status !== "pending" || t.transferState !== "pending") return yield* drive(held)
    const status = yield* requery(referencesOf(t.id).transfer)
    const at = yield* now
    if (status === "successful") yield* repo.update(held, { transferState: "successful" }, at)
    else if (status === "failed" || status === "reversed") {
      yield* repo.update(held, { transferState: "failed", failureReason: "The transfer failed at the bank" }, at)
    } else if (status === "pending") {
      const retryCount = t.retryCount + 1
      if (retryCount < TransferPolicy.maxRequeries) {
        return yield* repo.update(held, {
          retryCount,
          nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(retryCount)),
          leaseUntil: null
        }, at)
      }
      if ((yield* ExhaustedRequeries).then === "escalate") {
        yield* raiseAlert({
          kind: "transfer_retries_exhausted",
          dedupKey: `transfer_retries_exhausted:${t.id}`,
          message: `Transfer ${t.id} is still pending at the bank after ${retryCount} status queries. The provider's ` +
            "rules make it a case for its support desk: take it up with the bank. It stays pending and is not reversed " +
            "(the bank may still pay it); it is requeried until the bank gives a final answer.",
          customerId: t.customerId,
          transactionId: t.id
        })
        return yield* repo.update(held, {
          retryCount,
          nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(retryCount)),
          leaseUntil: null
        }, at)
      }
      yield* repo.update(held, {
        retryCount,
        transferState: "failed",
        failureReason: `No final answer from the bank after ${retryCount} requeries; the debit is reversed`
      }, at)
      yield* raiseAlert({
        kind: "transfer_retries_exhausted",
        dedupKey: `transfer_retries_exhausted:${t.id}`,
        message: `Transfer ${t.id} was still pending at the bank after ${retryCount} requeries and was reversed as the spec ` +
          "requires. Confirm with the bank that it will not be paid.",
        customerId: t.customerId,
        transactionId: t.id
      })
    } else {
      // no answer: not a step toward the limit
      if (at.getTime() - t.createdAt.getTime() > requeryWindowMs) {
        yield* raiseAlert({
          kind: "provider_unreachable",
          dedupKey: `provider_unreachable:${t.id}`,
          message: `Transfer ${t.id} has had no final answer from the bank for longer than the requery window ` +
            `(last requery: ${status}). It is requeried until the bank answers.`,
          customerId: t.customerId,
          transactionId: t.id
        })
      }
      return yield* repo.update(held, {
        nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(t.retryCount)),
        leaseUntil: null
      }, at)
    }
    return yield* drive(held)
  }).pipe(
    Effect.catchTag("MovementLost", () => lostBeforeStart(held)),
    withSpan("Transfers.reconcile", { attributes: { transferId: held.id } })
  )

/**
 * Recovery and reconciliation in one pass: claims movements that need driving (their driver died,
 * or their pending transfer's requery is due) and drives or reconciles each, with bounded
 * concurrency. Safe to run in several processes at once.
 */
export const processDue = <R = never>(
  options: {
    readonly limit?: number
    readonly concurrency?: number
    /**
     * Told of every movement this pass brought to its final status (confirmed or failed), once it is
     * journaled: where the outcome becomes known, whoever keeps books on it (a plan's instalment)
     * settles them at once. Its failures are logged, never the pass's.
     */
    readonly onFinished?: (t: Transfer) => Effect.Effect<void, never, R>
  } = {}
) =>
  Effect.gen(function*() {
    const at = yield* now
    const claimed = yield* (yield* TransferRepo).claimDue(
      at,
      new Date(at.getTime() + Duration.toMillis(LEASE)),
      options.limit ?? 100
    )
    const results = yield* Effect.forEach(
      claimed,
      (t) =>
        (t.restored && t.transferState === "pending" ? reconcile(t) : driveFresh(t)).pipe(
          Effect.tap((driven) =>
            options.onFinished === undefined || driven.status === "pending"
              ? Effect.void
              : options.onFinished(driven).pipe(
                Effect.catchAllCause((cause) =>
                  Effect.logError("bookkeeping of a finished movement failed; the next run does it").pipe(
                    Effect.annotateLogs({ transactionId: driven.id, cause: String(cause) })
                  )
                )
              )
          ),
          Effect.either
        ),
      { concurrency: options.concurrency ?? 8 }
    ).pipe(
      // interrupted (a SIGTERM): the claimed movements not yet driven give their lease back too
      Effect.onInterrupt(() => Effect.forEach(claimed, yieldLease, { discard: true }))
    )
    return {
      claimed: claimed.length,
      confirmed: results.filter((r) => r._tag === "Right" && r.right.status === "confirmed").length,
      failed: results.filter((r) => r._tag === "Right" && r.right.status === "failed").length,
      stillPending: results.filter((r) => r._tag === "Right" && r.right.status === "pending").length
    }
  }).pipe(withSpan("Transfers.processDue"))
