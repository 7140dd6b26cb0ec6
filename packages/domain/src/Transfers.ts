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
import { raiseAlert } from "./Alerts.js"
import {
  CoreBanking,
  type CoreBankingError,
  type RequeryStatus,
  ResponseCodes
} from "./CoreBanking.js"
import { BalanceCache } from "./Banking.js"
import * as Beneficiaries from "./Beneficiaries.js"
import {
  AccountNotActive,
  IdempotencyConflict,
  InsufficientBalance,
  NoBankAccount,
  TransferFailed,
  WithdrawalsNotAllowed
} from "./Errors.js"
import * as Fees from "./Fees.js"
import * as Notices from "./Notices.js"
import { newTransfer, type Transfer, type TransferClaim, type TransferPatch } from "./Models.js"
import { formatNaira, type Kobo } from "./Money.js"
import { Ids, MovementInFlight, MovementLost, SecretHasher, TransferRepo } from "./Ports.js"
import * as Settings from "./Settings.js"
import {
  decide,
  nextRequeryDelayMs,
  protectingLien,
  referencesOf,
  requeryWindowMs,
  type TransferJournal,
  TransferPolicy
} from "./TransferSaga.js"
import { now, requireAccount } from "./UseCase.js"

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

type Answer<A> =
  | { readonly _tag: "Ok"; readonly value: A }
  | { readonly _tag: "Refused"; readonly reason: string; readonly notFound: boolean }
  | { readonly _tag: "Unknown" }

/** A provider call's outcome as data. A misconfiguration is an unknown outcome (and an alarm). */
const ask = <A>(operation: string, call: Effect.Effect<A, CoreBankingError>): Effect.Effect<Answer<A>> =>
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

const load = (id: string) =>
  Effect.flatMap(TransferRepo, (repo) => repo.findById(id)).pipe(
    Effect.map(Option.getOrElse(() => {
      throw new Error(`transfer ${id} not found`)
    }))
  )

const MAX_STEPS = 24

/** The provider calls that change the account's state rather than move money under a reference. */
type AccountCall = "LiftPnd" | "PlaceLien" | null

/**
 * Runs the saga of the movement `held` names as far as it can go now, as the driver holding its
 * epoch (its creator, or the process that claimed it); returns the movement as it stands.
 *
 * Every journal write is fenced by that epoch. A write that matches no row means another driver has
 * claimed the movement (this one stalled past its lease): the saga stops at once, with no further
 * provider call, and only undoes what its own last call may have left behind (see `stepAside`).
 */
