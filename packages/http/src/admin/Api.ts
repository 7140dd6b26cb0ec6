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

/** What setting a member's email can answer (sending a link may set it too). */
const emailChangeFailures = errors(StaffEmailTaken, PermissionDenied, StaffNotFound)
/** What changing another member's role or deactivating them can answer (nobody does either to themselves). */
const standingChangeFailures = errors(PermissionDenied, StaffNotFound, OwnStaffChange, StaffUnauthenticated)

export class AdminAuthApi extends HttpApiGroup.make("adminAuth")
  .add(
    HttpApiEndpoint.post("signIn", "/sign-in")
      .setPayload(Body({ email: Email, password: AnyPassword }).annotations({
        examples: [{ email: Ex.STAFF_EMAIL, password: Redacted.make("Marina-Control-Room-2026") }]
      }))
      .addSuccess(success("Admin", SessionView, { message: "Signed in." }))
      .addError(errors(StaffInvalidCredentials, StaffSignInThrottled))
  )
  .add(
    HttpApiEndpoint.get("openLink")`/links/${LinkToken}`
      .addSuccess(success("Admin", LinkView))
      .addError(errors(LinkGone))
  )
  .add(
    HttpApiEndpoint.post("useLink")`/links/${LinkToken}`
      .setPayload(Body({ password: StaffPassword }).annotations({ examples: [{ password: Redacted.make("Marina-Control-Room-2026") }] }))
      .addSuccess(success("Admin", SessionView, { message: "Password set." }))
      .addError(errors(LinkGone))
  )
  .prefix("/api/v1/admin/auth")
  .annotate(OpenApi.Title, "Admin sign-in")
{}

export class AdminStaffApi extends HttpApiGroup.make("adminStaff")
  .add(
    HttpApiEndpoint.get("me", "/auth/me")
      .addSuccess(success("Admin", MeView))
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
      .addError(emailChangeFailures)
  )
  .add(
    HttpApiEndpoint.post("signOut", "/auth/sign-out")
      .addSuccess(success("Admin", NoData, { message: "Signed out." }))
  )
  .add(
    HttpApiEndpoint.patch("changeEmail")`/staff/${StaffIdParam}/email`
      .setPayload(Body({ email: Email }).annotations({ examples: [{ email: "ngozi.eze@example.com" }] }))
      .addSuccess(success("Admin", StaffView, { message: "Email changed." }))
      .addError(emailChangeFailures)
  )
  .add(
    HttpApiEndpoint.get("listStaff", "/staff")
      .addSuccess(success("Admin", Schema.Struct({ items: Schema.Array(StaffEntryView) }).annotations({ examples: [AdminEx.staffList] })))
      .addError(errors(PermissionDenied))
  )
  .add(
    HttpApiEndpoint.patch("changeRole")`/staff/${StaffIdParam}/role`
      .setPayload(Body({ role: Role }).annotations({ examples: [{ role: "officer" }] }))
      .addSuccess(success("Admin", StaffView, { message: "Role changed." }))
      .addError(standingChangeFailures)
  )
  .add(
    HttpApiEndpoint.post("deactivateStaff")`/staff/${StaffIdParam}/deactivate`
      .addSuccess(success("Admin", StaffView, { message: "Staff member deactivated." }))
      .addError(standingChangeFailures)
  )
  .add(
    HttpApiEndpoint.post("reactivateStaff")`/staff/${StaffIdParam}/reactivate`
      .addSuccess(success("Admin", StaffView, { message: "Staff member reactivated." }))
      .addError(errors(PermissionDenied, StaffNotFound, StaffUnauthenticated))
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
  .annotate(OpenApi.Title, "Admin staff")
{}
