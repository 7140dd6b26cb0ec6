/** What the beneficiary endpoints answer: a saved beneficiary. */
import { type Beneficiary, BeneficiaryId } from "@app/domain"
import { Schema } from "effect"

export const BeneficiaryView = Schema.Struct({
  id: BeneficiaryId,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  bankName: Schema.String,
  accountName: Schema.String,
  isDefault: Schema.Boolean,
  createdAt: Schema.String
})

export const NameEnquiryView = Schema.Struct({
  accountName: Schema.String,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  nipSessionId: Schema.String
})

export const beneficiaryView = (b: Beneficiary) => ({
  id: b.id,
  accountNumber: b.accountNumber,
  bankCode: b.bankCode,
  bankName: b.bankName,
  accountName: b.accountName,
  isDefault: b.isDefault,
  createdAt: b.createdAt.toISOString()
})
