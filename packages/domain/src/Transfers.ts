/**
 * Executes the transfer saga (TransferSaga.ts) against the core banking provider, journaling each
 * step in the Transfer record before and after its provider call.
 *
 * - `drive(id)` runs the saga as far as it can go now. A definite refusal moves it to its
 *   compensation; an UNKNOWN outcome stops it where it is (still pending, step "attempted"): it is
 *   never treated as a failure. `processDue` (scheduler and start-up) picks it up again when its
 *   lease expires and `decide` requeries the step.
 * - `reconcile(id)` requeries a transfer the provider answered "pending", with backoff; after
 *   TransferPolicy.maxRequeries it is failed with a reason and the debit reversed (the spec's rule).
 * - A driver holds a lease on the movement while it works (renewed at every journal write), so two
 *   processes never drive the same saga; a driver that died leaves an expired lease behind.
 */
import { Duration, Effect, Option } from "effect"
import {
  CoreBanking,
  type CoreBankingError,
  type RequeryStatus
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
import { newTransfer, type Transfer, type TransferPatch } from "./Models.js"
import { formatNaira, type Kobo } from "./Money.js"
import { Ids, MovementInFlight, SecretHasher, TransferRepo } from "./Ports.js"
import * as Settings from "./Settings.js"
import {
  decide,
  nextRequeryDelayMs,
  protectingLien,
  referencesOf,
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
  | { readonly _tag: "Refused"; readonly reason: string }
  | { readonly _tag: "Unknown" }

/** A provider call's outcome as data. A misconfiguration is an unknown outcome (and an alarm). */
const ask = <A>(operation: string, call: Effect.Effect<A, CoreBankingError>): Effect.Effect<Answer<A>> =>
  call.pipe(
    Effect.map((value): Answer<A> => ({ _tag: "Ok", value })),
    Effect.catchTags({
      ProviderRefused: (e) => Effect.succeed<Answer<A>>({ _tag: "Refused", reason: `${e.reason} (${e.code})` }),
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

/** Runs the saga of `transferId` as far as it can go now; returns the movement as it stands. */
export const drive = (transferId: string) =>
  Effect.gen(function*() {
    const repo = yield* TransferRepo
    const bank = yield* CoreBanking
    let t = yield* load(transferId)
    const refs = referencesOf(t.id)
    const account = t.sourceAccountNumber
    const debitTotal = t.amountKobo + t.feeKobo
    const write = (patch: TransferPatch) =>
      Effect.flatMap(now, (at) =>
        repo.update(t.id, { leaseUntil: new Date(at.getTime() + Duration.toMillis(LEASE)), ...patch }, at)).pipe(
          Effect.tap((updated) => Effect.sync(() => (t = updated)))
        )

    for (let step = 0; step < MAX_STEPS; step++) {
      const action = decide(journalOf(t))
      yield* Effect.annotateCurrentSpan("lastAction", action._tag)
      switch (action._tag) {
        case "Done":
        case "AwaitTransfer":
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
          const answer = yield* ask("deactivatePnd", bank.deactivatePnd(account))
          if (answer._tag === "Unknown") return t
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
          if (snapshot.value.withdrawableBalanceKobo < debitTotal + t.reserveKobo) {
            yield* write({ failureReason: INSUFFICIENT_BALANCE })
            break
          }
          const answer = yield* ask(
            "placeLien",
            bank.placeLien({
              accountNumber: account,
              reference: refs.lien,
              amountKobo: protectingLien(snapshot.value.ledgerBalanceKobo, debitTotal)
            })
          )
          if (answer._tag === "Unknown") return t
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
          yield* write({ transferState: "attempted" })
          const answer = yield* ask(
            "transfer",
            bank.transfer({
              reference: refs.transfer,
              amountKobo: t.amountKobo,
              destinationAccountNumber: t.destinationAccountNumber,
              destinationBankCode: t.destinationBankCode,
              destinationAccountName: t.destinationAccountName,
              nameEnquirySessionId: t.nameEnquirySessionId,
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
            // the customer's money is in settlement and the bank refuses to give it back: an operator must act
            yield* Effect.logError("reversal refused: customer funds held in settlement").pipe(
              Effect.annotateLogs({ transactionId: t.id, reason: answer.reason })
            )
            return t
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
            yield* Effect.logError("reversal not applied at the bank: operator attention").pipe(
              Effect.annotateLogs({ transactionId: t.id, status })
            )
            return t
          }
          break
        }
        case "Restore": {
          if (t.lienPlaced) {
            const lien = yield* ask("removeLien", bank.removeLien({ accountNumber: account, reference: refs.lien }))
            if (lien._tag === "Unknown") return t
            // "not found": the lien is already gone, which is what we want
          }
          const pnd = yield* ask("activatePnd", bank.activatePnd(account))
          if (pnd._tag !== "Ok") return t
          yield* write({ restored: true })
          break
        }
      }
    }
    return yield* Effect.dieMessage(`saga ${transferId} did not settle within ${MAX_STEPS} steps`)
  }).pipe(
    // the balance moved (or may have): the next read must ask the provider
    Effect.tap((t) => Effect.flatMap(BalanceCache, (cache) => cache.invalidate(t.sourceAccountNumber))),
    Effect.withSpan("Transfers.drive", { attributes: { transferId } })
  )

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
 * Reconciliation of a transfer the provider answered "pending": requery; a final answer completes
 * the saga (confirmed, or failed and reversed); still pending → next requery later with backoff;
 * after TransferPolicy.maxRequeries → failed with a reason and the debit reversed.
 */
export const reconcile = (transferId: string) =>
  Effect.gen(function*() {
    const repo = yield* TransferRepo
    const t = yield* load(transferId)
    if (t.status !== "pending" || t.transferState !== "pending") return yield* drive(transferId)
    const status = yield* requery(referencesOf(t.id).transfer)
    const at = yield* now
    if (status === "successful") yield* repo.update(t.id, { transferState: "successful" }, at)
    else if (status === "failed" || status === "reversed") {
      yield* repo.update(t.id, { transferState: "failed", failureReason: "The transfer failed at the bank" }, at)
    } else {
      const retryCount = t.retryCount + 1
      if (retryCount >= TransferPolicy.maxRequeries) {
        yield* repo.update(t.id, {
          retryCount,
          transferState: "failed",
          failureReason: `No final answer from the bank after ${retryCount} requeries; the debit is reversed`
        }, at)
      } else {
        return yield* repo.update(t.id, {
          retryCount,
          nextAttemptAt: new Date(at.getTime() + nextRequeryDelayMs(retryCount)),
          leaseUntil: null
        }, at)
      }
    }
    return yield* drive(transferId)
  }).pipe(Effect.withSpan("Transfers.reconcile", { attributes: { transferId } }))

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
      (t) => (t.restored && t.transferState === "pending" ? reconcile(t.id) : drive(t.id)).pipe(Effect.either),
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
      Effect.flatMap(repo.create(transfer), (c) => (c.created ? Effect.map(drive(transfer.id), (t) => ({ ...c, transfer: t })) : Effect.succeed(c)))
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
