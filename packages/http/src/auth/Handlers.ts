import { HttpApiBuilder } from "@effect/platform"
import { Auth, InvalidRefreshToken } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { withAppTokenCookie } from "../shared/Cookie.js"
import { clientAddress } from "../shared/ClientAddress.js"
import { signedIn } from "../shared/Security.js"
import { accountView } from "./Views.js"

const domain = mapDomainErrors("Auth")

/** The app_token cookie when the answer carries tokens (a verification answers them only the first time). */
const withTokenCookieIfAny = <E, R>(self: Effect.Effect<{ readonly accessToken?: string; readonly refreshToken?: string }, E, R>) =>
  Effect.flatMap(self, (answer) =>
    answer.accessToken === undefined || answer.refreshToken === undefined
      ? Effect.succeed({})
      : withAppTokenCookie(Effect.succeed({ accessToken: answer.accessToken, refreshToken: answer.refreshToken })))

export const AuthHandlers = HttpApiBuilder.group(Api, "auth", (handlers) =>
  handlers
    .handle("register", ({ payload }) => Auth.register(payload).pipe(Effect.map(accountView), domain))
    .handle("sendEmailOtp", ({ payload }) => Auth.sendEmailOtp(payload.accountId).pipe(Effect.as({}), domain))
    .handle("verifyEmailOtp", ({ payload }) => Auth.verifyEmailOtp(payload.accountId, payload.pin).pipe(withTokenCookieIfAny, domain))
    .handle("sendPhoneOtp", ({ payload }) => Auth.sendPhoneOtp(payload.accountId).pipe(Effect.as({}), domain))
    .handle("verifyPhoneOtp", ({ payload }) => Auth.verifyPhoneOtp(payload.accountId, payload.pin).pipe(withTokenCookieIfAny, domain))
    .handle("login", ({ payload }) =>
      Effect.flatMap(clientAddress, (client) =>
        Auth.login(
          payload.email !== undefined
            ? { email: payload.email, password: payload.password, client }
            : { phone: payload.phone!, password: payload.password, client }
        )).pipe(withAppTokenCookie, domain))
    .handle("refreshToken", ({ payload }) => Auth.rotateRefreshToken(payload.refreshToken).pipe(withAppTokenCookie, domain))
    .handle("token", ({ payload }) =>
      (payload.refreshToken === undefined || payload.refreshToken === ""
        ? Effect.fail(new InvalidRefreshToken())
        : Auth.accessTokenFor(payload.refreshToken)).pipe(domain))
    .handle("checkEmail", ({ payload }) => Auth.checkEmailAvailable(payload.email).pipe(Effect.as({}), domain))
    .handle("forgotPassword", ({ payload }) => Auth.forgotPassword(payload.email).pipe(Effect.as({}), domain))
    .handle("resetPassword", ({ payload }) => Auth.resetPassword(payload).pipe(Effect.as({}), domain))
    .handle("requestOtp", () => Effect.flatMap(signedIn, (accountId) => Auth.requestActionOtp(accountId)).pipe(domain))
    .handle("setPin", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Auth.setPin(accountId, payload.pin, payload.currentPin)).pipe(Effect.as({}), domain))
    .handle("verifyPin", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Auth.verifyPin(accountId, payload.pin)).pipe(Effect.as({}), domain))
    .handle("resetPin", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Auth.resetPin(accountId, payload.pin, payload.otpPinId, payload.otpCode)).pipe(
        Effect.as({}),
        domain
      ))
    .handle("setPassword", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Auth.setPassword(accountId, payload.password)).pipe(Effect.as({}), domain))
    .handle("changePassword", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Auth.changePassword({ accountId, ...payload })).pipe(
        Effect.as({}),
        domain
      ))
)

export const OAuthHandlers = HttpApiBuilder.group(Api, "oauth", (handlers) =>
  handlers.handle("socialSignIn", ({ payload }) =>
    Auth.socialSignIn({
      credential: payload.idToken !== undefined ? { idToken: payload.idToken } : { code: payload.code! },
      referralCode: payload.referralCode
    }).pipe(
      Effect.tapErrorTag("SocialSignInNotConfigured", (e) =>
        Effect.logError("social sign-in is not configured").pipe(Effect.annotateLogs({ missing: e.missing }))),
      withAppTokenCookie,
      domain
    )))
