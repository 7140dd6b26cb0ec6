/**
 * Notices raised to customers about their money.
 */
import { Schema } from "effect"
import { CustomerId, PlanId, TransactionId } from "../shared/Ids.js"

/** A notice raised to a customer about their money (plan_depleted, disbursement_failed, …), kept for them and for admins. */
export class Notice extends Schema.Class<Notice>("Notice")({
  id: Schema.String,
  customerId: CustomerId,
  planId: Schema.NullOr(PlanId),
  transactionId: Schema.NullOr(TransactionId),
  kind: Schema.String,
  message: Schema.String,
  createdAt: Schema.DateFromSelf
}) {}