export const drive = (held: TransferClaim) =>
  Effect.gen(function*() {
    const repo = yield* TransferRepo
    const bank = yield* CoreBanking
    let t = yield* load(held.id)
    if (t.epoch !== held.epoch) return yield* new MovementLost({ transferId: held.id, epoch: held.epoch })
    const refs = referencesOf(t.id)
    const account = t.sourceAccountNumber
    const debitTotal = t.amountKobo + t.feeKobo
    const write = (patch: TransferPatch) =>
      Effect.flatMap(now, (at) =>
        repo.update(held, { leaseUntil: new Date(at.getTime() + Duration.toMillis(LEASE)), ...patch }, at)).pipe(
          Effect.tap((updated) => Effect.sync(() => (t = updated)))
        )
    let lastCall: AccountCall = null
    // After an account call with no answer the driver stops for now; a fenced write (renewing the
    // lease) first tells it whether it still holds the movement, so a stale driver whose call may
    // have lifted PND or placed the lien after its successor restored the account steps aside.
    const stillHeld = write({})

    const saga = Effect.gen(function*() {
      for (let step = 0; step < MAX_STEPS; step++) {
        const action = decide(journalOf(t))
        yield* Effect.annotateCurrentSpan("lastAction", action._tag)
        lastCall = null
        switch (action._tag) {
          case "Done":
          case "AwaitTransfer":
          case "AwaitOperator":
            return t
          case "Finish": {
            yield* write({ status: action.status, leaseUntil: null })
            yield* Effect.logInfo("money movement finished").pipe(
              Effect.annotateLogs({ transactionId: t.id, status: action.status, reason: t.failureReason ?? "" })
            )
            if (action.status === "failed" && t.debitState === "applied") yield* notifyFailure(t)
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
            if (snapshot._tag === "Unknown") return t
            if (snapshot._tag === "Refused") {
              yield* write({ failureReason: `Could not read the account: ${snapshot.reason}` })
              break
            }
            // our lien is there already: placed by an earlier attempt whose answer was lost
            if (snapshot.value.liens.some((l) => l.reference === refs.lien)) {
              yield* write({ lienPlaced: true })
              break
            }
            if (snapshot.value.withdrawableBalanceKobo < debitTotal + t.reserveKobo) {
              yield* write({ failureReason: INSUFFICIENT_BALANCE })
              break
            }
            const lien = protectingLien(snapshot.value.withdrawableBalanceKobo, debitTotal)
            // the movement takes everything withdrawable: nothing is left to protect
            if (lien === 0n) {
              yield* write({ lienPlaced: true })
              break
            }
            lastCall = "PlaceLien"
            const answer = yield* ask("placeLien", bank.placeLien({ accountNumber: account, reference: refs.lien, amountKobo: lien }))
            if (answer._tag === "Unknown") return yield* stillHeld
            yield* write(answer._tag === "Ok" ? { lienPlaced: true } : { failureReason: `Could not place the lien: ${answer.reason}` })
            break
          }
          case "Debit": {
            yield* write({ debitState: "attempted" })
            const answer = yield* ask(
              "debit",
              bank.debit({ accountNumber: account, amountKobo: debitTotal, reference: refs.debit, narration: t.narration })
            )
            if (answer._tag === "Unknown") return t
            yield* write(
              answer._tag === "Ok"
                ? { debitState: "applied" }
                : { debitState: "refused", failureReason: `Debit refused: ${answer.reason}` }
            )
            break
          }
          case "RequeryDebit": {
            const status = yield* requery(refs.debit)
            if (status === "unknown" || status === "pending") return t
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
            if (session._tag === "Unknown") return t
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
            yield* write(
              answer._tag === "Refused"
                ? { transferState: "failed", failureReason: `Transfer refused: ${answer.reason}` }
                : answer.value === "successful"
                ? { transferState: "successful" }
                : { transferState: "pending", nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(0)) }
            )
            break
          }
          case "RequeryTransfer": {
            const status = yield* requery(refs.transfer)
            if (status === "unknown") return t
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
            if (status === "unknown" || status === "pending") return t
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
            if (t.pndLifted || t.lienPlaced) {
              const lien = yield* ask("removeLien", bank.removeLien({ accountNumber: account, reference: refs.lien }))
              if (lien._tag === "Unknown") return t
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
                return t
              }
            }
            const pnd = yield* ask("activatePnd", bank.activatePnd(account))
            if (pnd._tag !== "Ok") return t
            yield* write({ restored: true })
            break
          }
        }
      }
      return yield* Effect.dieMessage(`saga ${held.id} did not settle within ${MAX_STEPS} steps`)
    })
    return yield* saga.pipe(Effect.catchTag("MovementLost", () => stepAside(t, lastCall)))
  }).pipe(
    // a driver that was fenced out before its first step: the movement is someone else's
    Effect.catchTag("MovementLost", () => lostBeforeStart(held)),
    // the balance moved (or may have): the next read must ask the provider
    Effect.tap((t) => Effect.flatMap(BalanceCache, (cache) => cache.invalidate(t.sourceAccountNumber))),
    Effect.withSpan("Transfers.drive", { attributes: { transferId: held.id } })
  )

const lostBeforeStart = (held: TransferClaim) =>
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
const stepAside = (stale: Transfer, lastCall: AccountCall) =>
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
const freshSession = (t: Transfer) =>
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
const reversalRefused = (t: Transfer, reason: string) =>
  raiseAlert({
    kind: "reversal_refused",
    dedupKey: `reversal_refused:${t.id}`,
    message: `The bank refused the reversal of movement ${t.id} (${formatNaira(t.amountKobo + t.feeKobo)}): ${reason}. ` +
      "The customer's money is held in settlement: credit it back by hand.",
    customerId: t.customerId,
    transactionId: t.id
  })

