/**
 * Four-eyes (ADMIN_FOUR_EYES=true, off by default so the spec's behaviour holds): a settings change,
 * an unfreeze or a movement's resolution asked by one staff member is checked (permission, value, status) and filed as a
 * pending approval (202) instead of being applied; a SECOND member holding the same permission
 * approves it (the action then runs under the approver, the audit names both) or rejects it. The
 * one who asked can neither approve nor reject their own request (403). Each request is decided
 * once (409 after): the approval is claimed before the action runs and put back to pending if the
 * action fails (e.g. the customer was unfrozen meanwhile), so two approvers cannot both apply it.
 * An unfreeze request is bound to the freeze open when it was filed: approved after that freeze
 * was lifted and the customer frozen again, it is refused (UnfreezeStale, 409) and closed as
 * rejected, so a stale approval never lifts a later freeze.
 */
import { Context, Effect, Option, Schema } from "effect"
import type { Page, PageRequest } from "../shared/Paging.js"
import { atomically, now } from "../shared/UseCase.js"
import * as AdminSettings from "./AdminSettings.js"
import * as Audit from "./Audit.js"
import * as Freezes from "./Freezes.js"
import * as MovementResolution from "./MovementResolution.js"
import { can, type Permission } from "./Permissions.js"
import { PermissionDenied } from "./StaffErrors.js"
import type { StaffMember } from "./StaffModel.js"
import { withSpan } from "../shared/Spans.js"
import { Failure } from "../shared/Failure.js"
import { ApprovalId, CustomerId, FreezeId, newId, StaffId, TransactionId } from "../shared/Ids.js"

export const ApprovalAction = Schema.Union(
  Schema.TaggedStruct("settings.update", { key: Schema.String, value: Schema.Unknown }),
  Schema.TaggedStruct("customer.unfreeze", {
    customerId: CustomerId,
    /**
     * the freeze this request lifts (null: none was recorded); the approval refuses to lift any
     * other. Requests filed before this field existed read as null.
     */
    freezeId: Schema.optionalWith(Schema.NullOr(FreezeId), { default: () => null })
  }),
  Schema.TaggedStruct("movement.resolve", {
    transactionId: TransactionId,
    outcome: MovementResolution.ResolutionOutcome,
    note: Schema.String
  })
)
export type ApprovalAction = typeof ApprovalAction.Type

export const ApprovalStatus = Schema.Literal("pending", "approved", "rejected")
export type ApprovalStatus = typeof ApprovalStatus.Type

export class Approval extends Schema.Class<Approval>("Approval")({
  id: ApprovalId,
  action: ApprovalAction,
  status: ApprovalStatus,
  requestedBy: StaffId,
  requestedAt: Schema.DateFromSelf,
  decidedBy: Schema.NullOr(StaffId),
  decidedAt: Schema.NullOr(Schema.DateFromSelf),
  note: Schema.NullOr(Schema.String)
}) {}

export class ApprovalRepo extends Context.Tag("domain/ApprovalRepo")<ApprovalRepo, {
  readonly insert: (approval: Approval) => Effect.Effect<void>
  readonly find: (id: ApprovalId) => Effect.Effect<Option.Option<Approval>>
  /** Moves `from` to `to` with who, when and the note; false (nothing changes) when not in `from`. */
  readonly transition: (
    id: ApprovalId,
    from: ApprovalStatus,
    to: ApprovalStatus,
    by: StaffId | null,
    at: Date | null,
    note: string | null
  ) => Effect.Effect<boolean>
  /** Newest first, of the given action kinds, optionally of one status. */
  readonly list: (
    filter: { readonly kinds: ReadonlyArray<ApprovalAction["_tag"]>; readonly status?: ApprovalStatus | undefined },
    page: PageRequest
  ) => Effect.Effect<Page<Approval>>
}>() {}

/** Whether changes wait for a second member (ADMIN_FOUR_EYES). */
export class FourEyes extends Context.Reference<FourEyes>()("domain/FourEyes", { defaultValue: () => ({ enabled: false }) }) {}

