/**
 * The wire protocol of the core banking provider, as spoken by the HTTP adapter and served by the
 * sandbox bank. It is shaped like the REST APIs of Nigerian core banking platforms:
 *
 * - Auth: every request carries `Authorization: Bearer <CORE_BANKING_TOKEN>`; a wrong token is
 *   HTTP 401 (the adapter reports ProviderMisconfigured).
 * - Every answer is HTTP 200 with `{ responseCode, responseMessage, data? }`; `responseCode` "00" is
 *   success, "01"/"09"/"91"/"97" pending, "96" (system malfunction), "06" (error) and "68" (answer
 *   too late) ambiguous (`Codes.ambiguous`: a write may or may not have been applied), "94" a
 *   duplicate reference, anything else a definite refusal ("07" invalid account, "25" not found,
 *   "51" insufficient funds, "57" not permitted, "26" bad request). HTTP 5xx means the provider
 *   failed: for a write, the outcome is unknown.
 * - Amounts are integer kobo as JSON numbers. References are at most 12 characters; a repeated
 *   reference is not applied twice: it answers with the first outcome, or (strict providers) "94";
 *   either way a requery by reference tells the first outcome.
 *
 * Routes (all JSON):
 *   POST   /accounts                                OpenAccountRequest → AccountData
 *   GET    /accounts/by-reference/{reference}       → AccountData | "25"
 *   GET    /accounts/{accountNumber}                → AccountDetails | "07"
 *   GET    /accounts/{accountNumber}/transactions   → { transactions: WireTransaction[] }
 *   POST   /accounts/{accountNumber}/pnd/activate   → {}
 *   POST   /accounts/{accountNumber}/pnd/deactivate → {}
 *   POST   /accounts/{accountNumber}/liens          LienRequest → {}
 *   POST   /accounts/{accountNumber}/liens/{reference}/remove → {}
 *   POST   /accounts/{accountNumber}/freeze         FreezeRequest → { freezeReference }
 *   POST   /accounts/{accountNumber}/unfreeze       UnfreezeRequest → {}
 *   POST   /transactions/debit                      PostingRequest → {}    (customer → settlement)
 *   POST   /transactions/credit                     PostingRequest → {}    (settlement → customer)
 *   GET    /nip/name-enquiry?accountNumber=&bankCode= → NameEnquiryData | "07"
 *   POST   /nip/transfers                           TransferRequest → {} ("00" done, "09" pending)
 *   GET    /transactions/{reference}/status         → { status } | "25"
 *   GET    /bvn/{bvn}                               → BvnData | "25"
 *   GET    /banks                                   → { banks: WireBank[] }
 * Sandbox only (no auth needed beyond the token):
 *   POST   /sandbox/deposits                        { accountNumber, amountKobo } → { reference }
 *   GET    /sandbox/ledger                          → Ledger (conservation check)
 *
 * Inbound deposits are announced to the service's webhook: POST <webhook URL> with the configured
 * shared header and a `DepositNotification` body.
 */
import { Schema } from "effect"

export const Kobo = Schema.Int.pipe(Schema.nonNegative())

export const Envelope = <A, I, R>(data: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    responseCode: Schema.String,
    responseMessage: Schema.String,
    data: Schema.optional(data)
  })

export const Codes = {
  success: "00",
  pending: "09",
  invalidAccount: "07",
  notFound: "25",
  badRequest: "26",
  insufficientFunds: "51",
  notPermitted: "57",
  duplicate: "94",
  systemMalfunction: "96",
  /**
   * 96 system malfunction, 06 error, 68 response received too late: the provider does not know (or
   * does not say) whether a write was applied. Never a refusal: a write's outcome is unknown
   * (requery), a read is tried again.
   */
  ambiguous: ["96", "06", "68"] as ReadonlyArray<string>
} as const

export const Empty = Schema.Struct({})

export const OpenAccountRequest = Schema.Struct({
  customerReference: Schema.String.pipe(Schema.maxLength(12)),
  firstName: Schema.String,
  lastName: Schema.String,
  otherNames: Schema.NullOr(Schema.String),
  phone: Schema.String,
  email: Schema.String,
  dateOfBirth: Schema.String,
  gender: Schema.NullOr(Schema.Literal("male", "female"))
})

export const AccountData = Schema.Struct({
  accountNumber: Schema.String,
  accountName: Schema.String,
  customerReference: Schema.String
})

export const WireLien = Schema.Struct({ reference: Schema.String, amount: Kobo })

export const AccountDetails = Schema.Struct({
  accountNumber: Schema.String,
  accountName: Schema.String,
  ledgerBalance: Kobo,
  withdrawableBalance: Schema.Int,
  pndActive: Schema.Boolean,
  frozen: Schema.Boolean,
  liens: Schema.Array(WireLien)
})

export const WireTransaction = Schema.Struct({
  reference: Schema.String,
  type: Schema.Literal("C", "D"),
  amount: Kobo,
  narration: Schema.String,
  postedAt: Schema.String,
  channel: Schema.Literal("nip_inbound", "core_debit", "core_credit", "nip_outbound"),
  counterpartyName: Schema.NullOr(Schema.String),
  counterpartyAccountNumber: Schema.NullOr(Schema.String),
  counterpartyBankCode: Schema.NullOr(Schema.String)
})

export const TransactionsData = Schema.Struct({ transactions: Schema.Array(WireTransaction) })

export const LienRequest = Schema.Struct({
  reference: Schema.String.pipe(Schema.maxLength(12)),
  amount: Kobo,
  reason: Schema.String
})

export const FreezeRequest = Schema.Struct({ reason: Schema.String })
export const FreezeData = Schema.Struct({ freezeReference: Schema.String })
export const UnfreezeRequest = Schema.Struct({ freezeReference: Schema.String })

export const PostingRequest = Schema.Struct({
  accountNumber: Schema.String,
  amount: Kobo,
  retrievalReference: Schema.String.pipe(Schema.maxLength(12)),
  narration: Schema.String
})

export const NameEnquiryData = Schema.Struct({
  accountName: Schema.String,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  sessionId: Schema.String
})

export const TransferRequest = Schema.Struct({
  transactionReference: Schema.String.pipe(Schema.maxLength(12)),
  amount: Kobo,
  destinationAccountNumber: Schema.String,
  destinationBankCode: Schema.String,
  destinationAccountName: Schema.String,
  nameEnquirySessionId: Schema.String,
  narration: Schema.String
})

export const StatusData = Schema.Struct({
  status: Schema.Literal("Successful", "Failed", "Pending", "Reversed")
})

export const BvnData = Schema.Struct({
  bvn: Schema.String,
  firstName: Schema.String,
  lastName: Schema.String,
  phone: Schema.String,
  dateOfBirth: Schema.String
})

export const WireBank = Schema.Struct({ code: Schema.String, name: Schema.String })
export const BanksData = Schema.Struct({ banks: Schema.Array(WireBank) })

export const DepositRequest = Schema.Struct({ accountNumber: Schema.String, amountKobo: Kobo })
export const DepositData = Schema.Struct({ reference: Schema.String })

/** Money is never created or lost: customers + settlement + paidOut = deposits. */
export const Ledger = Schema.Struct({
  customerBalances: Kobo,
  settlement: Schema.Int,
  paidOut: Kobo,
  deposits: Kobo
})

export const DepositNotification = Schema.Struct({
  event: Schema.Literal("transaction.posted"),
  accountNumber: Schema.String,
  reference: Schema.String,
  type: Schema.Literal("C", "D"),
  amount: Kobo,
  postedAt: Schema.String
})
