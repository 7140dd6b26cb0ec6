/** Request field schemas shared by the endpoints, with the messages clients see. */
import { EmailAddress, Gender, NigerianPhone } from "@app/domain"
import { Redacted, Schema } from "effect"

/** A validation message for a schema or filter. */
export const msg = (message: string) => ({ message: () => message })

/** A request body whose decoding reports every invalid field at once, not just the first. */
export const Body = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({ parseOptions: { errors: "all" } })

/** A positive amount of kobo, at most `max`, decoded to bigint from `from`. */
const positiveKobo = <I>(from: Schema.Schema<bigint, I>, field: string, max: bigint) =>
  // the example sits under the bounds: the document shows what is under a filter without a JSON Schema of its own
  from.annotations({ ...msg(`${field} must be a whole number of kobo`), examples: [2_500_000n] }).pipe(
    Schema.greaterThanBigInt(0n, msg(`${field} must be greater than 0`)),
    Schema.lessThanOrEqualToBigInt(max, msg(`${field} must be at most ${max}`))
  )

/** Kobo in a query string: "5000", plain decimal digits only (BigInt() would also read 0x10, 0b11). */
export const KoboQuery = (field: string, max: bigint) =>
  positiveKobo(
    Schema.compose(
      Schema.String.pipe(Schema.pattern(/^[0-9]{1,16}$/, msg(`${field} must be a whole number of kobo`))),
      Schema.BigInt
    ),
    field,
    max
  )

/** Kobo in a JSON body: an integer number (50.5 or "5000" are refused). */
export const KoboJson = (field: string, max: bigint) => positiveKobo(Schema.BigIntFromNumber, field, max)

export const Email = EmailAddress.annotations({ examples: ["chiamaka.okafor@example.com"] })

/** Any spelling the domain accepts; the answers show the stored +234 form. */
export const Phone = NigerianPhone.annotations({ examples: ["08031234567", "+2348031234567"] })

/** A new password: 8 to 128 characters, kept redacted from here on. */
export const NewPassword = Schema.Redacted(
  Schema.String.pipe(
    Schema.minLength(8, msg("Password must be at least 8 characters")),
    Schema.maxLength(128, msg("Password must be at most 128 characters"))
  )
).annotations({ examples: [Redacted.make("Lagos-Savings-2026")] })

/** A password being checked: any non-empty string (older rules may have allowed other lengths). */
export const AnyPassword = Schema.Redacted(
  Schema.String.pipe(Schema.minLength(1, msg("Password is required")), Schema.maxLength(128, msg("Password is too long")))
).annotations({ examples: [Redacted.make("Lagos-Savings-2026")] })

export const Name = Schema.Trim.pipe(
  Schema.minLength(1, msg("Must not be empty")),
  Schema.maxLength(100, msg("Must be at most 100 characters"))
)

const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

/**
 * YYYY-MM-DD that exists on the calendar (no 2023-02-30). The filter's JSON Schema (format date)
 * keeps its description and examples, and those of a field built on it, in the OpenAPI document.
 */
export const CalendarDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, msg("Use the format YYYY-MM-DD")),
  Schema.filter(isCalendarDate, { ...msg("Not a real calendar date"), jsonSchema: { format: "date" } }),
  Schema.annotations({ examples: ["1994-06-12"] })
)

export const GenderField = Gender.annotations(msg("Gender must be 'male' or 'female'"))

export const Address = Schema.Trim.pipe(
  Schema.minLength(5, msg("Address must be at least 5 characters")),
  Schema.maxLength(300, msg("Address must be at most 300 characters"))
).annotations({ examples: ["14 Admiralty Way, Lekki Phase 1, Lagos"] })

export const Uuid = Schema.UUID.annotations({ ...msg("Must be a valid UUID"), examples: ["3f6c2b1e-8a4d-4c57-9e21-6b0d5a7c9f14"] })

/** A UUID (path, query or body) decoded to one kind of id (`AccountId`, `CustomerId`…, domain `shared/Ids.ts`). */
export const UuidOf = <A extends string>(kind: Schema.Schema<A, string>): Schema.Schema<A, string> =>
  Uuid.pipe(Schema.compose(kind))

/**
 * The id of a one-time code (the `pinId` of POST /auth/otp/request): opaque to clients, so any
 * string is accepted here and an unknown or malformed one is the gate's 401 "Invalid or expired OTP".
 */
export const OtpPinId = Schema.String.annotations({
  description: "The pinId returned by POST /auth/otp/request",
  examples: ["8d1f4e2a-6b3c-4a90-b5d7-2e9c0f1a3b68"]
})

/** An identity token or authorization code: opaque, never echoed back in a validation message. */
export const CredentialField = Schema.String.annotations(msg("Must be a string")).pipe(
  Schema.minLength(1, msg("Must not be empty")),
  Schema.maxLength(8192, msg("Must be at most 8192 characters"))
)

/** A referral code as typed: checked against the customers' codes by the use case (unknown: 400). */
export const ReferralCodeField = Schema.String.pipe(Schema.maxLength(32, msg("Unknown referral code")))

export const OtpCode = Schema.String.pipe(Schema.pattern(/^\d{6}$/, msg("Must be exactly 6 digits")))
  .annotations({ examples: ["482913"] })

export const NonEmpty = Schema.String.pipe(Schema.minLength(1, msg("Must not be empty")), Schema.maxLength(512))

export const AccountNumber = Schema.String.pipe(
  Schema.pattern(/^\d{10}$/, msg("Account number must be exactly 10 digits"))
).annotations({ examples: ["0231456789"] })
export const BankCode = Schema.String.pipe(Schema.pattern(/^\d{3,6}$/, msg("Bank code must be 3 to 6 digits")))
  .annotations({ examples: ["058"] })
