/**
 * What the saga executor does around the saga's steps: provider answers as data, the journal's
 * view of a movement, stepping aside when fenced out, fresh NIP sessions, refusals that need an
 * operator, and the customer's notice of a failed movement.
 */
import { Cause, Duration, Effect, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { raiseAlert } from "../admin/Alerts.js"
import { CoreBanking, type CoreBankingError, type RequeryStatus, ResponseCodes } from "../banking/CoreBanking.js"
import * as Notices from "../notifications/Notices.js"
import { formatNaira } from "../shared/Money.js"
import { now } from "../shared/UseCase.js"
import type { Transfer, TransferClaim, TransferPatch } from "./Model.js"
import { TransferRepo } from "./Ports.js"
import { referencesOf, type TransferJournal, TransferPolicy } from "./Saga.js"

export const LEASE = Duration.minutes(2)

/** The failure reason of a movement the wallet could not cover (nothing was debited). */
export const INSUFFICIENT_BALANCE = "Insufficient balance"

export const journalOf = (t: Transfer): TransferJournal => ({
  id: t.id,
  status: t.status,
  pndLifted: t.pndLifted,
  lienPlaced: t.lienPlaced,
  debit: t.debitState,
  transfer: t.transferState,
  reversal: t.reversalState,
  restored: t.restored,
  failureReason: t.failureReason,
  retryCount: t.retryCount
})

/** The journal as it will stand once `deferred` (outcomes not yet written) is journaled. */
export const journalWith = (t: Transfer, deferred: TransferPatch): TransferJournal => {
  const j = journalOf(t)
  return Object.keys(deferred).length === 0 ? j : {
    ...j,
    pndLifted: deferred.pndLifted ?? j.pndLifted,
    lienPlaced: deferred.lienPlaced ?? j.lienPlaced,
    debit: deferred.debitState ?? j.debit,
    transfer: deferred.transferState ?? j.transfer,
    reversal: deferred.reversalState ?? j.reversal,
    restored: deferred.restored ?? j.restored
  }
}

type Answer<A> =
  | { readonly _tag: "Ok"; readonly value: A }
  | { readonly _tag: "Refused"; readonly reason: string; readonly notFound: boolean }
  | { readonly _tag: "Unknown" }

/** A provider call's outcome as data. A misconfiguration is an unknown outcome (and an alarm). */
export const ask = <A>(operation: string, call: Effect.Effect<A, CoreBankingError>): Effect.Effect<Answer<A>> =>
  call.pipe(
    Effect.map((value): Answer<A> => ({ _tag: "Ok", value })),
    Effect.catchTags({
      ProviderRefused: (e) =>
        Effect.succeed<Answer<A>>({ _tag: "Refused", reason: `${e.reason} (${e.code})`, notFound: e.code === ResponseCodes.notFound }),
      ProviderUnknownOutcome: (e) =>
        Effect.logWarning("saga step outcome unknown; will requery").pipe(
          Effect.annotateLogs({ operation, detail: e.detail }),
          Effect.as<Answer<A>>({ _tag: "Unknown" })
        ),
      ProviderMisconfigured: (e) =>
        Effect.logError("core banking misconfigured during a saga").pipe(
          Effect.annotateLogs({ operation, detail: e.detail }),
          Effect.as<Answer<A>>({ _tag: "Unknown" })
        )
    })
  )

export const load = (id: string) =>
  Effect.flatMap(TransferRepo, (repo) => repo.findById(id)).pipe(
    Effect.map(Option.getOrElse(() => {
      throw new Error(`transfer ${id} not found`)
    }))
  )

/** The provider calls that change the account's state rather than move money under a reference. */
export type AccountCall = "LiftPnd" | "PlaceLien" | null

export const lostBeforeStart = (held: TransferClaim) =>
  Effect.zipRight(
    Effect.logWarning("movement claimed by another driver; not driving it").pipe(
      Effect.annotateLogs({ transactionId: held.id, epoch: held.epoch })
    ),
    load(held.id)
  )

/**
 * A driver fenced out mid-saga stops. Its last provider call may have been made after its successor
 * had already put the account back (it stalled inside the call): if it lifted PND or placed this
 * movement's lien and the successor is done with the account, it undoes that (the lien by this
 * movement's own reference; PND only while the customer has no movement in flight). Money calls
 * need no such care: their references make the bank apply them once.
 */
export const stepAside = (stale: Transfer, lastCall: AccountCall) =>
  Effect.gen(function*() {
    yield* Effect.logWarning("lost the movement to another driver: stopping without further provider calls").pipe(
      Effect.annotateLogs({ transactionId: stale.id, epoch: stale.epoch, lastCall: lastCall ?? "" })
    )
    const current = yield* load(stale.id)
    if (lastCall === null || !current.restored) return current
    const bank = yield* CoreBanking
    if (lastCall === "PlaceLien") {
      yield* ask("removeLien", bank.removeLien({ accountNumber: current.sourceAccountNumber, reference: referencesOf(current.id).lien }))
    }
    if (!(yield* (yield* TransferRepo).hasMovementInFlight(current.customerId))) {
      yield* ask("activatePnd", bank.activatePnd(current.sourceAccountNumber))
    }
    return current
  })

/**
 * The session id to quote with the NIP transfer: the movement's own while it is fresh, else a new
 * name enquiry of the destination (and the patch that journals it).
 */
export const freshSession = (t: Transfer) =>
  Effect.gen(function*() {
    const at = yield* now
    if (t.nameEnquiryAt !== null && at.getTime() - t.nameEnquiryAt.getTime() <= TransferPolicy.nameEnquiryMaxAgeMs) {
      return { _tag: "Ok", value: { sessionId: t.nameEnquirySessionId, patch: {} } } as Answer<{ sessionId: string; patch: TransferPatch }>
    }
    const bank = yield* CoreBanking
    const enquiry = yield* ask(
      "nameEnquiry",
      bank.nameEnquiry({ accountNumber: t.destinationAccountNumber, bankCode: t.destinationBankCode })
    )
    if (enquiry._tag !== "Ok") return enquiry
    return {
      _tag: "Ok",
      value: {
        sessionId: enquiry.value.sessionId,
        patch: { nameEnquirySessionId: enquiry.value.sessionId, nameEnquiryAt: at }
      }
    } as Answer<{ sessionId: string; patch: TransferPatch }>
  })

/** The bank refused to give the customer's money back: it sits in settlement until an operator acts. */
export const reversalRefused = (t: Transfer, reason: string) =>
  raiseAlert({
    kind: "reversal_refused",
    dedupKey: `reversal_refused:${t.id}`,
    message: `The bank refused the reversal of movement ${t.id} (${formatNaira(t.amountKobo + t.feeKobo)}): ${reason}. ` +
      "The customer's money is held in settlement: credit it back by hand (or confirm with the bank that it was delivered), " +
      "then resolve the movement (console, POST /admin/transactions/{id}/resolve, or cli tx resolve).",
    customerId: t.customerId,
    transactionId: t.id
  })

/** Customers whose core account is frozen (closed, deleted, suspended): money credited there is stuck. */
const FROZEN_STATUSES: ReadonlyArray<string> = ["closed", "deleted", "suspended"]

/**
 * After a movement failed with its debit reversed: the money is back in the customer's core account.
 * When that account is frozen (the customer closed, deleted or suspended) the credit is stuck there
 * and no one would know: a critical staff alert (`frozen_account_credit`). The customer is told
 * (notifyFailure) unless they are deleted (their contact details are erased).
 */
export const afterReversal = (t: Transfer) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(t.customerId)
    const status = Option.match(found, { onNone: () => "deleted", onSome: (f) => f.customer.customerStatus as string })
    if (FROZEN_STATUSES.includes(status)) {
      yield* raiseAlert({
        kind: "frozen_account_credit",
        dedupKey: `frozen_account_credit:${t.id}`,
        message: `Movement ${t.id} failed and its debit (${formatNaira(t.amountKobo + t.feeKobo)}) was reversed into the core ` +
          `account of customer ${t.customerId}, whose account is ${status} (frozen at the bank): the money is there but the ` +
          "customer cannot move it. Refund it to the customer by hand.",
        customerId: t.customerId,
        transactionId: t.id
      })
    }
    if (status !== "deleted") yield* notifyFailure(t)
  }).pipe(
    // the movement is final already: what is told about it never undoes that (the cause is logged)
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logError("could not tell of a reversed movement").pipe(
        Effect.annotateLogs({ transactionId: t.id, cause: Cause.pretty(cause) })
      )
    )
  )

/**
 * Tells the customer that money taken for a movement came back: `disbursement_failed` for plan
 * payouts, `transfer_failed` otherwise (stored and emailed, see Notices.ts).
 */
export const notifyFailure = (t: Transfer) =>
  Notices.raise({
    customerId: t.customerId,
    kind: t.purpose === "disbursement" ? "disbursement_failed" : "transfer_failed",
    subject: t.purpose === "disbursement" ? "Your scheduled payout did not go through" : "Your transfer did not go through",
    message: `Your ${formatNaira(t.amountKobo)} transfer to ${t.destinationAccountName} (${t.destinationAccountNumber}) failed: ` +
      `${t.failureReason ?? "the bank did not complete it"}. The money, with its fee, is back in your account.`,
    planId: t.planId,
    transactionId: t.id
  })

export const requery = (reference: string) =>
  Effect.flatMap(CoreBanking, (bank) => ask("requery", bank.requery(reference))).pipe(
    Effect.map((answer): RequeryStatus | "unknown" => (answer._tag === "Ok" ? answer.value : "unknown"))
  )
