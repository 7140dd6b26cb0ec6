import { ParseResult, Schema } from "effect"

/**
 * Email addresses are trimmed and lower-cased before they are stored or compared, so
 * `Ada@Example.com` and `ada@example.com` are one account. The format check is the
 * pragmatic one (local@domain.tld, no spaces, at most 254 characters); deliverability
 * is proven by the emailed code, not by a regex.
 */
const shape = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export const normalizeEmail = (input: string): string => input.trim().toLowerCase()

export const isEmail = (input: string): boolean => input.length <= 254 && shape.test(input)

export const EMAIL_MESSAGE = "Enter a valid email address"

export const EmailAddress = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (s, _, ast) => {
    const email = normalizeEmail(s)
    return isEmail(email)
      ? ParseResult.succeed(email)
      : ParseResult.fail(new ParseResult.Type(ast, s, EMAIL_MESSAGE))
  },
  encode: ParseResult.succeed
}).annotations({ description: "Email address (case-insensitive)", examples: ["ada@example.com"] })

/**
 * An email or phone shown in a log line or an audit row: the first letter and the domain of an
 * email (a***@example.com), the last 3 digits of a phone; enough to recognise, not the whole value.
 */
export const maskContact = (value: string): string =>
  value.includes("@") ? value.replace(/^(.).*(@.*)$/, "$1***$2") : value.replace(/.(?=.{3})/g, "*")
