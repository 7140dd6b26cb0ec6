/**
 * The HTTP contract of the web user profile: GET/PATCH /users/profile (no /api/v1 prefix, as the
 * spec has it), authenticated by the app_token cookie.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountNotFound } from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { OriginNotAllowed } from "./Errors.js"
import { Body, msg, Phone } from "../shared/Schemas.js"
import { CookieAuthentication } from "../shared/Security.js"

export const UserProfileView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  /** +234 form; null when none is set */
  whatsappNumber: Schema.NullOr(Schema.String),
  isAdmin: Schema.Boolean,
  createdAt: Schema.String
}).annotations({
  examples: [{
    id: Ex.ACCOUNT_ID,
    name: "Chiamaka Okafor",
    email: Ex.EMAIL,
    whatsappNumber: Ex.PHONE,
    isAdmin: false,
    createdAt: Ex.CREATED_AT
  }]
})

const DisplayName = Schema.Trim.pipe(
  Schema.minLength(1, msg("Name must not be empty")),
  Schema.maxLength(100, msg("Name must be at most 100 characters"))
)

export class ProfileApi extends HttpApiGroup.make("profile")
  .add(
    HttpApiEndpoint.get("getProfile", "/users/profile")
      .addSuccess(success("User", UserProfileView))
  )
  .add(
    HttpApiEndpoint.patch("updateProfile", "/users/profile")
      .setPayload(Body({ name: Schema.optional(DisplayName), whatsappNumber: Schema.optional(Schema.NullOr(Phone)) }).annotations({
        examples: [{ name: "Chiamaka Okafor", whatsappNumber: Ex.PHONE_SENT }]
      }))
      .addSuccess(success("User", UserProfileView, { message: "Profile updated." }))
      .addError(errors(OriginNotAllowed))
  )
  // every endpoint here reads the signed-in customer's account
  .addError(errors(AccountNotFound))
  .middleware(CookieAuthentication)
  .annotate(OpenApi.Title, "User profile (cookie)")
{}
