/**
 * What BankOne's answers mean for the CoreBanking port (docs/bankone.md B11, B14, B15, B19–B21,
 * B25). Pure functions of a decoded answer. The rule throughout: an answer is success only when every
 * flag agrees; a definite refusal only on a listed NIBSS refusal code with the failure flag; anything
 * else — an unlisted code, contradictory flags, a missing field — is UNKNOWN, and the caller learns
 * the truth by a status query (postings, transfers) or Account Enquiry (PND, liens, freeze), never by
 * treating it as a refusal that would release money which may have moved.
 */
import type { RequeryStatus } from "@app/domain"
import type * as Wire from "./BankOneWire.js"

/** NIBSS codes that say "not done" for certain (B15). "26" (duplicate record) and "94" are NOT here. */
export const REFUSAL_CODES: ReadonlySet<string> = new Set(["03", "05", "07", "12", "13", "51", "57", "58", "61", "65"])
/** "not final yet" (B21) */
export const PENDING_CODES: ReadonlySet<string> = new Set(["01", "09"])
/** NIBSS "unable to locate record" (B25, assumed) */
export const NOT_FOUND_CODE = "25"

export type Outcome<A> =
  | { readonly _tag: "Done"; readonly value: A }
  | { readonly _tag: "Refused"; readonly code: string; readonly reason: string }
  | { readonly _tag: "Unknown"; readonly detail: string }

const done = <A>(value: A): Outcome<A> => ({ _tag: "Done", value })
const unknown = (detail: string): Outcome<never> => ({ _tag: "Unknown", detail })
const refused = (code: string, reason: string | null | undefined): Outcome<never> => ({
  _tag: "Refused",
  code,
  reason: reason ?? `refused (${code})`
})

const code = (value: string | null | undefined): string => (value ?? "").trim()

/** Debit / credit (B14, B15). */
export const postingOutcome = (answer: typeof Wire.PostingAnswer.Type): Outcome<void> => {
  const c = code(answer.ResponseCode)
  if (answer.IsSuccessful === true && c === "00") return done(undefined)
  if (answer.IsSuccessful === false && REFUSAL_CODES.has(c)) return refused(c, answer.ResponseMessage)
  return unknown(`posting answered IsSuccessful=${String(answer.IsSuccessful)} ResponseCode="${c}"`)
}

/** PND, lien, freeze changes (B11): applied only on RequestStatus true and ResponseStatus "Successful". */
export const changeOutcome = (answer: typeof Wire.AccountChangeAnswer.Type): Outcome<void> =>
  answer.RequestStatus === true && (answer.ResponseStatus ?? "").trim() === "Successful"
    ? done(undefined)
    : unknown(`account change answered RequestStatus=${String(answer.RequestStatus)} ResponseStatus="${answer.ResponseStatus ?? ""}"`)

/** Interbank transfer (B18–B21): note `IsSuccessFul`. */
export const transferOutcome = (answer: typeof Wire.InterbankTransferAnswer.Type): Outcome<"successful" | "pending"> => {
  const c = code(answer.ResponseCode)
  const status = (answer.Status ?? "").trim()
  if (answer.IsSuccessFul === true && c === "00" && (status === "Successful" || status === "SuccessfulButFeeNotTaken")) {
    return done("successful")
  }
  if (status === "Pending" || (status === "" && PENDING_CODES.has(c))) return done("pending")
  if (answer.IsSuccessFul === false && status === "Failed" && REFUSAL_CODES.has(c)) {
    return refused(c, answer.ResponseMessage ?? answer.StatusDescription)
  }
  return unknown(`transfer answered IsSuccessFul=${String(answer.IsSuccessFul)} Status="${status}" ResponseCode="${c}"`)
}

/** Transaction status query (B25): IsSuccessful false is "ask again", except "25" (no such transaction). */
export const statusQueryOutcome = (answer: typeof Wire.StatusQueryAnswer.Type): Outcome<RequeryStatus> => {
  const c = code(answer.ResponseCode)
  if (answer.IsSuccessful !== true) {
    return c === NOT_FOUND_CODE ? done("not_found") : unknown(`status query answered IsSuccessful=${String(answer.IsSuccessful)} ResponseCode="${c}"`)
  }
  switch ((answer.Status ?? "").trim()) {
    case "Successful":
    case "SuccessfulButFeeNotTaken":
      return done("successful")
    case "Pending":
      return done("pending")
    case "Failed":
      return done("failed")
    case "Reversed":
      return done("reversed")
    default:
      return unknown(`status query answered Status="${answer.Status ?? ""}"`)
  }
}

/** "Active" / "InActive" flags of Account Enquiry; anything else is not understood. */
export const activeFlag = (value: string | null | undefined): boolean | undefined => {
  const v = (value ?? "").trim().toLowerCase()
  return v === "active" ? true : v === "inactive" ? false : undefined
}

/** A BVN record's date of birth as YYYY-MM-DD, from "1990-01-01", "1990-01-01T00:00:00" or "01-Jan-1990". */
export const isoDateOfBirth = (text: string): string | undefined => {
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(text.trim())
  if (iso !== null) return iso[1]
  const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
  const dmy = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text.trim())
  if (dmy === null) return undefined
  const month = months.indexOf(dmy[2]!.toLowerCase())
  return month === -1 ? undefined : `${dmy[3]}-${String(month + 1).padStart(2, "0")}-${dmy[1]!.padStart(2, "0")}`
}
