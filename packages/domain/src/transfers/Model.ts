/**
 * A money movement out of the customer's account and its saga journal.
 */
import { Schema } from "effect"
import { TransactionPurpose, TransactionStatus } from "../transactions/Model.js"
import { CustomerId, PlanId, TransactionId } from "../shared/Ids.js"

/**
 * A money movement out of the customer's account (manual transfer, payout, Borrow, Extra Cash,
 * closing): one Transaction row carrying its saga journal (see TransferSaga.ts).
 */
export class Transfer extends Schema.Class<Transfer>("Transfer")({
  id: TransactionId,
  customerId: CustomerId,
  /** the customer's account at the provider, debited */
  sourceAccountNumber: Schema.String,
  planId: Schema.NullOr(PlanId),
  purpose: TransactionPurpose,
  amountKobo: Schema.BigIntFromSelf,
  /** NIP fee + VAT (+ the Extra Cash fee), debited with the amount; the recipient gets the full amount */
  feeKobo: Schema.BigIntFromSelf,
  /**
   * What must stay in the wallet after the debit (Extra Cash keeps the plan's remaining payouts):
   * the saga checks it with the balance it reads while holding the customer's one in-flight slot.
   */
  reserveKobo: Schema.optionalWith(Schema.BigIntFromSelf, { default: () => 0n }),
  destinationAccountNumber: Schema.String,
  destinationBankCode: Schema.String,
  destinationBankName: Schema.String,
  destinationAccountName: Schema.String,
  nameEnquirySessionId: Schema.String,
  /** when that session was issued (null: unknown, treated as stale): the saga refreshes a stale one */
  nameEnquiryAt: Schema.optionalWith(Schema.NullOr(Schema.DateFromSelf), { default: () => null }),
  narration: Schema.String,
  idempotencyKey: Schema.String,
  /** a digest of the request, to tell a retry (same body) from a conflicting reuse of the key */
  requestHash: Schema.String,
  status: TransactionStatus,
  failureReason: Schema.NullOr(Schema.String),
  // the journal
  pndLifted: Schema.Boolean,
  lienPlaced: Schema.Boolean,
  debitState: Schema.Literal("none", "attempted", "applied", "refused"),
  transferState: Schema.Literal("none", "attempted", "successful", "pending", "failed"),
  /** "refused": the bank refused to credit the customer back; an operator must act (staff alert) */
  reversalState: Schema.Literal("none", "attempted", "applied", "refused"),
  restored: Schema.Boolean,
  retryCount: Schema.Number,
  /** when reconciliation should requery a pending transfer next */
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  /** a process driving this saga holds it until then; an expired lease means the driver died */
  leaseUntil: Schema.NullOr(Schema.DateFromSelf),
  /**
   * The fencing token of the movement's current driver: 0 for its creator, bumped by every claim.
   * A journal write names the epoch its writer holds and is applied only while it is still the
   * current one, so a driver that stalled past its lease cannot overwrite its successor's journal.
   */
  epoch: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

/** The journal of a movement that has not started: nothing done, nothing sent. */
export const FreshJournal = {
  status: "pending",
  failureReason: null,
  pndLifted: false,
  lienPlaced: false,
  debitState: "none",
  transferState: "none",
  reversalState: "none",
  restored: false,
  retryCount: 0,
  nextAttemptAt: null
} as const

/** A new movement: its request fields, a fresh journal, and the given lease (held by its creator, epoch 0). */
export const newTransfer = (
  fields: Omit<Transfer, keyof typeof FreshJournal | "leaseUntil" | "updatedAt" | "reserveKobo" | "epoch" | "nameEnquiryAt"> & {
    readonly leaseUntil?: Date | null
    readonly reserveKobo?: bigint
    readonly nameEnquiryAt?: Date | null
  }
): Transfer =>
  new Transfer({
    ...fields,
    ...FreshJournal,
    reserveKobo: fields.reserveKobo ?? 0n,
    nameEnquiryAt: fields.nameEnquiryAt ?? null,
    leaseUntil: fields.leaseUntil ?? null,
    epoch: 0,
    updatedAt: fields.createdAt
  })

/** The journal fields a saga step may write. */
export type TransferPatch = Partial<
  Pick<
    Transfer,
    | "status"
    | "failureReason"
    | "pndLifted"
    | "lienPlaced"
    | "debitState"
    | "transferState"
    | "reversalState"
    | "restored"
    | "retryCount"
    | "nextAttemptAt"
    | "leaseUntil"
    | "nameEnquirySessionId"
    | "nameEnquiryAt"
  >
>

/** What a journal write names: the movement, and the claim epoch its writer holds. */
export interface TransferClaim {
  readonly id: string
  readonly epoch: number
}
