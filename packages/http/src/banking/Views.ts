/** What the banking endpoints answer: the bank account, its balance and provider transactions, banks. */
import { KoboString, type ProviderTransaction } from "@app/domain"
import { Schema } from "effect"
import * as Ex from "../shared/Examples.js"

const KoboOut = KoboString

export const CreatedAccount = Schema.Struct({ accountNumber: Schema.String, bankAccountNumber: Schema.String })
  .annotations({ examples: [{ accountNumber: Ex.CORE_ACCOUNT_NUMBER, bankAccountNumber: Ex.CORE_ACCOUNT_NUMBER }] })

export const ProviderTransactionView = Schema.Struct({
  reference: Schema.String,
  type: Schema.Literal("credit", "debit"),
  amountKobo: KoboOut,
  amount: KoboOut,
  narration: Schema.String,
  channel: Schema.String,
  postedAt: Schema.String,
  counterpartyName: Schema.NullOr(Schema.String),
  counterpartyAccountNumber: Schema.NullOr(Schema.String),
  counterpartyBankCode: Schema.NullOr(Schema.String)
}).annotations({
  examples: [{
    reference: "000013261120101422334455667788",
    type: "credit",
    amountKobo: 5_000_000n,
    amount: 5_000_000n,
    narration: "Transfer from CHIAMAKA OKAFOR",
    channel: "NIP",
    postedAt: "2026-11-20T09:14:22.000Z",
    counterpartyName: "CHIAMAKA OKAFOR",
    counterpartyAccountNumber: Ex.ACCOUNT_NUMBER,
    counterpartyBankCode: Ex.BANK_CODE
  }]
})

export const BalanceView = Schema.Struct({ balanceKobo: Schema.Number }).annotations({ examples: [{ balanceKobo: 12_450_000 }] })

export const BankView = Schema.Struct({ bankCode: Schema.String, bankName: Schema.String })
  .annotations({ examples: [{ bankCode: Ex.BANK_CODE, bankName: Ex.BANK_NAME }, { bankCode: "044", bankName: "Access Bank" }] })

export const created = ({ accountNumber }: { accountNumber: string }) => ({ accountNumber, bankAccountNumber: accountNumber })

export const providerTransactionView = (t: ProviderTransaction) => ({
  reference: t.reference,
  type: t.direction,
  amountKobo: t.amountKobo,
  amount: t.amountKobo,
  narration: t.narration,
  channel: t.channel,
  postedAt: t.postedAt.toISOString(),
  counterpartyName: t.counterpartyName,
  counterpartyAccountNumber: t.counterpartyAccountNumber,
  counterpartyBankCode: t.counterpartyBankCode
})

export const balanceView = (kobo: bigint) => ({ balanceKobo: Number(kobo) })
