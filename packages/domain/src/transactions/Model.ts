/**
 * The Transaction resource: every money movement of a customer.
 */
import { Schema } from "effect"
import { CustomerId, PlanId, TransactionId } from "../shared/Ids.js"

export const TransactionType = Schema.Literal("credit", "debit", "transfer")
export type TransactionType = typeof TransactionType.Type

export const TransactionPurpose = Schema.Literal("deposit", "manual_transfer", "disbursement", "early_withdrawal")
export type TransactionPurpose = typeof TransactionPurpose.Type

export const TransactionStatus = Schema.Literal("pending", "confirmed", "failed")
export type TransactionStatus = typeof TransactionStatus.Type

/**
 * One money movement of a customer (the spec's Transaction resource): deposits, manual transfers,
 * disbursements, Borrow and Extra Cash. Amounts are integer kobo (`bigint`).
 */
export class Transaction extends Schema.Class<Transaction>("Transaction")({
  id: TransactionId,
  customerId: CustomerId,
  planId: Schema.NullOr(PlanId),
  type: TransactionType,
  purpose: TransactionPurpose,
  amountKobo: Schema.BigIntFromSelf,
  feeKobo: Schema.BigIntFromSelf,
  status: TransactionStatus,
  /** our debit/credit reference at the provider (≤ 12 chars) */
  retrievalReference: Schema.NullOr(Schema.String),
  /** our NIP transfer reference at the provider (≤ 12 chars) */
  transferReference: Schema.NullOr(Schema.String),
  /** the provider's own reference of the posting (inbound deposits); unique per customer */
  providerReference: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  retryCount: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}
