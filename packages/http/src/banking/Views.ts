/** What the banking endpoints answer: the bank account, its balance and provider transactions, banks. */
import { KoboString, type ProviderTransaction } from "@app/domain"
import { Schema } from "effect"

const KoboOut = KoboString

export const CreatedAccount = Schema.Struct({ accountNumber: Schema.String, bankAccountNumber: Schema.String })

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
})

export const BalanceView = Schema.Struct({ balanceKobo: Schema.Number })

export const BankView = Schema.Struct({ bankCode: Schema.String, bankName: Schema.String })

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
