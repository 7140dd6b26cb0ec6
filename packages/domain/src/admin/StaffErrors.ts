/**
 * Failures of staff sign-in, links and permissions.
 */
import { Data } from "effect"

/** Wrong email or password, or a member who may not sign in (never says which). */
export class StaffInvalidCredentials extends Data.TaggedError("StaffInvalidCredentials")<{}> {}
/** Too many failed sign-ins for this email from this client, or from this client overall. */
export class StaffSignInThrottled extends Data.TaggedError("StaffSignInThrottled")<{ readonly retryAfterSeconds: number }> {}
/** No valid staff token (missing, expired, a customer's token, or the member is no longer active). */
export class StaffUnauthenticated extends Data.TaggedError("StaffUnauthenticated")<{}> {}
/** The member's role lacks the permission. */
export class PermissionDenied extends Data.TaggedError("PermissionDenied")<{ readonly permission: string }> {}
/** An invite or reset link that is unknown, expired or already used (410). */
export class LinkGone extends Data.TaggedError("LinkGone")<{}> {}
/** No staff member has this id. */
export class StaffNotFound extends Data.TaggedError("StaffNotFound")<{ readonly staffId: string }> {}
/** Another staff member already has this email. */
export class StaffEmailTaken extends Data.TaggedError("StaffEmailTaken")<{}> {}
/**
 * send-link was asked to send a member's link to another email: send-link never changes an email (an
 * admin could otherwise route a pending invite to themselves); a superadmin changes it with
 * PATCH /admin/staff/{id}/email.
 */
export class SendLinkEmailRefused extends Data.TaggedError("SendLinkEmailRefused")<{}> {}
/** A member tried to change their own role or deactivate themselves: another superadmin must (403). */
export class OwnStaffChange extends Data.TaggedError("OwnStaffChange")<{ readonly action: "change_role" | "deactivate" }> {}
