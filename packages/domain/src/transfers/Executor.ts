/**
 * Executes the transfer saga (TransferSaga.ts) against the core banking provider, journaling each
 * step in the Transfer record before and after its provider call.
 *
 * - `drive(id)` runs the saga as far as it can go now. A definite refusal moves it to its
 *   compensation; an UNKNOWN outcome stops it where it is (still pending, step "attempted"): it is
 *   never treated as a failure. `processDue` (scheduler and start-up) picks it up again when its
 *   lease expires and `decide` requeries the step.
 * - `reconcile(id)` requeries a transfer the provider answered "pending", with backoff; after
 *   TransferPolicy.maxRequeries definite "pending" answers it is failed with a reason and the debit
 *   reversed (the spec's rule). Requeries that get no answer never count toward that limit.
 * - A driver holds a lease on the movement while it works (renewed at every journal write); a
 *   driver that died leaves an expired lease behind, and the process that claims the movement then
 *   bumps its epoch. Journal writes are fenced by the epoch, so a driver that merely stalled past
 *   its lease is stopped at its next write instead of overwriting its successor's journal.
 * - What needs an operator (a refused reversal or lien removal, a transfer pending past its
 *   requeries or unanswered for too long) raises a staff alert (Alerts.ts).
 */
import { Duration, Effect, Option } from "effect"
import { raiseAlert } from "../admin/Alerts.js"
import { BalanceCache } from "../banking/Caches.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import { now } from "../shared/UseCase.js"
import { MovementLost } from "./Errors.js"
import type { Transfer, TransferClaim, TransferPatch } from "./Model.js"
import { TransferRepo } from "./Ports.js"
import { decide, nextRequeryDelayMs, protectingLien, referencesOf } from "./Saga.js"
import { type AccountCall, afterReversal, ask, freshSession, INSUFFICIENT_BALANCE, journalWith, LEASE, load, lostBeforeStart, requery, reversalRefused, stepAside } from "./Steps.js"
import { tracedSpan, withSpan } from "../shared/Spans.js"

const MAX_STEPS = 24

/**
 * Runs the saga of the movement `held` names as far as it can go now, as the driver holding its
 * epoch (its creator, or the process that claimed it); returns the movement as it stands.
 *
 * Every journal write is fenced by that epoch. A write that matches no row means another driver has
 * claimed the movement (this one stalled past its lease): the saga stops at once, with no further
 * provider call, and only undoes what its own last call may have left behind (see `stepAside`).
 */
export const drive = (held: TransferClaim) => run(held, load(held.id))

/**
 * `drive` for a movement as just stored or claimed (the row an INSERT or a claim returned, so its
 * journal and epoch are current): saves reading it again.
 */
export const driveFresh = (t: Transfer) => run(t, Effect.succeed(t))

