/**
 * Notification settings (`smsEnabled`, `emailEnabled`) and what they govern.
 *
 * They govern optional messages only: reports (the spending report), marketing and news such as a
 * referral becoming successful. One-time codes and statements about the customer's money (notices
 * of payouts, failures, a plan that ran dry, account closing) are always sent: a customer must not
 * be able to switch off what protects them or tells them where their money went.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { Customer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { now } from "../shared/UseCase.js"
import { NoSettingGiven } from "./Errors.js"
import { Notifier, type OutboundMessage } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export interface NotificationSettings {
  readonly smsEnabled: boolean
  readonly emailEnabled: boolean
}

/** The kinds of optional message; everything else is essential. */
export const OPTIONAL_KINDS = ["spending_report", "marketing", "referral_success"] as const
export type OptionalKind = typeof OPTIONAL_KINDS[number]

export const isOptional = (kind: string): kind is OptionalKind => (OPTIONAL_KINDS as ReadonlyArray<string>).includes(kind)

/** Whether this customer may receive a message of `kind` on `channel`. */
export const mayReceive = (settings: NotificationSettings, channel: OutboundMessage["channel"], kind: string): boolean =>
  !isOptional(kind) || (channel === "email" ? settings.emailEnabled : settings.smsEnabled)

export const settingsOf = (customer: Customer): NotificationSettings => ({
  smsEnabled: customer.smsEnabled,
  emailEnabled: customer.emailEnabled
})

/** `PATCH /customers/notifications`: either flag or both; NoSettingGiven for neither. */
export const updateNotificationSettings = (
  accountId: AccountId,
  patch: { readonly smsEnabled?: boolean | undefined; readonly emailEnabled?: boolean | undefined }
) =>
  Effect.gen(function*() {
    if (patch.smsEnabled === undefined && patch.emailEnabled === undefined) return yield* new NoSettingGiven()
    yield* requireAccount(accountId)
    yield* (yield* AccountRepo).setNotificationSettings(accountId, patch, yield* now)
    return settingsOf((yield* requireAccount(accountId)).customer)
  }).pipe(withSpan("Notifications.updateSettings"))

/**
 * Sends an optional message to a customer at their email or phone, if their settings allow it on
 * that channel. Skipped without a destination. A delivery problem is logged, never raised.
 */
export const sendOptional = (
  customerId: CustomerId,
  message: Omit<OutboundMessage, "to" | "code" | "kind"> & { readonly kind: OptionalKind }
) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(customerId)
    if (Option.isNone(found)) return false
    const { account, customer } = found.value
    if (customer.customerStatus === "deleted" || !mayReceive(settingsOf(customer), message.channel, message.kind)) return false
    const to = message.channel === "email" ? account.email : account.phone
    if (to === null || to === "") return false
    yield* (yield* Notifier).send({ ...message, to })
    return true
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.as(Effect.logWarning("optional message not sent").pipe(Effect.annotateLogs({ kind: message.kind, cause: String(cause) })), false)
    )
  )
