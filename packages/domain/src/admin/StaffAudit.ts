/** What staff access and staff management both do to a member: the audit row, and voiding their links. */
import { Effect } from "effect"
import type { StaffId } from "../shared/Ids.js"
import * as Audit from "./Audit.js"
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
