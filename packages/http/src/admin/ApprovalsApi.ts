/** The HTTP contract of four-eyes approvals (ADMIN_FOUR_EYES=true) in the back office. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AdminCustomerNotFound, AdminTransactionNotFound, ApprovalId, MovementNotAwaitingOperator, PermissionDenied, SettingNotFound,
  StaffAccess, StaffId
} from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, msg, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import * as AdminEx from "./Examples.js"

const { ApprovalAction, ApprovalStatus } = StaffAccess.Approvals

export const ApprovalView = Schema.Struct({
  id: ApprovalId,
  action: ApprovalAction,
  status: ApprovalStatus,
  requestedBy: StaffId,
  requestedAt: Schema.String,
  decidedBy: Schema.NullOr(StaffId),
  decidedAt: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String)
}).annotations({ examples: [AdminEx.approval] })

export const approvalView = (a: StaffAccess.Approvals.Approval) => ({
  id: a.id,
  action: a.action,
  status: a.status,
  requestedBy: a.requestedBy,
  requestedAt: a.requestedAt.toISOString(),
  decidedBy: a.decidedBy,
  decidedAt: a.decidedAt?.toISOString() ?? null,
  note: a.note
})

/** What a change filed under four-eyes answers (202). */
export const PendingApprovalView = Schema.Struct({ pendingApproval: ApprovalView })
  .annotations({ examples: [{ pendingApproval: AdminEx.approval }] })
export const pendingApproval = (message: string) =>
  success("Admin", PendingApprovalView, { status: 202, message })

const ApprovalIdParam = HttpApiSchema.param("id", UuidOf(ApprovalId))

const ApprovalQuery = Body({
  status: Schema.optionalWith(ApprovalStatus.annotations({ ...msg("status must be pending, approved or rejected"), examples: ["pending"] }), { exact: true }),
  ...pageFields
})

export class AdminApprovalsApi extends HttpApiGroup.make("adminApprovals")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(ApprovalQuery)
      .addSuccess(success("Admin", PageView(ApprovalView)))
      .addError(errors(PermissionDenied))
  )
  .add(
    HttpApiEndpoint.post("approve")`/${ApprovalIdParam}/approve`
      .addSuccess(success("Admin", Schema.Struct({ approval: ApprovalView, result: Schema.Unknown }).annotations({ examples: [AdminEx.approved] }), { message: "Approved and applied." }))
      .addError(errors(
        PermissionDenied, AdminTransactionNotFound, MovementNotAwaitingOperator, SettingNotFound,
        AdminCustomerNotFound, StaffAccess.Freezes.UnfreezeStale, StaffAccess.Freezes.CustomerNotSuspended,
        StaffAccess.Freezes.ProviderUnfreezeFailed, StaffAccess.Approvals.ApprovalDecided,
        StaffAccess.Approvals.ApprovalNotFound, StaffAccess.Approvals.OwnApproval
      ))
  )
  .add(
    HttpApiEndpoint.post("reject")`/${ApprovalIdParam}/reject`
      .setPayload(Body({
        note: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1000, msg("Must be at most 1000 characters"))), { exact: true })
      }).annotations({ examples: [{ note: "The customer's identity is not confirmed yet: keep the freeze until KYC review." }] }))
      .addSuccess(success("Admin", ApprovalView.annotations({ examples: [AdminEx.rejected] }), { message: "Rejected." }))
      .addError(errors(
        StaffAccess.Approvals.ApprovalDecided, StaffAccess.Approvals.ApprovalNotFound,
        StaffAccess.Approvals.OwnApproval
      ))
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/approvals")
  .annotate(OpenApi.Title, "Admin four-eyes approvals")
{}
