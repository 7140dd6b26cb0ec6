/**
 * The HTTP contract of staff access: sign-in, the emailed invite and reset links (public), the
 * signed-in member with their permissions, inviting staff and sending links (admin bearer).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  LinkGone, OwnStaffChange, PermissionDenied, StaffEmailTaken, StaffId, StaffInvalidCredentials, StaffNotFound,
  StaffRole, StaffSignInThrottled, StaffUnauthenticated
} from "@app/domain"
import { Redacted, Schema } from "effect"
import { errors, NoData, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { AnyPassword, Body, Email, msg, Name, UuidOf } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import * as AdminEx from "./Examples.js"
import { LinkView, MeView, SentLinkView, SessionView, StaffEntryView, StaffView } from "./Views.js"

/** A staff password: 12 to 128 characters (stronger than a customer's 8). */
const StaffPassword = Schema.Redacted(
  Schema.String.pipe(
    Schema.minLength(12, msg("Password must be at least 12 characters")),
    Schema.maxLength(128, msg("Password must be at most 128 characters"))
  )
)

const LinkToken = HttpApiSchema.param("token", Schema.String.pipe(Schema.maxLength(200)).annotations({ examples: [AdminEx.LINK_TOKEN] }))
const StaffIdParam = HttpApiSchema.param("id", UuidOf(StaffId))
const Role = StaffRole.annotations(msg("role must be one of superadmin, admin, support, officer"))

export class AdminAuthApi extends HttpApiGroup.make("adminAuth")
  .add(
    HttpApiEndpoint.post("signIn", "/sign-in")
      .setPayload(Body({ email: Email, password: AnyPassword }).annotations({
        examples: [{ email: Ex.STAFF_EMAIL, password: Redacted.make("Marina-Control-Room-2026") }]
      }))
      .addSuccess(success("Admin", SessionView, { message: "Signed in." }))
      .addError(errors(StaffInvalidCredentials, StaffSignInThrottled))
      .annotate(OpenApi.Summary, "Sign in as staff")
      .annotate(
        OpenApi.Description,
        "A bearer token for the admin endpoints, valid 8 hours (customer tokens are refused there, and this one on " +
          "customer endpoints). 5 failures for one email from one client, or 20 from one client, within 15 minutes: 429 " +
          "with Retry-After until the oldest leaves the window."
      )
  )
  .add(
    HttpApiEndpoint.get("openLink")`/links/${LinkToken}`
      .addSuccess(success("Admin", LinkView))
      .addError(errors(LinkGone))
      .annotate(OpenApi.Summary, "Open an invite or reset link")
      .annotate(OpenApi.Description, "Who an emailed invite or reset link is for. 410 when it is unknown, expired or used.")
  )
  .add(
    HttpApiEndpoint.post("useLink")`/links/${LinkToken}`
      .setPayload(Body({ password: StaffPassword }).annotations({ examples: [{ password: Redacted.make("Marina-Control-Room-2026") }] }))
      .addSuccess(success("Admin", SessionView, { message: "Password set." }))
      .addError(errors(LinkGone))
      .annotate(OpenApi.Summary, "Set the password from a link and sign in")
      .annotate(OpenApi.Description, "Sets the password (12 to 128 characters), spends the link and signs in.")
  )
  .prefix("/api/v1/admin/auth")
  .annotate(OpenApi.Title, "Admin sign-in")
{}

