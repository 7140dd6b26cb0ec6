/** Request field schemas shared by the endpoints, with the messages clients see. */
import { EmailAddress, Gender, NigerianPhone } from "@app/domain"
import { Schema } from "effect"

const msg = (message: string) => ({ message: () => message })

export const Email = EmailAddress

export const Phone = NigerianPhone

/** A new password: 8 to 128 characters, kept redacted from here on. */
export const NewPassword = Schema.Redacted(
  Schema.String.pipe(
    Schema.minLength(8, msg("Password must be at least 8 characters")),
    Schema.maxLength(128, msg("Password must be at most 128 characters"))
  )
)

/** A password being checked: any non-empty string (older rules may have allowed other lengths). */
export const AnyPassword = Schema.Redacted(
  Schema.String.pipe(Schema.minLength(1, msg("Password is required")), Schema.maxLength(128, msg("Password is too long")))
)

export const Name = Schema.Trim.pipe(
  Schema.minLength(1, msg("Must not be empty")),
  Schema.maxLength(100, msg("Must be at most 100 characters"))
)

const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

/** YYYY-MM-DD that exists on the calendar (no 2023-02-30). */
export const CalendarDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, msg("Use the format YYYY-MM-DD")),
  Schema.filter(isCalendarDate, msg("Not a real calendar date")),
  Schema.annotations({ examples: ["1990-01-31"] })
)

export const GenderField = Gender.annotations(msg("Gender must be 'male' or 'female'"))

export const Address = Schema.Trim.pipe(
  Schema.minLength(5, msg("Address must be at least 5 characters")),
  Schema.maxLength(300, msg("Address must be at most 300 characters"))
)

export const Uuid = Schema.UUID.annotations(msg("Must be a valid UUID"))

export const OtpCode = Schema.String.pipe(Schema.pattern(/^\d{6}$/, msg("Must be exactly 6 digits")))

export const NonEmpty = Schema.String.pipe(Schema.minLength(1, msg("Must not be empty")), Schema.maxLength(512))
