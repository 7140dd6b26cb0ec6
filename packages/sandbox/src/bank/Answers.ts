/** The sandbox bank's answers (the wire protocol's response codes) and request validation. */
import { Data } from "effect"

// -------------------------------------------------------------------------------------------------
// Answers
// -------------------------------------------------------------------------------------------------

/** One answer of the wire protocol: `{ responseCode, responseMessage, data? }`. */
export interface Outcome {
  readonly code: string
  readonly message: string
  readonly data?: unknown
}

/** A malformed request ("26"): not a transaction, nothing is stored, the reference stays free. */
export class BadRequest extends Data.TaggedError("BadRequest")<{ readonly message: string }> {}

const APPROVED = "Approved or completed successfully"

export const ok = (data: unknown = {}): Outcome => ({ code: "00", message: APPROVED, data })
export const pending = (): Outcome => ({ code: "09", message: "Request in progress", data: {} })
export const invalidAccount = (accountNumber: string): Outcome => ({ code: "07", message: `Invalid account: ${accountNumber}` })
export const notFound = (what: string): Outcome => ({ code: "25", message: `Unable to locate record: ${what}` })
export const insufficientFunds = (message = "Insufficient funds"): Outcome => ({ code: "51", message })
export const notPermitted = (message: string): Outcome => ({ code: "57", message })
/** "94": the reference was used before, for a different request (or for this one, when repeats are rejected). */
export const duplicate = (reference: string, sameRequest = false): Outcome => ({
  code: "94",
  message: `Duplicate transaction: reference ${reference} was already used${sameRequest ? "" : " for a different request"}`
})
/** "96" after the transfer was applied (0006): the answer says nothing about the outcome. */
export const systemMalfunction = (): Outcome => ({ code: "96", message: "System malfunction" })
/** "26": a malformed request; nothing is stored. */
export const badRequest = (message: string): Outcome => ({ code: "26", message: `Bad request: ${message}` })

export const describeMs = (ms: number): string =>
  ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}` : `${ms} ms`

/** An amount of kobo that must be positive: the amount, or the "26" answer. */
export const positive = (amount: number): bigint | Outcome =>
  amount > 0 ? BigInt(amount) : badRequest("amount must be a positive whole number of kobo")

/** Blank text: the "26" answer; undefined when the field is present. */
export const blank = (field: string, value: string): Outcome | undefined =>
  value.trim().length > 0 ? undefined : badRequest(`${field} is required`)

/** References are used exactly as sent (never trimmed), but may not be blank: same check as `blank`. */
export const blankReference = blank
