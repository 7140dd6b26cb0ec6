/**
 * Saved destination bank accounts.
 */
import { Schema } from "effect"
import { BeneficiaryId, CustomerId } from "../shared/Ids.js"

/** A saved destination bank account of a customer, verified by name enquiry when saved. */
export class Beneficiary extends Schema.Class<Beneficiary>("Beneficiary")({
  id: BeneficiaryId,
  customerId: CustomerId,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  bankName: Schema.String,
  /** the name the destination bank returned for the account */
  accountName: Schema.String,
  /** at most one per customer; whenever a customer has beneficiaries, exactly one is the default */
  isDefault: Schema.Boolean,
  createdAt: Schema.DateFromSelf
}) {}
