/**
 * Failures of staff sign-in, links and permissions.
 */
import { InvalidCredentialsKind, SignInThrottledKind, UnauthenticatedKind } from "../auth/Errors.js"
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

/** Wrong email or password, or a member who may not sign in (never says which). */
export class StaffInvalidCredentials extends Failure("StaffInvalidCredentials", InvalidCredentialsKind) {}
/** Too many failed sign-ins for this email from this client, or from this client overall. */
export class StaffSignInThrottled extends Failure("StaffSignInThrottled", SignInThrottledKind)<{ readonly retryAfterSeconds: number }> {
  override answer() {
    return { ...super.answer(), detail: { retryAfterSeconds: this.retryAfterSeconds } }
  }
}
/** No valid staff token (missing, expired, a customer's token, or the member is no longer active). */
export class StaffUnauthenticated extends Failure("StaffUnauthenticated", UnauthenticatedKind) {}
/** The member's role lacks the permission. */
export class PermissionDenied extends Failure("PermissionDenied", {
  status: 403,
  code: "PERMISSION_DENIED",
  message: "Your role does not allow this",
  meaning: "The staff member's role lacks the permission (`error.permission`)"
})<{ readonly permission: string }> {
  override answer() {
    return { ...super.answer(), detail: { permission: this.permission } }
  }
}
/** An invite or reset link that is unknown, expired or already used (410). */
export class LinkGone extends Failure("LinkGone", {
  status: 410,
  code: "LINK_GONE",
  message: "This link has expired or was already used",
  meaning: "The invite or reset link is unknown, expired or already used; ask for a new one"
}) {}
/** No staff member has this id. */
export class StaffNotFound extends Failure("StaffNotFound", {
  status: 404,
  code: "STAFF_NOT_FOUND",
  message: "Staff member not found",
  meaning: "No staff member has this id (`error.staffId`)"
})<{ readonly staffId: string }> {
  override answer() {
    return { ...super.answer(), detail: { staffId: this.staffId } }
  }
}
/** Another staff member already has this email. */
export class StaffEmailTaken extends Failure("StaffEmailTaken", {
  status: 409,
  code: "STAFF_EMAIL_TAKEN",
  message: "A staff member already has this email",
  meaning: "Another staff member already has this email"
}) {}
/**
 * send-link was asked to send a member's link to another email: send-link never changes an email (an
 * admin could otherwise route a pending invite to themselves); a superadmin changes it with
 * PATCH /admin/staff/{id}/email.
 */
export class SendLinkEmailRefused extends Failure("SendLinkEmailRefused", ValidationKind) {
  override answer() {
    return validation({
      email: ["send-link sends the link to the member's own email and never changes it; a superadmin changes it with PATCH /api/v1/admin/staff/{id}/email"]
    })
  }
}
/** A member tried to change their own role or deactivate themselves: another superadmin must (403). */
export class OwnStaffChange extends Failure("OwnStaffChange", {
  status: 403,
  code: "OWN_STAFF_CHANGE",
  message: "You cannot change your own role or deactivate yourself: another superadmin must",
  meaning: "A staff member tried to change their own role or deactivate themselves (`error.action`); another superadmin must"
})<{ readonly action: "change_role" | "deactivate" }> {
  override answer() {
    return { ...super.answer(), detail: { action: this.action } }
  }
}
