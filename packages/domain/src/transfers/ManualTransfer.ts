/**
 * Starting a manual transfer: checks, fee quote, idempotency, then the saga.
 */
import { Duration, Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { AccountNotActive } from "../account/Errors.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import { NoBankAccount } from "../banking/Errors.js"
import * as Beneficiaries from "../beneficiaries/Beneficiaries.js"
import { reservedFor } from "../plans/Activation.js"
import { PlanRepo } from "../plans/Ports.js"
import * as Settings from "../settings/Settings.js"
import type { Kobo } from "../shared/Money.js"
import { SecretHasher } from "../shared/Ports.js"
import { now } from "../shared/UseCase.js"
import { IdempotencyConflict, InsufficientBalance, MovementInFlight, TransferFailed, WithdrawalsNotAllowed } from "./Errors.js"
import { driveFresh } from "./Executor.js"
import * as Fees from "./Fees.js"
import { newTransfer, type Transfer } from "./Model.js"
import { TransferRepo } from "./Ports.js"
import { LEASE } from "./Steps.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId, TransactionId, newId } from "../shared/Ids.js"

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
 * deposit made, destination verified, the balance less the plan's reserve covers amount + fee), stored, and driven through the
 * saga within the request; it answers confirmed or pending, or fails with TransferFailed after its
 * compensation ran.
 */
export const startManualTransfer = (accountId: AccountId, input: ManualTransferInput) =>
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

    const nip = yield* Settings.get(Settings.NipFees)
    const fee = Fees.quote(input.amountKobo, nip)
    const feeKobo = fee.feeKobo + fee.vatKobo
    // the plan's committed pot is not the transfer's to spend: Extra Cash (its fee, its caps) is the
    // only early way into it, close-account the only one without the penalty
    const reserveKobo = yield* planReserve(customer.id, nip)
    const bank = yield* CoreBanking
    const snapshot = yield* bank.account(customer.coreAccountNumber)
    const availableKobo = snapshot.withdrawableBalanceKobo > reserveKobo ? snapshot.withdrawableBalanceKobo - reserveKobo : 0n
    if (availableKobo < input.amountKobo + feeKobo) {
      return yield* new InsufficientBalance({ requiredKobo: input.amountKobo + feeKobo, availableKobo })
    }
    // within the customer's name-enquiry budget, like GET /beneficiaries/lookup
    const sessionId = input.nipSessionId ??
      (yield* Beneficiaries.lookupFor(accountId, input.destinationAccountNumber, input.destinationBankCode)).nipSessionId
    const at = yield* now
    const transfer = newTransfer({
      id: yield* newId(TransactionId),
      customerId: customer.id,
      sourceAccountNumber: customer.coreAccountNumber,
      planId: null,
      purpose: "manual_transfer",
      amountKobo: input.amountKobo,
      feeKobo,
      // checked again by the saga against the balance it reads holding the in-flight slot, so two
      // requests at once cannot both pass the check above and spend the pot between them
      reserveKobo,
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
      Effect.flatMap(repo.create(transfer), (c) => (c.created ? Effect.map(driveFresh(c.transfer), (t) => ({ ...c, transfer: t })) : Effect.succeed(c)))
    ))
    if (attempt._tag === "Left") return yield* replayOrRefuse // MovementInFlight: maybe our own twin
    const created = attempt.right
    if (!created.created && created.transfer.requestHash !== requestHash) {
      // a concurrent request with the same key and another body got there first
      return yield* new IdempotencyConflict()
    }
    return yield* outcome(created.transfer)
  }).pipe(withSpan("Transfers.startManualTransfer"))

/**
 * What a manual transfer must leave in the wallet: the reserve (`Plans.reservedFor`: remaining
 * payouts and their NIP fees) of the customer's plan while it is committed to pay out, `active` or
 * `paused` (its payouts resume once the plan is updated); nothing otherwise.
 */
const planReserve = (customerId: CustomerId, nip: Fees.NipFeeSchedule) =>
  Effect.map(
    Effect.flatMap(PlanRepo, (plans) => plans.findForCustomer(customerId)),
    (plan) => Option.isSome(plan) && (plan.value.state === "active" || plan.value.state === "paused") ? reservedFor(plan.value, nip) : 0n
  )

export const outcome = (t: Transfer) =>
  t.status === "failed"
    ? Effect.fail(new TransferFailed({ transactionId: t.id, reason: t.failureReason ?? "The transfer failed" }))
    : Effect.succeed(t)
