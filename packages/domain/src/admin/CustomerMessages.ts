/**
 * A customer's message log in the back office, for "I did not get my code" tickets: which emails and
 * SMS were sent to the customer, when, to which (masked) address, and where each stands. Two records
 * hold that: the one-time codes issued to the account (a message with a code is sent at once and never
 * queued) and the notification outbox (every other message). What is shown is the kind, the channel,
 * the masked destination, the status and the times; never a code's value, its hash, or a body.
 */
import type { CustomerId } from "../shared/Ids.js"
import { Context, Effect, Option } from "effect"
import { maskContact } from "../shared/Email.js"
import { AdminCustomerNotFound, CustomerDirectory } from "./Customers.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"

/** Where a code stands: used, replaced by a newer one, run out of checks, expired, or still open. */
export type CodeState = "used" | "replaced" | "locked" | "expired" | "open"

/** One message as the records hold it (the destination unmasked: the use case masks it). */
export interface MessageRecord {
  readonly id: string
  /** one_time_code: a message carrying a code (sent at once); outbox: any other (queued, then sent) */
  readonly source: "one_time_code" | "outbox"
  readonly channel: "email" | "sms"
  /** the code's purpose, or the message's kind (email_verification, password_reset, spending_report…) */
  readonly kind: string
  readonly destination: string
  /** pending: queued, not sent yet; sent: handed to the SMTP relay or SMS gateway; failed: given up */
  readonly status: "pending" | "sent" | "failed"
  /** delivery attempts of a queued message (null for a code's) */
  readonly deliveryAttempts: number | null
  /** why the last attempt failed: a status code or an error class, never the peer's text */
  readonly lastError: string | null
  readonly createdAt: Date
  readonly sentAt: Date | null
  readonly code: null | {
    readonly consumedAt: Date | null
    /** retired when a newer code of the same purpose was issued (not used) */
    readonly replaced: boolean
    readonly expiresAt: Date
    readonly checks: number
    readonly maxChecks: number
  }
}

export class CustomerMessageLog extends Context.Tag("domain/CustomerMessageLog")<CustomerMessageLog, {
  /** The customer's messages, newest first, at most `limit`. */
  readonly forCustomer: (customerId: string, limit: number) => Effect.Effect<ReadonlyArray<MessageRecord>>
}>() {}

export interface MessageLogEntry {
  readonly id: string
  readonly source: MessageRecord["source"]
  readonly channel: MessageRecord["channel"]
  readonly kind: string
  /** masked: a***@example.com, *********0123 */
  readonly destination: string
  readonly status: MessageRecord["status"]
  readonly deliveryAttempts: number | null
  readonly lastError: string | null
  readonly createdAt: Date
  readonly sentAt: Date | null
  /** for a message with a code: where the code stands (never the code) */
  readonly codeState: CodeState | null
  readonly codeExpiresAt: Date | null
}

/** How many messages the log shows (newest first). */
export const MESSAGE_LOG_LIMIT = 100

const codeState = (code: NonNullable<MessageRecord["code"]>, at: Date): CodeState =>
  code.replaced
    ? "replaced"
    : code.consumedAt !== null
    ? "used"
    : code.checks >= code.maxChecks
    ? "locked"
    : code.expiresAt.getTime() <= at.getTime()
    ? "expired"
    : "open"

/** GET /admin/customers/{id}/messages (customers:read). */
export const messages = (actor: StaffMember, customerId: CustomerId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "customers:read")
    if (Option.isNone(yield* (yield* CustomerDirectory).find(customerId))) return yield* new AdminCustomerNotFound()
    const records = yield* (yield* CustomerMessageLog).forCustomer(customerId, MESSAGE_LOG_LIMIT)
    const at = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
    return records.map((r): MessageLogEntry => ({
      id: r.id,
      source: r.source,
      channel: r.channel,
      kind: r.kind,
      destination: maskContact(r.destination),
      status: r.status,
      deliveryAttempts: r.deliveryAttempts,
      lastError: r.lastError,
      createdAt: r.createdAt,
      sentAt: r.sentAt,
      codeState: r.code === null ? null : codeState(r.code, at),
      codeExpiresAt: r.code?.expiresAt ?? null
    }))
  })