/** No approval has this id (404). */
export class ApprovalNotFound extends Failure("ApprovalNotFound", {
  status: 404,
  code: "APPROVAL_NOT_FOUND",
  message: "No approval request has this id",
  meaning: "No four-eyes request has this id (or it is one your role cannot decide)"
}) {}
/** The approval was already approved or rejected (409). */
export class ApprovalDecided extends Failure("ApprovalDecided", {
  status: 409,
  code: "APPROVAL_DECIDED",
  message: "This request was already decided",
  meaning: "The four-eyes request was already approved or rejected (`error.approvalStatus`)"
})<{ readonly status: ApprovalStatus }> {
  override answer() {
    return { ...super.answer(), detail: { approvalStatus: this.status } }
  }
}
/** The member who asked cannot decide their own request (403). */
export class OwnApproval extends Failure("OwnApproval", {
  status: 403,
  code: "OWN_APPROVAL",
  message: "A second member of staff must decide your own request",
  meaning: "Four-eyes: the member who asked cannot approve or reject their own request"
}) {}

const permissionByKind: { readonly [K in ApprovalAction["_tag"]]: Permission } = {
  "settings.update": "settings:write",
  "customer.unfreeze": "customers:unfreeze",
  "movement.resolve": "transactions:resolve"
}
const permissionOf = (action: ApprovalAction): Permission => permissionByKind[action._tag]

const targetOf = (action: ApprovalAction) =>
  action._tag === "settings.update"
    ? { targetKind: "setting", targetId: action.key }
    : action._tag === "movement.resolve"
    ? { targetKind: "transaction", targetId: action.transactionId }
    : { targetKind: "customer", targetId: action.customerId }

const file = (actor: StaffMember, action: ApprovalAction) =>
  Effect.gen(function*() {
    const approval = new Approval({
      id: yield* newId(ApprovalId),
      action,
      status: "pending",
      requestedBy: actor.id,
      requestedAt: yield* now,
      decidedBy: null,
      decidedAt: null,
      note: null
    })
    yield* atomically(Effect.gen(function*() {
      yield* (yield* ApprovalRepo).insert(approval)
      yield* Audit.record({
        actorKind: "staff",
        actorId: actor.id,
        action: "approval.request",
        ...targetOf(action),
        after: { approvalId: approval.id, action: action._tag }
      })
    }))
    return { _tag: "Pending", approval } as const
  })

const run = (actor: StaffMember, action: ApprovalAction, requestedBy: StaffId) =>
  Effect.gen(function*() {
    if (action._tag === "settings.update") return { setting: yield* AdminSettings.update(actor, action.key, action.value) }
    if (action._tag === "movement.resolve") {
      const { note, outcome, transactionId } = action
      return { resolution: yield* MovementResolution.resolve(actor, { transactionId, outcome, note }, requestedBy) }
    }
    return { unfreeze: yield* Freezes.unfreeze(actor, action.customerId, action.freezeId) }
  })

/** PATCH /admin/settings/{key}: applied, or filed for a second member under four-eyes. */
export const updateSetting = (actor: StaffMember, key: string, value: unknown) =>
  Effect.gen(function*() {
    if (!(yield* FourEyes).enabled) return { _tag: "Done", result: yield* AdminSettings.update(actor, key, value) } as const
    const { after } = yield* AdminSettings.checkUpdate(actor, key, value)
    return yield* file(actor, { _tag: "settings.update", key, value: after })
  })

/** POST /admin/customers/{id}/unfreeze: done, or filed for a second member under four-eyes. */
export const unfreezeCustomer = (actor: StaffMember, customerId: CustomerId) =>
  Effect.gen(function*() {
    if (!(yield* FourEyes).enabled) return { _tag: "Done", result: yield* Freezes.unfreeze(actor, customerId) } as const
    yield* Freezes.checkUnfreeze(actor, customerId)
    const open = yield* (yield* Freezes.FreezeRepo).findOpen(customerId)
    return yield* file(actor, { _tag: "customer.unfreeze", customerId, freezeId: Option.getOrNull(Option.map(open, (f) => f.id)) })
  })

/**
 * POST /admin/transactions/{id}/resolve: done, or filed for a second member under four-eyes (the
 * movement must be waiting for an operator when filed, and still be when approved).
 */
