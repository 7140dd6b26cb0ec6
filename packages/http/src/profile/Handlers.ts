/**
 * GET/PATCH /users/profile. PATCH changes state on the strength of a cookie, so it refuses
 * cross-site requests (CSRF): an `Origin` header must be one of APP_ORIGINS; without one, a
 * browser's `Sec-Fetch-Site: cross-site` is refused too. Requests with neither (non-browser
 * clients, which must hold the cookie themselves) pass. SameSite=Lax on the cookie is the first
 * line; this is the second.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { Profiles } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { toHttpFailure } from "../shared/Envelope.js"
import { signedIn } from "../shared/Security.js"
import { OriginNotAllowed } from "./Errors.js"

const view = (p: Profiles.UserProfile) => ({ ...p, createdAt: p.createdAt.toISOString() })

/** Whether a state-changing cookie request may come from where it says it comes from. */
export const sameSiteAllowed = (headers: Readonly<Record<string, string | undefined>>, allowedOrigins: ReadonlyArray<string>) => {
  const origin = headers["origin"]
  if (origin !== undefined) return allowedOrigins.includes(origin)
  return headers["sec-fetch-site"] !== "cross-site"
}

const requireAllowedOrigin = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const config = yield* AppConfig
  if (!sameSiteAllowed(request.headers, config.appOrigins)) {
    return yield* toHttpFailure("User")(new OriginNotAllowed())
  }
})

export const ProfileHandlers = HttpApiBuilder.group(Api, "profile", (handlers) =>
  handlers
    .handle("getProfile", () => Effect.flatMap(signedIn, Profiles.getUserProfile).pipe(Effect.map(view), mapDomainErrors("User")))
    .handle("updateProfile", ({ payload }) =>
      Effect.gen(function*() {
        yield* requireAllowedOrigin
        const accountId = yield* signedIn
        return view(yield* Profiles.updateUserProfile(accountId, payload).pipe(mapDomainErrors("User")))
      })))
