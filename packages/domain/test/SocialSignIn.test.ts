import {describe, expect, it} from "@effect/vitest"
import {Effect, Redacted} from "effect"
import * as Auth from "../src/auth/index.js"
import {ADA, inMemory, registerAda} from "./support/Fixtures.js"
import {Store} from "./support/InMemory.js"
import {staffDirectory, stubIdToken} from "./support/InMemorySocial.js"

const NGOZI = { subject: "google-123", email: "ngozi@example.com", givenName: "Ngozi", familyName: "Eze" }

const withToken = (identity: Parameters<typeof stubIdToken>[0], referralCode?: string) =>
  Auth.socialSignIn({ credential: { idToken: stubIdToken(identity) }, referralCode })

const accountOf = (email: string) =>
  Effect.map(Store.state, (st) => [...st.accounts.values()].find((a) => a.account.email === email))

describe("Auth.socialSignIn", () => {
  it.effect("a new email: a verified customer without a password, linked to the subject; hasPin false", () =>
    inMemory(Effect.gen(function*() {
      const result = yield* withToken({ ...NGOZI, email: "  Ngozi@Example.com " })
      expect(result.hasPin).toBe(false)
      const found = (yield* accountOf("ngozi@example.com"))!
      expect(found.account).toMatchObject({ passwordHash: null, emailVerified: true, firstName: "Ngozi", lastName: "Eze", phone: null })
      expect(found.customer.customerStatus).toBe("verified")
      expect((yield* Store.state).socialLinks.get(NGOZI.subject)).toBe(found.account.id)
    })))

  it.effect("the same subject reaches the same account, even after its email changed at the provider", () =>
    inMemory(Effect.gen(function*() {
      yield* withToken(NGOZI)
      yield* withToken({ ...NGOZI, email: "ngozi.new@example.com" })
      expect((yield* Store.state).accounts.size).toBe(1)
    })))

  it.effect("an unverified email at the provider is IdentityRejected and creates nothing", () =>
    inMemory(Effect.gen(function*() {
      const error = yield* Effect.flip(withToken({ ...NGOZI, emailVerified: false }))
      expect(error).toMatchObject({ _tag: "IdentityRejected", reason: "email_not_verified" })
      expect((yield* Store.state).accounts.size).toBe(0)
    })))

  it.effect("an existing password account is linked, its email verified and its unproven password, phone and sessions gone; another subject for it is SocialIdentityMismatch", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* registerAda()
      expect(ada.customer.customerStatus).toBe("unverified")
      yield* withToken({ subject: "ada-sub", email: ADA.email })
      const found = (yield* Store.account(ada.account.id))
      expect(found.account.emailVerified).toBe(true)
      expect(found.customer.customerStatus).toBe("verified")
      // its email was never verified: what the registrant set up is undone (decisions/social-link-to-unverified-account.md)
      expect(found.account.passwordHash).toBeNull()
      expect(found.account.phone).toBeNull()
      expect(found.account.sessionVersion).toBe(ada.account.sessionVersion + 1)
      expect((yield* Effect.flip(withToken({ subject: "someone-else", email: ADA.email })))._tag).toBe("SocialIdentityMismatch")
    })))

  it.effect("suspended: AccountSuspended; deleted: AccountDeleted, also once its email is freed", () =>
    inMemory(Effect.gen(function*() {
      yield* withToken(NGOZI)
      const { account } = (yield* accountOf(NGOZI.email))!
      yield* Store.setCustomerStatus(account.id, "suspended")
      expect((yield* Effect.flip(withToken(NGOZI)))._tag).toBe("AccountSuspended")
      yield* Store.setCustomerStatus(account.id, "deleted")
      expect((yield* Effect.flip(withToken(NGOZI)))._tag).toBe("AccountDeleted")
      yield* Store.patchAccount(account.id, { email: "freed@invalid" })
      expect((yield* Effect.flip(withToken(NGOZI)))._tag).toBe("AccountDeleted")
      expect((yield* Store.state).accounts.size).toBe(1)
    })))

  it.effect("a referral code applies to a new account only; an unknown one is UnknownReferralCode", () =>
    inMemory(Effect.gen(function*() {
      const ada = yield* registerAda()
      expect((yield* Effect.flip(withToken(NGOZI, "ZZZZZZZZ")))._tag).toBe("UnknownReferralCode")
      yield* withToken(NGOZI, ada.customer.referralCode)
      expect((yield* accountOf(NGOZI.email))!.customer.referredBy).toBe(ada.customer.id)
    })))

  it.effect("a code is exchanged; provider trouble passes through as IdentityProviderUnavailable", () =>
    inMemory(Effect.gen(function*() {
      yield* Auth.socialSignIn({ credential: { code: `code:${stubIdToken(NGOZI)}` } })
      expect(yield* accountOf(NGOZI.email)).toBeDefined()
      expect((yield* Effect.flip(Auth.socialSignIn({ credential: { idToken: "unavailable" } })))._tag).toBe("IdentityProviderUnavailable")
      expect((yield* Effect.flip(Auth.socialSignIn({ credential: { code: "nonsense" } })))._tag).toBe("IdentityRejected")
    })))
})

describe("Auth.socialSignIn and staff", () => {
  it.effect("a staff member's email is StaffSignInRefused: no account is created or linked", () =>
    inMemory(Effect.gen(function*() {
      const refused = yield* Effect.flip(withToken({ subject: "staff-sub", email: "Ops@Example.com" }).pipe(
        Effect.provide(staffDirectory(["ops@example.com"]))
      ))
      expect(refused._tag).toBe("StaffSignInRefused")
      expect((yield* Store.state).accounts.size).toBe(0)
      expect((yield* Store.state).socialLinks.size).toBe(0)
    })))
})

describe("Auth.setPassword", () => {
  it.effect("sets a first password; PasswordAlreadySet once one exists", () =>
    inMemory(Effect.gen(function*() {
      yield* withToken(NGOZI)
      const { account } = (yield* accountOf(NGOZI.email))!
      yield* Auth.setPassword(account.id, Redacted.make("first password"))
      expect((yield* Store.account(account.id)).account.passwordHash).toBe("hash:first password")
      expect((yield* Effect.flip(Auth.setPassword(account.id, Redacted.make("second password"))))._tag).toBe("PasswordAlreadySet")
      yield* Auth.login({ email: NGOZI.email, password: Redacted.make("first password") })
    })))
})
