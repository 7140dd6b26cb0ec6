/** The HTTP contract of notification settings: PATCH /customers/notifications (shown in GET /customers/me). */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountNotFound, NO_SETTING_MESSAGE } from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import { Body } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"

export const NotificationSettingsView = Schema.Struct({ smsEnabled: Schema.Boolean, emailEnabled: Schema.Boolean })
  .annotations({ examples: [{ smsEnabled: false, emailEnabled: true }] })

const SettingsPatch = Body({
  smsEnabled: Schema.optional(Schema.Boolean),
  emailEnabled: Schema.optional(Schema.Boolean)
}).annotations({ examples: [{ smsEnabled: false, emailEnabled: true }] }).pipe(Schema.filter((p) => p.smsEnabled !== undefined || p.emailEnabled !== undefined || NO_SETTING_MESSAGE))

export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    HttpApiEndpoint.patch("updateNotifications", "/notifications")
      .setPayload(SettingsPatch)
      .addSuccess(success("Customer", NotificationSettingsView, { message: "Notification settings updated." }))
      .addError(errors(AccountNotFound))
  )
  .middleware(Authentication)
  .prefix("/api/v1/customers")
  .annotate(OpenApi.Title, "Notification settings")
{}
