/**
 * The wire mapping of the HTTP adapter (`HttpCoreBanking.ts`): between the port's values and the
 * schemas of `Wire.ts`, in both directions.
 *
 * Requests: the pre-send checks (references 1–12 chars, amounts whole kobo ≤ MAX_SAFE_INTEGER, the
 * body encoded with its Wire schema); a failed check is ProviderRefused "26" and nothing is sent.
 * Answers: the `data` schemas of "00" answers that Wire.ts does not have, and the port's values made
 * from the decoded `data`.
 */
import {
  type AccountSnapshot,
  type BvnRecord,
  type Kobo,
  MAX_REFERENCE_LENGTH,
  type ProviderAccount,
  type ProviderTransaction,
  ProviderRefused,
  type RequeryStatus
} from "@app/domain"
import { Effect, Either, ParseResult, Schema } from "effect"
import type { WireRequest } from "./Sender.js"
import * as Wire from "./Wire.js"

const BAD_REQUEST = Wire.Codes.badRequest

/** Where a decode failed (paths only: the messages could quote personal data). */
export const issuePaths = (error: ParseResult.ParseError): string => {
  const paths = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
    issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")
  )
  return [...new Set(paths)].slice(0, 5).join(", ")
}

// ---- requests: the pre-send checks ------------------------------------------------------------

export const segment = encodeURIComponent

export const refuse = (operation: string, reason: string) =>
  new ProviderRefused({ operation, code: BAD_REQUEST, reason })

export const checkReference = (operation: string, reference: string): Effect.Effect<string, ProviderRefused> =>
  reference.length === 0
    ? Effect.fail(refuse(operation, "reference is empty"))
    : reference.length > MAX_REFERENCE_LENGTH
    ? Effect.fail(refuse(operation, `reference longer than ${MAX_REFERENCE_LENGTH} characters`))
    : Effect.succeed(reference)

export const wireAmount = (operation: string, amount: Kobo): Effect.Effect<number, ProviderRefused> =>
  amount < 0n
    ? Effect.fail(refuse(operation, "amount is negative"))
    : amount > BigInt(Number.MAX_SAFE_INTEGER)
    ? Effect.fail(refuse(operation, "amount too large to send"))
    : Effect.succeed(Number(amount))

export const post = <A, I>(
  operation: string,
  path: string,
  schema: Schema.Schema<A, I>,
  body: A
): Effect.Effect<WireRequest, ProviderRefused> => {
  const encoded = Schema.encodeEither(schema)(body)
  return Either.isLeft(encoded)
    ? Effect.fail(refuse(operation, `invalid request: ${issuePaths(encoded.left)}`))
    : Effect.succeed({ method: "POST", path, body: JSON.stringify(encoded.right) })
}

export const postEmpty = (path: string): Effect.Effect<WireRequest> => Effect.succeed({ method: "POST", path })
export const get = (path: string, query?: Record<string, string>): Effect.Effect<WireRequest> =>
  Effect.succeed({ method: "GET", path: query === undefined ? path : `${path}?${new URLSearchParams(query)}` })

// ---- answers -------------------------------------------------------------------------------------

export const VoidData = Schema.UndefinedOr(Wire.Empty)

/** The history answer, with postedAt decoded to a (valid) Date. */
export const HistoryData = Schema.Struct({
  transactions: Schema.Array(Schema.Struct({ ...Wire.WireTransaction.fields, postedAt: Schema.Date }))
})

export const toAccount = (data: typeof Wire.AccountData.Type): ProviderAccount => ({
  accountNumber: data.accountNumber,
  accountName: data.accountName
})

export const toAccountSnapshot = (data: typeof Wire.AccountDetails.Type): AccountSnapshot => ({
  accountNumber: data.accountNumber,
  accountName: data.accountName,
  ledgerBalanceKobo: BigInt(data.ledgerBalance),
  withdrawableBalanceKobo: BigInt(data.withdrawableBalance),
  pndActive: data.pndActive,
  frozen: data.frozen,
  liens: data.liens.map((lien) => ({ reference: lien.reference, amountKobo: BigInt(lien.amount) }))
})

export const toTransactions = (data: typeof HistoryData.Type): ReadonlyArray<ProviderTransaction> =>
  data.transactions.map((tx) => ({
    reference: tx.reference,
    direction: tx.type === "C" ? "credit" : "debit",
    amountKobo: BigInt(tx.amount),
    narration: tx.narration,
    postedAt: tx.postedAt,
    channel: tx.channel,
    counterpartyName: tx.counterpartyName,
    counterpartyAccountNumber: tx.counterpartyAccountNumber,
    counterpartyBankCode: tx.counterpartyBankCode
  }))

export const toBvnRecord = (data: typeof Wire.BvnData.Type): BvnRecord => ({
  firstName: data.firstName,
  lastName: data.lastName,
  phone: data.phone,
  dateOfBirth: data.dateOfBirth
})

export const requeryStatus: Record<typeof Wire.StatusData.Type["status"], RequeryStatus> = {
  Successful: "successful",
  Failed: "failed",
  Pending: "pending",
  Reversed: "reversed"
}
