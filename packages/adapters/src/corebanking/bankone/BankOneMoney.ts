/**
 * BankOne's amounts, converted exactly (docs/bankone.md B2, B3, B7, B8, B12, B18): never through a
 * JavaScript number, so no amount is ever rounded.
 *
 * - postings, transfers and status queries: kobo as a decimal string (`"250000"`);
 * - liens: naira as a decimal string with two decimals (`"2500.50"`);
 * - balances (Account Enquiry): decimal naira, JSON numbers with up to 4 decimals
 *   (`11487166.9420`). `JSON.parse` would turn those into doubles, so `quoteNumbers` rewrites the
 *   numeric literals of the named fields into strings in the answer's text before it is parsed, and
 *   `nairaToKobo` reads them digit by digit. A non-zero digit below the kobo is refused: rounding it
 *   would make the bank's ledger and ours disagree.
 */
import type { Kobo } from "@app/domain"

/** The largest amount the adapter sends: ₦10 trillion, far beyond any customer's money. */
export const MAX_WIRE_KOBO = 1_000_000_000_000_000n

export type AmountCheck = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string }

/** Kobo as BankOne's postings and transfers take it: a string of digits. */
export const koboString = (amount: Kobo): AmountCheck =>
  amount <= 0n
    ? { ok: false, reason: "amount must be positive" }
    : amount > MAX_WIRE_KOBO
    ? { ok: false, reason: "amount too large to send" }
    : { ok: true, value: amount.toString() }

/** Kobo as naira with two decimals (liens): 250050n → "2500.50". */
export const nairaString = (amount: Kobo): AmountCheck =>
  amount <= 0n
    ? { ok: false, reason: "amount must be positive" }
    : amount > MAX_WIRE_KOBO
    ? { ok: false, reason: "amount too large to send" }
    : { ok: true, value: `${amount / 100n}.${(amount % 100n).toString().padStart(2, "0")}` }

export type Parsed = { readonly ok: true; readonly kobo: bigint } | { readonly ok: false; readonly reason: string }

const DECIMAL = /^(-?)(\d{1,18})(?:\.(\d{1,8}))?$/

/**
 * A decimal naira amount ("11487166.9420", "-5", "0.5") as kobo; refused when it has a non-zero
 * digit below the kobo, an exponent, or is not a plain decimal.
 */
export const nairaToKobo = (text: string): Parsed => {
  const match = DECIMAL.exec(text.trim())
  if (match === null) return { ok: false, reason: "not a decimal naira amount" }
  const [, sign, whole, fraction = ""] = match
  if (/[1-9]/.test(fraction.slice(2))) return { ok: false, reason: "sub-kobo amount" }
  const kobo = BigInt(whole!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, "0"))
  return { ok: true, kobo: sign === "-" ? -kobo : kobo }
}

/** A kobo amount written as digits ("250000"), or as a JSON integer turned into text by quoteNumbers. */
export const koboFromText = (text: string): Parsed => {
  const match = /^(-?)(\d{1,18})(?:\.(0{1,8}))?$/.exec(text.trim())
  if (match === null) return { ok: false, reason: "not a whole number of kobo" }
  const kobo = BigInt(match[2]!)
  return { ok: true, kobo: match[1] === "-" ? -kobo : kobo }
}

/**
 * The answer's JSON text with the numeric literals of `fields` turned into strings, so that
 * `JSON.parse` keeps their digits: `"LedgerBalance": 11487166.9420` → `"LedgerBalance": "11487166.9420"`.
 * Field names are matched exactly, anywhere in the text (keys are never inside string values of the
 * answers concerned). Strings and nulls are left alone.
 */
export const quoteNumbers = (text: string, fields: ReadonlyArray<string>): string => {
  if (fields.length === 0) return text
  const pattern = new RegExp(`"(${fields.join("|")})"(\\s*):(\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`, "g")
  return text.replace(pattern, (_all, name: string, a: string, b: string, literal: string) => `"${name}"${a}:${b}"${literal}"`)
}

/** Kobo as decimal naira with four places, as BankOne's Account Enquiry writes balances (the sandbox). */
export const koboToNaira4 = (kobo: bigint): string => {
  const sign = kobo < 0n ? "-" : ""
  const abs = kobo < 0n ? -kobo : kobo
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}00`
}