export const resolveMovement = (actor: StaffMember, input: MovementResolution.ResolveInput) =>
  Effect.gen(function*() {
    if (!(yield* FourEyes).enabled) return { _tag: "Done", result: yield* MovementResolution.resolve(actor, input) } as const
    yield* MovementResolution.checkResolve(actor, input.transactionId)
    return yield* file(actor, { _tag: "movement.resolve", ...input })
  })

const decidable = (actor: StaffMember, id: ApprovalId) =>
  Effect.gen(function*() {
    const found = yield* (yield* ApprovalRepo).find(id)
    if (Option.isNone(found) || !can(actor.role, permissionOf(found.value.action))) return yield* new ApprovalNotFound()
    const approval = found.value
    if (approval.status !== "pending") return yield* new ApprovalDecided({ status: approval.status })
    if (approval.requestedBy === actor.id) return yield* new OwnApproval()
    return approval
  })

/** POST /admin/approvals/{id}/approve: the action runs under the approver; the approval is then approved. */
export const approve = (actor: StaffMember, id: ApprovalId) =>
  Effect.gen(function*() {
    const approval = yield* decidable(actor, id)
    const repo = yield* ApprovalRepo
    const at = yield* now
    if (!(yield* repo.transition(id, "pending", "approved", actor.id, at, null))) {
      return yield* new ApprovalDecided({ status: "approved" })
    }
    const result = yield* run(actor, approval.action, approval.requestedBy).pipe(
      Effect.tapError((e) =>
        e._tag === "UnfreezeStale"
          // the freeze it was filed for is gone: it can never apply again, so it is closed as rejected
          ? atomically(Effect.gen(function*() {
            yield* repo.transition(id, "approved", "rejected", actor.id, at, "stale: the freeze it was filed for was lifted")
            yield* Audit.record({
              actorKind: "staff",
              actorId: actor.id,
              action: "approval.reject",
              ...targetOf(approval.action),
              after: { approvalId: id, action: approval.action._tag, requestedBy: approval.requestedBy, stale: true }
            })
          }))
          : repo.transition(id, "approved", "pending", null, null, null)
      )
    )
    yield* Audit.record({
      actorKind: "staff",
      actorId: actor.id,
      action: "approval.approve",
      ...targetOf(approval.action),
      after: { approvalId: id, action: approval.action._tag, requestedBy: approval.requestedBy }
    })
    return { approval: new Approval({ ...approval, status: "approved", decidedBy: actor.id, decidedAt: at }), result }
  }).pipe(withSpan("Approvals.approve"))

/** POST /admin/approvals/{id}/reject. */
export const reject = (actor: StaffMember, id: ApprovalId, note: string | null) =>
  Effect.gen(function*() {
    const approval = yield* decidable(actor, id)
    const at = yield* now
    const rejected = yield* atomically(Effect.gen(function*() {
      if (!(yield* (yield* ApprovalRepo).transition(id, "pending", "rejected", actor.id, at, note))) return false
      yield* Audit.record({
        actorKind: "staff",
        actorId: actor.id,
        action: "approval.reject",
        ...targetOf(approval.action),
        after: { approvalId: id, action: approval.action._tag, requestedBy: approval.requestedBy, note }
      })
      return true
    }))
    if (!rejected) return yield* new ApprovalDecided({ status: "approved" })
    return new Approval({ ...approval, status: "rejected", decidedBy: actor.id, decidedAt: at, note })
  })

/** GET /admin/approvals: the requests whose permission the member holds (others are not shown). */
/** The kinds of request a role may decide (and so see). */
export const decidableKinds = (role: StaffMember["role"]): ReadonlyArray<ApprovalAction["_tag"]> =>
  (Object.keys(permissionByKind) as Array<ApprovalAction["_tag"]>).filter((k) => can(role, permissionByKind[k]))

export const list = (actor: StaffMember, status: ApprovalStatus | undefined, page: PageRequest) =>
  Effect.gen(function*() {
    const kinds = decidableKinds(actor.role)
    if (kinds.length === 0) return yield* new PermissionDenied({ permission: "customers:unfreeze" })
    return yield* (yield* ApprovalRepo).list({ kinds, status }, page)
  })
