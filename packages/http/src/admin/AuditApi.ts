/** The HTTP contract of the audit log: browse it with filters, and verify its hash chain. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ActorKind, type AuditEntry, PermissionDenied } from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, CalendarDate, msg } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import { nameOf, type Names } from "./Names.js"
import * as AdminEx from "./Examples.js"

const Text = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100, msg("Must be at most 100 characters")))

const AuditQuery = Body({
  actorId: Schema.optionalWith(Text.annotations({ examples: [AdminEx.auditEntry.actorId] }), { exact: true }),
  action: Schema.optionalWith(Text.annotations({ examples: [AdminEx.auditEntry.action] }), { exact: true }),
  targetKind: Schema.optionalWith(Text.annotations({ examples: [AdminEx.auditEntry.targetKind] }), { exact: true }),
  targetId: Schema.optionalWith(Text.annotations({ examples: [AdminEx.auditEntry.targetId] }), { exact: true }),
  from: Schema.optionalWith(CalendarDate.annotations({ description: "first day (UTC), inclusive" }), { exact: true }),
  to: Schema.optionalWith(CalendarDate.annotations({ description: "last day (UTC), inclusive" }), { exact: true }),
  ...pageFields
}).pipe(Schema.filter((q) => q.from === undefined || q.to === undefined || q.from <= q.to || { path: ["to"], message: "to must be on or after from" }))

export const AuditEntryView = Schema.Struct({
  seq: Schema.Number,
  at: Schema.String,
  actorKind: ActorKind,
  actorId: Schema.String,
  /** the staff member's or customer's name (their email while they have none); null for the system */
  actorName: Schema.NullOr(Schema.String),
  action: Schema.String,
  targetKind: Schema.String,
  targetId: Schema.String,
  /** the name when the target is a customer or a staff member */
  targetName: Schema.NullOr(Schema.String),
  before: Schema.Unknown,
  after: Schema.Unknown,
  prevHash: Schema.String,
  hash: Schema.String
}).annotations({ examples: [AdminEx.auditEntry] })

/** The ids whose names an audit row's view shows. */
export const auditIds = (e: AuditEntry) => [e.actorId, e.targetId]
export const auditEntryView = (e: AuditEntry, names: Names) => ({
  ...e,
  at: e.at.toISOString(),
  actorName: nameOf(names, e.actorId),
  targetName: nameOf(names, e.targetId)
})

const VerifyView = Schema.Struct({
  ok: Schema.Boolean,
  rows: Schema.Number,
  lastHash: Schema.optional(Schema.String),
  brokenAt: Schema.optional(Schema.Number),
  reason: Schema.optional(Schema.String)
}).annotations({ examples: [AdminEx.auditVerified] })

export class AdminAuditApi extends HttpApiGroup.make("adminAudit")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(AuditQuery)
      .addSuccess(success("Admin", PageView(AuditEntryView)))
  )
  .add(
    HttpApiEndpoint.post("verify", "/verify")
      .addSuccess(success("Admin", VerifyView))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/audit")
  .annotate(OpenApi.Title, "Admin audit log")
{}
