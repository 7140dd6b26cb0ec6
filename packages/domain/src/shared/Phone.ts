/**
 * Nigerian mobile numbers.
 *
 * Accepted inputs (spaces, dashes and dots are ignored):
 *   0803 123 4567   (national, 11 digits)
 *   +2348031234567  (E.164)
 *   2348031234567   (international without "+")
 *   8031234567      (national significant number, 10 digits)
 *
 * Stored form: E.164, `+234` followed by the 10-digit national significant number.
 * Mobile ranges start 70x, 80x, 81x, 90x or 91x (NCC numbering plan), so the first
 * digit of the significant number is 7, 8 or 9 and the second is 0 or 1.
 */
import { Option, ParseResult, Schema } from "effect"

const mobileNsn = /^[789][01]\d{8}$/

export const normalizeNigerianPhone = (input: string): Option.Option<string> => {
  const compact = input.trim().replace(/[\s\-.()]/g, "")
  let nsn: string
  if (/^\+234\d{10}$/.test(compact)) nsn = compact.slice(4)
  else if (/^234\d{10}$/.test(compact)) nsn = compact.slice(3)
  else if (/^0\d{10}$/.test(compact)) nsn = compact.slice(1)
  else if (/^\d{10}$/.test(compact)) nsn = compact
  else return Option.none()
  return mobileNsn.test(nsn) ? Option.some(`+234${nsn}`) : Option.none()
}

export const PHONE_MESSAGE = "Enter a valid Nigerian mobile number, e.g. 08031234567 or +2348031234567"

/** Decodes any accepted spelling into the stored E.164 form. */
export const NigerianPhone = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (s, _, ast) =>
    Option.match(normalizeNigerianPhone(s), {
      onNone: () => ParseResult.fail(new ParseResult.Type(ast, s, PHONE_MESSAGE)),
      onSome: ParseResult.succeed
    }),
  encode: ParseResult.succeed
}).annotations({ description: "Nigerian mobile number; stored as +234XXXXXXXXXX", examples: ["08031234567"] })
