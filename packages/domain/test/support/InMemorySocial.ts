/**
 * Social sign-in for domain tests: an in-memory SocialIdentityRepo over the test Store, and a stub
 * IdentityProvider whose tokens are the identities they vouch for, as JSON (`stubIdToken`); a
 * token that is not such JSON is rejected, "unavailable" is a provider that cannot be reached.
 * A `code` is `code:` + a token. Part of `InMemoryLayer`.
 */
import { Effect, Layer, Option, Ref } from "effect"
import { IdentityProviderUnavailable, IdentityRejected } from "../../src/auth/Errors.js"
import { IdentityProvider, type SocialIdentityRepo, type VerifiedIdentity } from "../../src/auth/Ports.js"
import { StaffDirectory } from "../../src/admin/Staff.js"
import type { State } from "./InMemory.js"

export const makeInMemorySocialIdentityRepo = (ref: Ref.Ref<State>): SocialIdentityRepo["Type"] => ({
  findBySubject: (subject) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.socialLinks.get(subject))),
  findByAccount: (accountId) =>
    Effect.map(Ref.get(ref), (st) => Option.fromNullable([...st.socialLinks].find(([, a]) => a === accountId)?.[0])),
  link: (accountId, subject) =>
    Ref.modify(ref, (st): [boolean, State] => {
      if (st.socialLinks.has(subject) || [...st.socialLinks.values()].includes(accountId)) return [false, st]
      const socialLinks = new Map(st.socialLinks)
      socialLinks.set(subject, accountId)
      return [true, { ...st, socialLinks }]
    })
})

/** A token the stub provider accepts, vouching for `identity`. */
export const stubIdToken = (identity: Partial<VerifiedIdentity> & { readonly subject: string; readonly email: string }) =>
  JSON.stringify({ emailVerified: true, givenName: null, familyName: null, ...identity })

const verify = (token: string) =>
  Effect.suspend((): Effect.Effect<VerifiedIdentity, IdentityRejected | IdentityProviderUnavailable> => {
    if (token === "unavailable") return Effect.fail(new IdentityProviderUnavailable())
    try {
      return Effect.succeed(JSON.parse(token) as VerifiedIdentity)
    } catch {
      return Effect.fail(new IdentityRejected({ reason: "invalid_token" }))
    }
  })

export const StubIdentityProviderLive = Layer.succeed(IdentityProvider, {
  verifyIdToken: verify,
  exchangeCode: (code) =>
    code.startsWith("code:") ? verify(code.slice("code:".length)) : Effect.fail(new IdentityRejected({ reason: "invalid_code" }))
})

/** Staff emails of domain tests (none unless a test provides its own StaffDirectory). */
export const staffDirectory = (emails: ReadonlyArray<string>) =>
  Layer.succeed(StaffDirectory, { isStaffEmail: (email) => Effect.succeed(emails.includes(email)) })

export const NoStaffLive = staffDirectory([])
