/** What the beneficiary endpoints answer: a saved beneficiary. */
import { type Beneficiary, BeneficiaryId } from "@app/domain"
import { Schema } from "effect"
import * as Ex from "../shared/Examples.js"

export const BeneficiaryView = Schema.Struct({
  id: BeneficiaryId,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  bankName: Schema.String,
  accountName: Schema.String,
  isDefault: Schema.Boolean,
  createdAt: Schema.String
}).annotations({
  examples: [{
    id: BeneficiaryId.make("6e8a0c2e-4b6d-4f81-a3c5-7e9b1d3f5a70"),
    accountNumber: Ex.ACCOUNT_NUMBER,
    bankCode: Ex.BANK_CODE,
    bankName: Ex.BANK_NAME,
    accountName: "CHIAMAKA ADAEZE OKAFOR",
    isDefault: true,
    createdAt: Ex.CREATED_AT
  }]
})

export const NameEnquiryView = Schema.Struct({
  accountName: Schema.String,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  nipSessionId: Schema.String
}).annotations({
  examples: [{ accountName: "EMEKA NWOSU", accountNumber: "0045678912", bankCode: "044", nipSessionId: Ex.NIP_SESSION_ID }]
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
