/**
 * Deletion records in the back office: every account deletion is queued `pending_review` with
 * what was tied to the customer; staff list them (deletions:read) and mark one reviewed
 * (deletions:review) with an optional note, once. Audited.
 */
import { Context, Effect, Option } from "effect"
import type { DeletionRecord } from "../lifecycle/Model.js"
import type { Page, PageRequest } from "../shared/Paging.js"
import { atomically, now } from "../shared/UseCase.js"
import * as Audit from "./Audit.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { Failure } from "../shared/Failure.js"
import type { DeletionId, StaffId } from "../shared/Ids.js"

export type DeletionStatus = DeletionRecord["status"]

export interface DeletionReview {
  readonly record: DeletionRecord
  readonly reviewedBy: StaffId | null
  readonly reviewedAt: Date | null
  readonly reviewNote: string | null
}

export class DeletionDesk extends Context.Tag("domain/DeletionDesk")<DeletionDesk, {
  /** Newest first. */
  readonly list: (status: DeletionStatus, page: PageRequest) => Effect.Effect<Page<DeletionReview>>
  readonly find: (id: DeletionId) => Effect.Effect<Option.Option<DeletionReview>>
  /** pending_review → reviewed; none when it was not pending (already reviewed, or unknown). */
  readonly markReviewed: (id: DeletionId, staffId: StaffId, note: string | null, at: Date) => Effect.Effect<Option.Option<DeletionReview>>
}>() {}

/** No deletion record has this id (404). */
export class DeletionNotFound extends Failure("DeletionNotFound", {
  status: 404,
  code: "DELETION_NOT_FOUND",
  message: "Deletion record not found",
  meaning: "No deletion record has this id"
}) {}
/** The deletion record was reviewed already (409). */
export class DeletionAlreadyReviewed extends Failure("DeletionAlreadyReviewed", {
  status: 409,
  code: "DELETION_ALREADY_REVIEWED",
  message: "This deletion was already reviewed",
  meaning: "The deletion record was reviewed already"
}) {}

/** GET /admin/deletions. */
export const list = (actor: StaffMember, status: DeletionStatus, page: PageRequest) =>
  Effect.zipRight(requirePermission(actor, "deletions:read"), Effect.flatMap(DeletionDesk, (d) => d.list(status, page)))

/** POST /admin/deletions/{id}/review. */
export const review = (actor: StaffMember, id: DeletionId, note: string | null) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "deletions:review")
    const desk = yield* DeletionDesk
    return yield* atomically(
      Effect.gen(function*() {
        const reviewed = yield* desk.markReviewed(id, actor.id, note, yield* now)
        if (Option.isNone(reviewed)) {
          return yield* (Option.isNone(yield* desk.find(id)) ? Effect.fail(new DeletionNotFound()) : Effect.fail(new DeletionAlreadyReviewed()))
        }
        yield* Audit.record({
          actorKind: "staff",
          actorId: actor.id,
          action: "deletion.review",
          targetKind: "customer",
          targetId: reviewed.value.record.customerId,
          before: { status: "pending_review" },
          after: { status: "reviewed", deletionId: id }
        })
        return reviewed.value
      })
    )
  })
