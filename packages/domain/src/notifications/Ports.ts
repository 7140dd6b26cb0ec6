/**
 * Email and SMS delivery, and where notices are kept.
 */
import { Context, type Effect } from "effect"
import type { OtpChannel } from "../auth/Model.js"
import type { Notice } from "./Model.js"

export interface OutboundMessage {
  readonly channel: OtpChannel
  readonly to: string
  readonly subject?: string
  readonly text: string
  /** what the message is about, e.g. email_verification, password_reset */
  readonly kind: string
  /** the one-time code, when the message carries one (never logged) */
  readonly code?: string
}

/** Email and SMS delivery. */
export class Notifier extends Context.Tag("domain/Notifier")<Notifier, {
  readonly send: (message: OutboundMessage) => Effect.Effect<void>
}>() {}

/** Notices raised to customers (plan_depleted, disbursement_failed, …), kept for them and for admins. */
export class NoticeRepo extends Context.Tag("domain/NoticeRepo")<NoticeRepo, {
  readonly record: (notice: Notice) => Effect.Effect<void>
  /** Newest first. */
  readonly listForCustomer: (customerId: string) => Effect.Effect<ReadonlyArray<Notice>>
}>() {}