/**
 * Tells the customer that money taken for a movement came back: `disbursement_failed` for plan
 * payouts, `transfer_failed` otherwise (stored and emailed, see Notices.ts).
 */
const notifyFailure = (t: Transfer) =>
  Notices.raise({
    customerId: t.customerId,
    kind: t.purpose === "disbursement" ? "disbursement_failed" : "transfer_failed",
    subject: t.purpose === "disbursement" ? "Your scheduled payout did not go through" : "Your transfer did not go through",
    message: `Your ${formatNaira(t.amountKobo)} transfer to ${t.destinationAccountName} (${t.destinationAccountNumber}) failed: ` +
      `${t.failureReason ?? "the bank did not complete it"}. The money, with its fee, is back in your account.`,
    planId: t.planId,
    transactionId: t.id
  })

const requery = (reference: string) =>
  Effect.flatMap(CoreBanking, (bank) => ask("requery", bank.requery(reference))).pipe(
    Effect.map((answer): RequeryStatus | "unknown" => (answer._tag === "Ok" ? answer.value : "unknown"))
  )

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
    Effect.withSpan("Transfers.reconcile", { attributes: { transferId: held.id } })
  )

/**
 * Recovery and reconciliation in one pass: claims movements that need driving (their driver died,
 * or their pending transfer's requery is due) and drives or reconciles each, with bounded
 * concurrency. Safe to run in several processes at once.
 */
export const processDue = (options: { readonly limit?: number; readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const at = yield* now
    const claimed = yield* (yield* TransferRepo).claimDue(
      at,
      new Date(at.getTime() + Duration.toMillis(LEASE)),
      options.limit ?? 100
    )
    const results = yield* Effect.forEach(
      claimed,
      (t) => (t.restored && t.transferState === "pending" ? reconcile(t) : drive(t)).pipe(Effect.either),
      { concurrency: options.concurrency ?? 8 }
    )
    return {
      claimed: claimed.length,
      confirmed: results.filter((r) => r._tag === "Right" && r.right.status === "confirmed").length,
      failed: results.filter((r) => r._tag === "Right" && r.right.status === "failed").length,
      stillPending: results.filter((r) => r._tag === "Right" && r.right.status === "pending").length
    }
  }).pipe(Effect.withSpan("Transfers.processDue"))

// ---------------------------------------------------------------------------------------------
// Starting a manual transfer
// ---------------------------------------------------------------------------------------------

export interface ManualTransferInput {
  readonly destinationAccountNumber: string
  readonly destinationBankCode: string
  readonly destinationBankName: string
  readonly destinationAccountName: string
  readonly amountKobo: Kobo
  readonly idempotencyKey: string
  readonly narration?: string | undefined
  readonly nipSessionId?: string | undefined
}

/** The request as a canonical string: a retry must send the same one to get the same answer. */
const canonicalRequest = (input: ManualTransferInput) =>
  JSON.stringify([
    input.destinationAccountNumber,
    input.destinationBankCode,
    input.destinationBankName,
    input.destinationAccountName,
    input.amountKobo.toString(),
    input.narration ?? null,
    input.nipSessionId ?? null
  ])

/**
 * `POST /transactions/transfer`. The idempotency key is scoped to the customer: a repeat with the
 * same body returns the original movement (no second debit, whatever happened since); the same key
 * with another body is IdempotencyConflict. A new movement is validated (active customer, first
 * deposit made, destination verified, balance covers amount + fee), stored, and driven through the
 * saga within the request; it answers confirmed or pending, or fails with TransferFailed after its
 * compensation ran.
 */
