/** What staff access and staff management both do with a member: finding them, the audit row, voiding their links. */
import { Effect, Option } from "effect"
import type { StaffId } from "../shared/Ids.js"
import * as Audit from "./Audit.js"
import { StaffNotFound } from "./StaffErrors.js"
import type { StaffMember } from "./StaffModel.js"
import { StaffLinkRepo } from "./StaffPorts.js"

/** One audit row for a staff member's action on another member (or themselves). */
export const staffAction = (
  actor: StaffMember,
  action: string,
  targetId: string,
  change: { readonly before?: Audit.Json; readonly after?: Audit.Json } = {}
) => Audit.record({ actorKind: "staff", actorId: actor.id, action, targetKind: "staff", targetId, ...change })

/** Voids the member's open invite and reset links (sent to an address, or to a member, no longer good). */
export const voidOpenLinks = (staffId: StaffId, at: Date) =>
  Effect.flatMap(StaffLinkRepo, (links) => Effect.zipRight(links.revokeOpen(staffId, "invite", at), links.revokeOpen(staffId, "reset", at)))

/** The member that `lookup` finds, or StaffNotFound. */
export const orStaffNotFound = <E, R>(staffId: StaffId, lookup: Effect.Effect<Option.Option<StaffMember>, E, R>) =>
  Effect.flatMap(lookup, Option.match({ onNone: () => Effect.fail(new StaffNotFound({ staffId })), onSome: Effect.succeed }))
