/**
 * Account pre-claiming through social sign-in (issue 37, item 1), played by the attacker: they
 * register the victim's email with their own password and phone, sign in, verify their phone,
 * set a transaction PIN and save their own bank account, and never verify the email. When the
 * victim later signs in with the identity provider, nothing the attacker set up may keep working.
 * docs/decisions/social-link-to-unverified-account.md
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { afterAll } from "vitest"
import { api, expectFailure, expectSuccess, login, me, post, register, verifiedAccount } from "./support/Fixtures.js"
import { startIdentityProvider } from "./support/IdentityProvider.js"
import { lastCode, testServer } from "./support/TestServer.js"

const idp = await startIdentityProvider()
afterAll(() => idp.close())

const server = testServer({
  oauth: Option.some({
    jwksUrl: idp.jwksUrl,
    issuer: idp.issuer,
    clientIds: ["android-client"],
    tokenUrl: Option.none(),
    clientSecret: Option.none(),
    redirectUri: Option.none(),
    jwksRefreshCooldownMs: 0
  })
})

const socialSignIn = (email: string) =>
  Effect.flatMap(
    Effect.promise(() => idp.idToken({ sub: `sub-${randomUUID()}`, email, aud: "android-client", given_name: "Ada", family_name: "Obi" })),
    (idToken) => post("/api/v1/oauth/social-sign-in", { idToken })
  )

layer(server, { excludeTestServices: true, timeout: "90 seconds" })("social sign-in to an account whose email was never verified", (it) => {
  it.effect("the earlier registrant's password, sessions, phone, PIN and saved account all stop working", () =>
    Effect.gen(function*() {
      // the attacker pre-claims the victim's email
      const attacker = yield* register("preclaim-victim", { withPhone: true })
      const session = expectSuccess(yield* login({ email: attacker.email, password: attacker.password }))
      expectSuccess(yield* post("/api/v1/auth/otp/phone/send", { accountId: attacker.id }))
      const phoneSession = expectSuccess(
        yield* post("/api/v1/auth/otp/phone/verify", { accountId: attacker.id, pin: lastCode(attacker.phone!.e164, "phone_verification") })
      )
      expectSuccess(yield* post("/api/v1/auth/pin", { pin: "1234" }, session.accessToken))
      const saved = yield* post("/api/v1/beneficiaries", { accountNumber: "0123456789", bankCode: "000013", bankName: "GTBank" }, session.accessToken)
      expect(saved.status).toBe(201)
      expect(expectSuccess(yield* me(session.accessToken), { apiObject: "Customer" })).toMatchObject({ emailVerified: false, phoneVerified: true })

      // the victim signs in with the identity provider
      const victim = expectSuccess(yield* socialSignIn(attacker.email), { message: "Signed in." })
      expect(victim.hasPin).toBe(false)

      // nothing of the attacker's opens the account any more
      expectFailure(yield* login({ email: attacker.email, password: attacker.password }), 401, "Invalid credentials")
      expectFailure(yield* login({ phone: attacker.phone!.national, password: attacker.password }), 401, "Invalid credentials")
      for (const refreshToken of [session.refreshToken, phoneSession.refreshToken]) {
        expectFailure(yield* post("/api/v1/auth/refresh-token", { refreshToken }), 401, /refresh token/)
        expectFailure(yield* post("/api/v1/auth/token", { refreshToken }), 401, /refresh token/)
      }
      for (const accessToken of [session.accessToken, phoneSession.accessToken]) {
        expectFailure(yield* me(accessToken), 401, "Authentication required", "Customer")
        expectFailure(
          yield* post("/api/v1/transactions/transfer", {
            destinationAccountNumber: "0123456789",
            destinationBankCode: "000013",
            destinationBankName: "GTBank",
            destinationAccountName: "SANDBOX ACCOUNT 6789",
            amountKobo: 100_000,
            idempotencyKey: randomUUID()
          }, accessToken),
          401,
          "Authentication required",
          "Transaction"
        )
      }
      // the phone OTP no longer reaches the attacker's phone: it is detached
      expectFailure(yield* post("/api/v1/auth/otp/phone/send", { accountId: attacker.id }), 400, "No phone number on file")

      // the victim's account: verified, no phone, no PIN, no saved account of the attacker's
      const profile = expectSuccess(yield* me(victim.accessToken), { apiObject: "Customer" })
      expect(profile).toMatchObject({ id: attacker.id, emailVerified: true, phone: null, phoneVerified: false, hasPin: false, customerStatus: "verified" })
      const beneficiaries = expectSuccess(yield* api("GET", "/api/v1/beneficiaries", undefined, victim.accessToken), { apiObject: "Beneficiary" })
      expect(beneficiaries).toEqual([])
      // the victim's own session keeps working, and they can choose a password
      expectSuccess(yield* post("/api/v1/auth/set-password", { password: "the-victims-own-password" }, victim.accessToken))
      expectSuccess(yield* login({ email: attacker.email, password: "the-victims-own-password" }))
    }))

  describe("an account whose email was verified", () => {
    it.effect("is linked as it is: its password and sessions keep working", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("preclaim-owner")
        const victim = expectSuccess(yield* socialSignIn(owner.email))
        expect(expectSuccess(yield* me(victim.accessToken), { apiObject: "Customer" }).id).toBe(owner.id)
        expectSuccess(yield* login({ email: owner.email, password: owner.password }))
        expectSuccess(yield* me(owner.accessToken), { apiObject: "Customer" })
        expectSuccess(yield* post("/api/v1/auth/refresh-token", { refreshToken: owner.refreshToken }), { message: "Tokens refreshed." })
      }))
  })
})
void Redacted
