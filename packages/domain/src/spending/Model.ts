/**
 * The customer's spending log: what they spent, on what, on which day. A record the customer keeps
 * for themselves; it moves no money and is not reconciled with the bank.
 */
import { Schema } from "effect"
import { CustomerId, SpendingId } from "../shared/Ids.js"

/** One logged spending. */
export class Spending extends Schema.Class<Spending>("Spending")({
  id: SpendingId,
  customerId: CustomerId,
  amountKobo: Schema.BigIntFromSelf,
  /** trimmed, inner spaces collapsed, lower-case (`Rules.normalizeCategory`) */
  category: Schema.String,
  /** trimmed; null when none was given */
  description: Schema.NullOr(Schema.String),
  /** the calendar day of the spending, YYYY-MM-DD (the customer's day, not an instant) */
  date: Schema.String,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}