export class AdminStaffApi extends HttpApiGroup.make("adminStaff")
  .add(
    HttpApiEndpoint.get("me", "/auth/me")
      .addSuccess(success("Admin", MeView))
      .annotate(OpenApi.Summary, "Get the signed-in staff member")
      .annotate(OpenApi.Description, "The signed-in staff member, their role and its permissions.")
  )
  .add(
    HttpApiEndpoint.post("invite", "/admins")
      .setPayload(Body({
        email: Email,
        firstName: Name,
        lastName: Name,
        role: Schema.optionalWith(Role, { exact: true, default: () => "admin" as const })
      }).annotations({ examples: [{ email: "ngozi.eze@example.com", firstName: "Ngozi", lastName: "Eze", role: "support" }] }))
      .addSuccess(success("Admin", StaffView, { status: 201, message: "Invitation sent." }))
      .addError(errors(StaffEmailTaken, PermissionDenied))
      .annotate(OpenApi.Summary, "Invite a staff member")
      .annotate(OpenApi.Description, "Superadmin only: a new staff member (role admin unless given) is emailed a link (72 hours) to set a password.")
  )
  .add(
    HttpApiEndpoint.post("sendLink")`/officers/${StaffIdParam}/send-link`
      // the whole body is optional: none for a member whose details are complete
      .setPayload(Schema.NullOr(Body({
        firstName: Schema.optionalWith(Name, { exact: true }),
        lastName: Schema.optionalWith(Name, { exact: true }),
        email: Schema.optionalWith(Email, { exact: true })
      }).annotations({ examples: [{ firstName: "Ngozi", lastName: "Eze", email: "ngozi.eze@example.com" }] })))
      .addSuccess(success("Admin", SentLinkView, { message: "Link sent." }))
      .addError(errors(StaffEmailTaken, PermissionDenied, StaffNotFound))
      .annotate(OpenApi.Summary, "Send an invite or reset link again")
      .annotate(
        OpenApi.Description,
        "A member without a password is emailed their invite again (the body may complete their name); one with " +
          "a password gets a reset link (1 hour). Only a superadmin sends links to a superadmin. The link goes to the " +
          "member's own email: an email in the body must be that one (400 otherwise; PATCH /admin/staff/{id}/email changes it)."
      )
  )
  .add(
    HttpApiEndpoint.post("signOut", "/auth/sign-out")
      .addSuccess(success("Admin", NoData, { message: "Signed out." }))
      .annotate(OpenApi.Summary, "Sign out of every staff session")
      .annotate(OpenApi.Description, "Ends every session of the signed-in member: each of their staff tokens is refused from now on.")
  )
  .add(
    HttpApiEndpoint.patch("changeEmail")`/staff/${StaffIdParam}/email`
      .setPayload(Body({ email: Email }).annotations({ examples: [{ email: "ngozi.eze@example.com" }] }))
      .addSuccess(success("Admin", StaffView, { message: "Email changed." }))
      .addError(errors(StaffEmailTaken, PermissionDenied, StaffNotFound))
      .annotate(OpenApi.Summary, "Change a staff member's email")
      .annotate(
        OpenApi.Description,
        "Superadmin only (staff:change_email): changes a member's email, voids their open invite and reset links and ends " +
          "their sessions; audited with the email before and after. No link is sent: send-link sends one to the new address."
      )
  )
  .add(
    HttpApiEndpoint.get("listStaff", "/staff")
      .addSuccess(success("Admin", Schema.Struct({ items: Schema.Array(StaffEntryView) }).annotations({ examples: [AdminEx.staffList] })))
      .addError(errors(PermissionDenied))
      .annotate(OpenApi.Summary, "List staff members")
      .annotate(
        OpenApi.Description,
        "Superadmin only (staff:read): every staff member, oldest first, with their role, status (invited, active, disabled), " +
          "last sign-in (null when not known) and pending invite (`expired` once its 72 hours are over: send-link sends a new one)."
      )
  )
  .add(
    HttpApiEndpoint.patch("changeRole")`/staff/${StaffIdParam}/role`
      .setPayload(Body({ role: Role }).annotations({ examples: [{ role: "officer" }] }))
      .addSuccess(success("Admin", StaffView, { message: "Role changed." }))
      .addError(errors(PermissionDenied, StaffNotFound, OwnStaffChange, StaffUnauthenticated))
      .annotate(OpenApi.Summary, "Change a staff member's role")
      .annotate(
        OpenApi.Description,
        "Superadmin only (staff:change_role): the member's role changes and every session of theirs ends at once (they sign in " +
          "again with the new role's permissions); audited with the role before and after. Nobody changes their own role " +
          "(403 OWN_STAFF_CHANGE), so an active superadmin always remains (two demoting each other at once: the second is refused " +
          "401, their own token having ended). The same role changes nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("deactivateStaff")`/staff/${StaffIdParam}/deactivate`
      .addSuccess(success("Admin", StaffView, { message: "Staff member deactivated." }))
      .addError(errors(PermissionDenied, StaffNotFound, OwnStaffChange, StaffUnauthenticated))
      .annotate(OpenApi.Summary, "Deactivate a staff member")
      .annotate(
        OpenApi.Description,
        "Superadmin only (staff:deactivate): the member's status becomes disabled: every session of theirs ends at once, their " +
          "open invite and reset links stop working and they cannot sign in; audited with the status before and after. Nobody " +
          "deactivates themselves (403 OWN_STAFF_CHANGE), so an active superadmin always remains. A member already disabled is " +
          "answered as is."
      )
  )
  .add(
    HttpApiEndpoint.post("reactivateStaff")`/staff/${StaffIdParam}/reactivate`
      .addSuccess(success("Admin", StaffView, { message: "Staff member reactivated." }))
      .addError(errors(PermissionDenied, StaffNotFound, StaffUnauthenticated))
      .annotate(OpenApi.Summary, "Reactivate a staff member")
      .annotate(
        OpenApi.Description,
        "Superadmin only (staff:deactivate): a disabled member is active again with their password, or invited when they never " +
          "set one (no link is sent: send-link sends one); audited. A member not disabled is answered as is."
      )
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
  .annotate(OpenApi.Title, "Admin staff")
{}
