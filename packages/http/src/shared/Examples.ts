/**
 * The values the OpenAPI document's examples are made of (`examples` annotations on the request
 * and response schemas, each a decoded value that the schema encodes for the document): one
 * customer, one staff member, Nigerian phone numbers, NUBANs and bank codes, kobo amounts, 2026
 * dates. test/OpenApiDocs.test.ts checks that every example decodes against its own schema.
 */
import type { AccountId, CustomerId, PlanId, StaffId, TransactionId } from "@app/domain"
import { Option, Redacted, Schema, SchemaAST } from "effect"

export const ACCOUNT_ID = "5b1e9c3a-2f47-4d8e-a6b1-0c9d8e7f6a52" as AccountId
export const CUSTOMER_ID = "c7a2d4e6-1b3f-4a58-9c0d-e2f4a6b8c0d1" as CustomerId
export const PLAN_ID = "9e4b2c7d-3a1f-4e86-b5c9-0d2e4f6a8b13" as PlanId
export const TRANSACTION_ID = "1a3c5e7f-9b2d-4f60-8e1a-3c5e7f9b2d4f" as TransactionId
export const STAFF_ID = "4d6f8a0c-2e4b-4d7a-9c1e-5f7a9c1e3b5d" as StaffId
export const IDEMPOTENCY_KEY = "0f8e7d6c-5b4a-4392-8a1b-0c9d8e7f6a5b"
export const OTP_PIN_ID = "8d1f4e2a-6b3c-4a90-b5d7-2e9c0f1a3b68"
export const OTP_CODE = "482913"

export const FIRST_NAME = "Chiamaka"
export const LAST_NAME = "Okafor"
export const EMAIL = "chiamaka.okafor@example.com"
/** as sent (any accepted spelling) and as stored and answered (+234) */
export const PHONE_SENT = "08031234567"
export const PHONE = "+2348031234567"
export const ADDRESS = "14 Admiralty Way, Lekki Phase 1, Lagos"
export const DATE_OF_BIRTH = "1994-06-12"
export const REFERRAL_CODE = "K7QM2XPA"
export const PASSWORD = Redacted.make("Lagos-Savings-2026")
export const NEW_PASSWORD = Redacted.make("Ikoyi-Harmattan-2026")

export const STAFF_EMAIL = "tunde.bakare@example.com"

/** a core (wallet) account number at the partner bank, and a withdrawal account at GTBank */
export const CORE_ACCOUNT_NUMBER = "1100452391"
export const ACCOUNT_NUMBER = "0231456789"
export const BANK_CODE = "058"
export const BANK_NAME = "Guaranty Trust Bank"
export const NIP_SESSION_ID = "000013261128093015123456789012"

export const ACCESS_TOKEN =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1YjFlOWMzYSIsImV4cCI6MTc5NDk5MjQwMH0.kq3Vt9rXw2LmE8pZk4YbN7cJd1HfGs6TaUoRi5WeQxA"
export const REFRESH_TOKEN = "q3Vt9rXw2LmE8pZk4YbN7cJd1HfGs6TaUoRi5WeQxAz"

/** ISO instants and days of 2026 */
export const CREATED_AT = "2026-03-14T09:26:41.000Z"
export const UPDATED_AT = "2026-11-28T08:15:02.000Z"
export const TODAY = "2026-11-28"

/** The example a view schema is annotated with (its first), to build a larger example from it. */
export const exampleOf = <A, I, R>(schema: Schema.Schema<A, I, R>): A =>
  Option.getOrThrow(SchemaAST.getExamplesAnnotation(schema.ast))[0] as A
