/**
 * Money is integer kobo (100 kobo = ₦1), held as `bigint` everywhere in the domain. It becomes a
 * decimal string on the wire where the spec says so (amount, amountKobo) and a string in SQL
 * (int8/numeric come back as strings from both database clients).
 */
import { ParseResult, Schema } from "effect"

export type Kobo = bigint

export const KOBO_PER_NAIRA = 100n

/** A non-negative integer number of kobo, from a JSON number (must be a safe integer). */
export const KoboFromNumber = Schema.transformOrFail(Schema.Number, Schema.BigIntFromSelf, {
  strict: true,
  decode: (n, _, ast) =>
    Number.isSafeInteger(n) && n >= 0
      ? ParseResult.succeed(BigInt(n))
      : ParseResult.fail(new ParseResult.Type(ast, n, "Must be a non-negative whole number of kobo")),
  encode: (k, _, ast) =>
    k <= BigInt(Number.MAX_SAFE_INTEGER)
      ? ParseResult.succeed(Number(k))
      : ParseResult.fail(new ParseResult.Type(ast, k, "Amount too large to send as a JSON number"))
})

/** Kobo as a decimal string of an integer (the wire form of amount and amountKobo). */
export const KoboString = Schema.BigInt.annotations({ description: "integer kobo as a decimal string" })

export const formatNaira = (kobo: Kobo): string => {
  const sign = kobo < 0n ? "-" : ""
  const abs = kobo < 0n ? -kobo : kobo
  const naira = (abs / KOBO_PER_NAIRA).toLocaleString("en-NG")
  return `${sign}₦${naira}.${String(abs % KOBO_PER_NAIRA).padStart(2, "0")}`
}