export const startManualTransfer = (accountId: string, input: ManualTransferInput) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const repo = yield* TransferRepo
    const requestHash = yield* (yield* SecretHasher).digest("transfer-request", canonicalRequest(input))
    const existing = yield* repo.findByIdempotencyKey(customer.id, input.idempotencyKey)
    if (Option.isSome(existing)) {
      if (existing.value.requestHash !== requestHash) return yield* new IdempotencyConflict()
      return yield* outcome(existing.value)
    }
    if (customer.coreAccountNumber === null) return yield* new NoBankAccount()
    if (customer.customerStatus !== "active") return yield* new AccountNotActive({ customerStatus: customer.customerStatus })
    if (customer.firstDepositAt === null) return yield* new WithdrawalsNotAllowed()
    // An identical request that lost the race to the one now in flight gets that movement back;
    // anything else is refused while a movement is in flight.
    const replayOrRefuse = Effect.flatMap(
      repo.findByIdempotencyKey(customer.id, input.idempotencyKey),
      (found): Effect.Effect<Transfer, MovementInFlight | IdempotencyConflict | TransferFailed> =>
        Option.isNone(found)
          ? Effect.fail(new MovementInFlight())
          : found.value.requestHash === requestHash
          ? outcome(found.value)
          : Effect.fail(new IdempotencyConflict())
    )
    // told before the balance: a movement in flight holds a lien that makes the balance look short
    if (yield* repo.hasMovementInFlight(customer.id)) return yield* replayOrRefuse

    const fee = Fees.quote(input.amountKobo, yield* Settings.get(Settings.NipFees))
    const feeKobo = fee.feeKobo + fee.vatKobo
    const bank = yield* CoreBanking
    const snapshot = yield* bank.account(customer.coreAccountNumber)
    if (snapshot.withdrawableBalanceKobo < input.amountKobo + feeKobo) {
      return yield* new InsufficientBalance({
        requiredKobo: input.amountKobo + feeKobo,
        availableKobo: snapshot.withdrawableBalanceKobo
      })
    }
    const sessionId = input.nipSessionId ??
      (yield* Beneficiaries.lookup(input.destinationAccountNumber, input.destinationBankCode)).nipSessionId
    const at = yield* now
    const transfer = newTransfer({
      id: yield* (yield* Ids).next,
      customerId: customer.id,
      sourceAccountNumber: customer.coreAccountNumber,
      planId: null,
      purpose: "manual_transfer",
      amountKobo: input.amountKobo,
      feeKobo,
      destinationAccountNumber: input.destinationAccountNumber,
      destinationBankCode: input.destinationBankCode,
      destinationBankName: input.destinationBankName,
      destinationAccountName: input.destinationAccountName,
      nameEnquirySessionId: sessionId,
      // the customer's own lookup (or ours, just now)
      nameEnquiryAt: at,
      narration: input.narration ?? "Transfer",
      idempotencyKey: input.idempotencyKey,
      requestHash,
      leaseUntil: new Date(at.getTime() + Duration.toMillis(LEASE)),
      createdAt: at
    })
    // Once stored, the saga runs to where it can go even if the client goes away (an HTTP client
    // disconnect interrupts the request's fiber): a customer who closes the app mid-transfer must
    // not leave their account locked until recovery takes over.
    const attempt = yield* Effect.either(Effect.uninterruptible(
      Effect.flatMap(repo.create(transfer), (c) => (c.created ? Effect.map(drive(c.transfer), (t) => ({ ...c, transfer: t })) : Effect.succeed(c)))
    ))
    if (attempt._tag === "Left") return yield* replayOrRefuse // MovementInFlight: maybe our own twin
    const created = attempt.right
    if (!created.created && created.transfer.requestHash !== requestHash) {
      // a concurrent request with the same key and another body got there first
      return yield* new IdempotencyConflict()
    }
    return yield* outcome(created.transfer)
  }).pipe(Effect.withSpan("Transfers.startManualTransfer"))

const outcome = (t: Transfer) =>
  t.status === "failed"
    ? Effect.fail(new TransferFailed({ transactionId: t.id, reason: t.failureReason ?? "The transfer failed" }))
    : Effect.succeed(t)
