/** The HTTP contract of deletion review in the back office. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  CustomerId, DeletionAlreadyReviewed, DeletionId, DeletionNotFound, KoboString, PermissionDenied, PlanId, type StaffAccess
} from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import { pageFields, PageView } from "../shared/Paging.js"
import { Body, msg, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import * as AdminEx from "./Examples.js"

export const DeletionView = Schema.Struct({
  id: DeletionId,
  customerId: CustomerId,
  status: Schema.Literal("pending_review", "reviewed"),
  via: Schema.NullOr(Schema.String),
  counts: Schema.Record({ key: Schema.String, value: Schema.Number }).annotations({
    description: "what was tied to the customer: transactions, beneficiaries, plans, notices, sessions, spendings, tickets"
  }),
  planId: Schema.NullOr(PlanId),
  lastBalanceKobo: Schema.NullOr(KoboString),
  retainUntil: Schema.String,
  createdAt: Schema.String,
  reviewedBy: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Schema.String),
  reviewNote: Schema.NullOr(Schema.String)
}).annotations({ examples: [AdminEx.deletion] })

export const deletionView = ({ record: r, reviewNote, reviewedAt, reviewedBy }: StaffAccess.Deletions.DeletionReview) => ({
  id: r.id,
  customerId: r.customerId,
  status: r.status,
  via: r.via,
  counts: r.counts,
  planId: r.planId,
  lastBalanceKobo: r.lastBalanceKobo,
  retainUntil: r.retainUntil.toISOString(),
  createdAt: r.createdAt.toISOString(),
  reviewedBy,
  reviewedAt: reviewedAt?.toISOString() ?? null,
  reviewNote
})

const Status = Schema.Literal("pending_review", "reviewed").annotations({ ...msg("status must be pending_review or reviewed"), examples: ["pending_review"] })
const DeletionIdParam = HttpApiSchema.param("id", UuidOf(DeletionId))

export class AdminDeletionsApi extends HttpApiGroup.make("adminDeletions")
  .add(
    HttpApiEndpoint.get("list", "/")
      .setUrlParams(Body({ status: Schema.optionalWith(Status, { exact: true, default: () => "pending_review" as const }), ...pageFields }))
      .addSuccess(success("Admin", PageView(DeletionView)))
  )
  .add(
    HttpApiEndpoint.post("review")`/${DeletionIdParam}/review`
      .setPayload(Schema.NullOr(Body({
        note: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(2000, msg("Must be at most 2000 characters"))), { exact: true })
      }).annotations({ examples: [{ note: "Balance was swept to GTBank before deletion; KYC record kept until 2031-11-28." }] })))
      .addSuccess(success("Admin", DeletionView.annotations({ examples: [AdminEx.deletionReviewed] }), { message: "Deletion reviewed." }))
      .addError(errors(DeletionNotFound, DeletionAlreadyReviewed))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin/deletions")
  .annotate(OpenApi.Title, "Admin deletions")
{}
