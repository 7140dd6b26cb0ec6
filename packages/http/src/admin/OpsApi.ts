/** The HTTP contract of app settings and staff alerts in the back office. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AlertId, AlertNotFound, Alerts, CustomerId, PermissionDenied, SettingNotFound, TransactionId
} from "@app/domain"
import { Schema } from "effect"
import { errors, NoData, success } from "../shared/Envelope.js"
import { Body, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { pendingApproval } from "./ApprovalsApi.js"
import { nameOf, type Names } from "./Names.js"
import * as AdminEx from "./Examples.js"

const SettingKey = HttpApiSchema.param("key", Schema.String.pipe(Schema.maxLength(100)).annotations({ examples: [AdminEx.setting.key] }))
const AlertIdParam = HttpApiSchema.param("id", UuidOf(AlertId))

export const SettingView = Schema.Struct({
  key: Schema.String,
  description: Schema.String,
  value: Schema.Unknown,
  defaultValue: Schema.Unknown
}).annotations({ examples: [AdminEx.setting] })

export const AlertView = Schema.Struct({
  id: AlertId,
  kind: Alerts.AlertKind,
  severity: Alerts.AlertSeverity,
  dedupKey: Schema.String,
  customerId: Schema.NullOr(CustomerId),
  /** the customer's name (their email while they have none) */
  customerName: Schema.NullOr(Schema.String),
  transactionId: Schema.NullOr(TransactionId),
  message: Schema.String,
  occurrences: Schema.Number,
  firstRaisedAt: Schema.String,
  lastRaisedAt: Schema.String
}).annotations({ examples: [AdminEx.alert] })

export const alertView = (a: Alerts.StaffAlert, names: Names) => ({
  id: a.id,
  kind: a.kind,
  severity: a.severity,
  dedupKey: a.dedupKey,
  customerId: a.customerId,
  customerName: nameOf(names, a.customerId),
  transactionId: a.transactionId,
  message: a.message,
  occurrences: a.occurrences,
  firstRaisedAt: a.firstRaisedAt.toISOString(),
  lastRaisedAt: a.lastRaisedAt.toISOString()
})

export class AdminOpsApi extends HttpApiGroup.make("adminOps")
  .add(
    HttpApiEndpoint.get("listSettings", "/settings")
      .addSuccess(success("Admin", Schema.Array(SettingView)))
  )
  .add(
    HttpApiEndpoint.patch("updateSetting")`/settings/${SettingKey}`
      .setPayload(Body({ value: Schema.Unknown }).annotations({ examples: [{ value: 30 }] }))
      .addSuccess(success("Admin", SettingView, { message: "Setting updated." }))
      .addSuccess(pendingApproval("Change filed for a second member's approval."))
      .addError(errors(SettingNotFound))
  )
  .add(
    HttpApiEndpoint.get("listAlerts", "/alerts")
      .addSuccess(success("Admin", Schema.Array(AlertView)))
  )
  .add(
    HttpApiEndpoint.post("acknowledgeAlert")`/alerts/${AlertIdParam}/acknowledge`
      .addSuccess(success("Admin", NoData, { message: "Alert acknowledged." }))
      .addError(errors(AlertNotFound))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
  .annotate(OpenApi.Title, "Admin settings and alerts")
{}
