/**
 * Email and SMS delivery, and where notices are kept.
 */
import { Context, type Effect } from "effect"
import type { OtpChannel } from "../auth/Model.js"
import type { Notice } from "./Model.js"
import { CustomerId } from "../shared/Ids.js"

/** A file sent with an email (a report's CSV, say). */
export interface Attachment {
  readonly filename: string
  readonly contentType: string
  readonly content: string
}

export interface OutboundMessage {
  readonly channel: OtpChannel
  readonly to: string
  readonly subject?: string
  readonly text: string
  /** an HTML alternative of `text` (email only) */
  readonly html?: string
  /** files attached to an email */
  readonly attachments?: ReadonlyArray<Attachment>
  /** what the message is about, e.g. email_verification, password_reset */
  readonly kind: string
  /** the one-time code, when the message carries one (never logged) */
  readonly code?: string
  /**
   * A stable identity of this message across delivery attempts (the outbox row's id), which a
   * transport passes on for de-duplication where the peer supports it (an email's Message-ID).
   */
  readonly reference?: string
}

/** Email and SMS delivery. */
export class Notifier extends Context.Tag("domain/Notifier")<Notifier, {
  readonly send: (message: OutboundMessage) => Effect.Effect<void>
}>() {}

/** Notices raised to customers (plan_depleted, disbursement_failed, …), kept for them and for admins. */
export class NoticeRepo extends Context.Tag("domain/NoticeRepo")<NoticeRepo, {
  readonly record: (notice: Notice) => Effect.Effect<void>
  /** Newest first. */
  readonly listForCustomer: (customerId: CustomerId) => Effect.Effect<ReadonlyArray<Notice>>
}>() {}