const run = <R>(held: TransferClaim, loaded: Effect.Effect<Transfer, never, R>) =>
  Effect.gen(function*() {
    const repo = yield* TransferRepo
    const bank = yield* CoreBanking
    let t = yield* loaded
    if (t.epoch !== held.epoch) return yield* new MovementLost({ transferId: held.id, epoch: held.epoch })
    const refs = referencesOf(t.id)
    const account = t.sourceAccountNumber
    const debitTotal = t.amountKobo + t.feeKobo
    // The outcome of an idempotent step (the lien placed, the account restored) or of a money call
    // (debit applied, transfer successful) is kept here and journaled with the next write, which
    // comes before the next money call or at the end: one write instead of two. A crash in between
    // loses nothing: the journal still says "attempted" (requeried) or the step is simply redone.
    let deferred: TransferPatch = {}
    const defer = (patch: TransferPatch) => Effect.sync(() => (deferred = { ...deferred, ...patch }))
    // the provider calls that changed the account since the last journal write (see stepAside)
    let lastCall: AccountCall = null
    const write = (patch: TransferPatch) =>
      Effect.flatMap(now, (at) =>
        // `t` is the record as this driver last wrote or loaded it, under `held`'s epoch
        repo.updateCurrent(t, { leaseUntil: new Date(at.getTime() + Duration.toMillis(LEASE)), ...deferred, ...patch }, at)).pipe(
          Effect.tap((updated) =>
            Effect.sync(() => {
              t = updated
              deferred = {}
              lastCall = null
            })
          )
        )
    // What the driver leaves off with: the movement with its deferred outcomes journaled.
    const flushed = Effect.suspend(() => (Object.keys(deferred).length === 0 ? Effect.succeed(t) : write({})))
    // After an account call with no answer the driver stops for now; a fenced write (renewing the
    // lease) first tells it whether it still holds the movement, so a stale driver whose call may
    // have lifted PND or placed the lien after its successor restored the account steps aside.
    const stillHeld = Effect.suspend(() => write({}))

    const saga = Effect.gen(function*() {
      // the drive's span (below), taken once: its lastAction is set at every step
      const span = yield* tracedSpan
      for (let step = 0; step < MAX_STEPS; step++) {
        const action = decide(journalWith(t, deferred))
        if (Option.isSome(span)) span.value.attribute("lastAction", action._tag)
        switch (action._tag) {
          case "Done":
          case "AwaitTransfer":
          case "AwaitOperator":
            return yield* flushed
          case "Finish": {
            yield* write({ status: action.status, leaseUntil: null })
            yield* Effect.logInfo("money movement finished").pipe(
              Effect.annotateLogs({ transactionId: t.id, status: action.status, reason: t.failureReason ?? "" })
            )
            if (action.status === "failed" && t.debitState === "applied") yield* afterReversal(t)
            return t
          }
          case "LiftPnd": {
            lastCall = "LiftPnd"
            const answer = yield* ask("deactivatePnd", bank.deactivatePnd(account))
            if (answer._tag === "Unknown") return yield* stillHeld
            yield* write(answer._tag === "Ok" ? { pndLifted: true } : { failureReason: `Could not lift PND: ${answer.reason}` })
            break
          }
          case "PlaceLien": {
            const snapshot = yield* ask("account", bank.account(account))
            if (snapshot._tag === "Unknown") return yield* flushed
            if (snapshot._tag === "Refused") {
              yield* write({ failureReason: `Could not read the account: ${snapshot.reason}` })
              break
            }
            // our lien is there already: placed by an earlier attempt whose answer was lost
            if (snapshot.value.liens.some((l) => l.reference === refs.lien)) {
              yield* defer({ lienPlaced: true })
              break
            }
            if (snapshot.value.withdrawableBalanceKobo < debitTotal + t.reserveKobo) {
              yield* write({ failureReason: INSUFFICIENT_BALANCE })
              break
            }
            const lien = protectingLien(snapshot.value.withdrawableBalanceKobo, debitTotal)
            // the movement takes everything withdrawable: nothing is left to protect
            if (lien === 0n) {
              yield* defer({ lienPlaced: true })
              break
            }
            lastCall = "PlaceLien"
            const answer = yield* ask("placeLien", bank.placeLien({ accountNumber: account, reference: refs.lien, amountKobo: lien }))
            if (answer._tag === "Unknown") return yield* stillHeld
            // placed: journaled with the debit's "attempted" (the lien is found by its reference if redone)
            yield* (answer._tag === "Ok" ? defer({ lienPlaced: true }) : write({ failureReason: `Could not place the lien: ${answer.reason}` }))
            break
          }
          case "Debit": {
            yield* write({ debitState: "attempted" })
            const answer = yield* ask(
              "debit",
              bank.debit({ accountNumber: account, amountKobo: debitTotal, reference: refs.debit, narration: t.narration })
            )
            if (answer._tag === "Unknown") return t
            // applied: journaled with the transfer's "attempted" (until then a crash requeries the debit)
            yield* (answer._tag === "Ok"
              ? defer({ debitState: "applied" })
              : write({ debitState: "refused", failureReason: `Debit refused: ${answer.reason}` }))
            break
          }
          case "RequeryDebit": {
            const status = yield* requery(refs.debit)
            if (status === "unknown" || status === "pending") return yield* flushed
            yield* write(
              status === "successful"
                ? { debitState: "applied" }
                : status === "not_found"
                // never reached the provider: resume, debiting again under the same reference
                ? { debitState: "none" }
                : { debitState: "refused", failureReason: "The debit did not go through" }
            )
            break
          }
          case "Transfer": {
            const session = yield* freshSession(t)
            if (session._tag === "Unknown") return yield* flushed
            if (session._tag === "Refused") {
              // nothing was sent: a definite failure, and the debit is given back
              yield* write({ transferState: "failed", failureReason: `The destination account could not be verified: ${session.reason}` })
              break
            }
            yield* write({ transferState: "attempted", ...session.value.patch })
            const answer = yield* ask(
              "transfer",
              bank.transfer({
                reference: refs.transfer,
                amountKobo: t.amountKobo,
                destinationAccountNumber: t.destinationAccountNumber,
                destinationBankCode: t.destinationBankCode,
                destinationAccountName: t.destinationAccountName,
                nameEnquirySessionId: session.value.sessionId,
                narration: t.narration
              })
            )
            if (answer._tag === "Unknown") return t
            const at = yield* now
            // successful: journaled with the account's restoration and the final status
            yield* (answer._tag === "Refused"
              ? write({ transferState: "failed", failureReason: `Transfer refused: ${answer.reason}` })
              : answer.value === "successful"
              ? defer({ transferState: "successful" })
              : write({ transferState: "pending", nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(0)) }))
            break
          }
          case "RequeryTransfer": {
            const status = yield* requery(refs.transfer)
            if (status === "unknown") return yield* flushed
            const at = yield* now
            yield* write(
              status === "successful"
                ? { transferState: "successful" }
                : status === "failed" || status === "reversed"
                ? { transferState: "failed", failureReason: "The transfer failed at the bank" }
                : status === "pending"
                ? { transferState: "pending", nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(0)) }
                // never reached the provider: send it again under the same reference
                : { transferState: "none" }
            )
            break
          }
          case "Reverse": {
            yield* write({ reversalState: "attempted" })
            const answer = yield* ask(
              "credit",
              bank.credit({ accountNumber: account, amountKobo: debitTotal, reference: refs.reversal, narration: `Reversal: ${t.narration}` })
            )
            if (answer._tag === "Unknown") return t
            if (answer._tag === "Refused") {
              yield* write({ reversalState: "refused" })
              yield* reversalRefused(t, answer.reason)
              break
            }
            yield* write({ reversalState: "applied" })
            break
          }
          case "RequeryReversal": {
            const status = yield* requery(refs.reversal)
            if (status === "unknown" || status === "pending") return yield* flushed
            if (status === "successful") yield* write({ reversalState: "applied" })
            // never reached the provider: credit again under the same reference
            else if (status === "not_found") yield* write({ reversalState: "none" })
            else {
              yield* write({ reversalState: "refused" })
              yield* reversalRefused(t, `the bank reports the reversal ${status}`)
            }
            break
          }
          case "Restore": {
            // Once PND was lifted, the movement's lien is removed by its reference whatever the
            // journal says of it: its placement may have landed with its answer lost.
            if (t.pndLifted || t.lienPlaced || deferred.lienPlaced === true) {
              const lien = yield* ask("removeLien", bank.removeLien({ accountNumber: account, reference: refs.lien }))
              if (lien._tag === "Unknown") return yield* flushed
              if (lien._tag === "Refused" && !lien.notFound) {
                // not removed: the account stays in this movement's hands, and an operator is told
                yield* raiseAlert({
                  kind: "lien_removal_refused",
                  dedupKey: `lien_removal_refused:${t.id}`,
                  message: `The bank refused to remove lien ${refs.lien} of movement ${t.id}: ${lien.reason}. ` +
                    "The customer's funds stay locked; recovery retries it.",
                  customerId: t.customerId,
                  transactionId: t.id
                })
                return yield* flushed
              }
            }
            const pnd = yield* ask("activatePnd", bank.activatePnd(account))
            if (pnd._tag !== "Ok") return yield* flushed
            // journaled with what comes next: the final status, or the wait for the transfer or an operator
            yield* defer({ restored: true })
            break
          }
        }
      }
      return yield* Effect.dieMessage(`saga ${held.id} did not settle within ${MAX_STEPS} steps`)
    })
    return yield* saga.pipe(
      Effect.catchTag("MovementLost", () => stepAside(t, lastCall)),
      Effect.onInterrupt(() => yieldLease(held))
    )
  }).pipe(
    // a driver that was fenced out before its first step: the movement is someone else's
    Effect.catchTag("MovementLost", () => lostBeforeStart(held)),
    // the balance moved (or may have): the next read must ask the provider
    Effect.tap((t) => Effect.flatMap(BalanceCache, (cache) => cache.invalidate(t.sourceAccountNumber))),
    withSpan("Transfers.drive", { attributes: { transferId: held.id } })
  )

/**
 * Gives the movement's lease back, as after an interruption (a SIGTERM): the journal says where the
 * saga stands, so recovery in the next process resumes it at once instead of after LEASE. A fenced
 * write: a driver already fenced out changes nothing.
 */
export const yieldLease = (held: TransferClaim) =>
  Effect.flatMap(TransferRepo, (repo) => Effect.flatMap(now, (at) => repo.update(held, { leaseUntil: at }, at))).pipe(
    Effect.ignore
  )

/**
 * Starts a movement (`start` commits it, leased to this process) and drives it with no gap between
 * them that an interruption could fall into: interrupted once `start` has committed, the lease is
 * given back (`yieldLease`) whether the saga had begun or not, so no movement is left held for LEASE
 * by a process that is shutting down. `start` itself runs to its end (it is one short transaction).
 */
export const startAndDrive = <A extends { readonly transfer: Transfer }, E, R>(start: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(start, (started) =>
      Option.isNone(started)
        ? Effect.succeed(Option.none<A>())
        : restore(driveFresh(started.value.transfer)).pipe(
          Effect.onInterrupt(() => yieldLease(started.value.transfer)),
          Effect.map((transfer) => Option.some<A>({ ...started.value, transfer }))
        ))
  )
