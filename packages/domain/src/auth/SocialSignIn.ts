/**
 * Social sign-in: a token (mobile) or an authorization code (web) from the identity provider signs
 * the person in, creating their account the first time.
 *
 * - The provider must vouch for the email (`email_verified`); an account created this way starts
 *   `verified` (its email is proven) and has no password (POST /auth/set-password adds one).
 * - The provider's subject is remembered on first use. The same subject always reaches the same
 *   account, whatever its email is later; an account already linked to another subject is refused
 *   (SocialIdentityMismatch), so a second provider identity claiming the same email cannot take
 *   the account over.
 * - An existing password account with that email is linked on first social sign-in. If its email
 *   was never verified, whoever registered it never proved they own it (it may be an attacker who
 *   pre-claimed the victim's email): the provider proves it now, and nothing the earlier registrant
 *   set up keeps working: password and PIN cleared, phone detached, every session revoked (refresh
 *   tokens, and access tokens through the session version), saved bank accounts removed
 *   (docs/decisions/social-link-to-unverified-account.md). An account whose email was verified is
 *   linked as it is.
 * - A staff member's email is refused (StaffSignInRefused), whether or not a customer has it:
 *   staff sign in to the back office, and a staff identity must not become a customer.
 * - Suspended accounts are refused (AccountSuspended), deleted ones too (AccountDeleted). A deleted
 *   identity is recognised by its subject, whose link is kept after deletion frees the email: it
 *   cannot come back as a new account under the same provider identity.
 * - `referralCode` applies only when the account is created here.
 */
import { Effect, Option } from "effect"
import type { AccountWithCustomer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { resolveReferrer } from "../referrals/Referrals.js"
import { normalizeEmail } from "../shared/Email.js"
import { atomically, now } from "../shared/UseCase.js"
import { BeneficiaryRepo } from "../beneficiaries/Ports.js"
import { ensureUsable } from "../account/Accounts.js"
import { AccountDeleted, IdentityRejected, SocialIdentityMismatch, StaffSignInRefused } from "./Errors.js"
import { StaffDirectory } from "../admin/Staff.js"
import { IdentityProvider, RefreshTokenRepo, SocialIdentityRepo, type VerifiedIdentity } from "./Ports.js"
import { createCustomer } from "./Registration.js"
import { issueTokens } from "./Sessions.js"
import { withSpan } from "../shared/Spans.js"

export type SocialCredential =
  | { readonly idToken: string; readonly code?: undefined }
  | { readonly code: string; readonly idToken?: undefined }

export interface SocialSignInInput {
  readonly credential: SocialCredential
  readonly referralCode?: string | undefined
}

const nameOrNull = (name: string | null) => (name === null || name.trim() === "" ? null : name.trim().slice(0, 100))

/**
 * Undoes what the registrant of an account whose email was never verified set up: the account's own
 * fields (AccountRepo.resetUnprovenSetup), every refresh token, and every saved bank account (an
 * attacker's account saved as the default would receive a closing balance).
 */
const takeOverUnproven = (found: AccountWithCustomer) =>
  Effect.gen(function*() {
    const at = yield* now
    yield* (yield* AccountRepo).resetUnprovenSetup(found.account.id, at)
    yield* (yield* RefreshTokenRepo).revokeAllForAccount(found.account.id, at)
    const beneficiaries = yield* BeneficiaryRepo
    for (const b of yield* beneficiaries.list(found.customer.id)) yield* beneficiaries.remove(found.customer.id, b.id)
  })

/** The account this identity reaches: linked by subject, else by email (then linked), else new. */
const accountFor = (identity: VerifiedIdentity, referralCode: string | undefined) =>
  Effect.gen(function*() {
    const links = yield* SocialIdentityRepo
    const accounts = yield* AccountRepo
    const linked = yield* links.findBySubject(identity.subject)
    if (Option.isSome(linked)) {
      const found = yield* accounts.findById(linked.value)
      if (Option.isNone(found)) return yield* new AccountDeleted()
      return found.value
    }
    const email = normalizeEmail(identity.email)
    const byEmail = yield* accounts.findByEmail(email)
    if (Option.isSome(byEmail)) {
      const found = byEmail.value
      if (found.customer.customerStatus === "deleted") return yield* new AccountDeleted()
      if (Option.isSome(yield* links.findByAccount(found.account.id))) return yield* new SocialIdentityMismatch()
      const at = yield* now
      if (!found.account.emailVerified) {
        // the link and the take-over in one unit: a linked account is never left half taken over
        const linked = yield* atomically(Effect.gen(function*() {
          if (!(yield* links.link(found.account.id, identity.subject, at))) return false
          yield* takeOverUnproven(found)
          return true
        }))
        if (!linked) return yield* new SocialIdentityMismatch()
        yield* Effect.logWarning("social sign-in took over an account whose email was never verified").pipe(
          Effect.annotateLogs({ accountId: found.account.id })
        )
        return Option.getOrThrow(yield* accounts.findById(found.account.id))
      }
      if (!(yield* links.link(found.account.id, identity.subject, at))) return yield* new SocialIdentityMismatch()
      return found
    }
    const referredBy = yield* resolveReferrer(referralCode)
    const created = yield* createCustomer({
      email,
      phone: null,
      passwordHash: null,
      firstName: nameOrNull(identity.givenName),
      lastName: nameOrNull(identity.familyName),
      otherNames: null,
      dateOfBirth: null,
      gender: null,
      address: null,
      emailVerified: true,
      referredBy: Option.getOrNull(referredBy)
    })
    // a concurrent first sign-in of the same subject may have linked another new account: refuse
    // this one's link rather than have two accounts for one identity
    if (!(yield* links.link(created.account.id, identity.subject, yield* now))) return yield* new SocialIdentityMismatch()
    yield* Effect.logInfo("account created by social sign-in").pipe(Effect.annotateLogs({ accountId: created.account.id }))
    return created satisfies AccountWithCustomer
  })

/** `POST /oauth/social-sign-in`: tokens and hasPin, as login answers. */
export const socialSignIn = (input: SocialSignInInput) =>
  Effect.gen(function*() {
    const provider = yield* IdentityProvider
    const identity = input.credential.idToken !== undefined
      ? yield* provider.verifyIdToken(input.credential.idToken)
      : yield* provider.exchangeCode(input.credential.code!)
    if (!identity.emailVerified) return yield* new IdentityRejected({ reason: "email_not_verified" })
    if (yield* (yield* StaffDirectory).isStaffEmail(normalizeEmail(identity.email))) return yield* new StaffSignInRefused()
    // two first sign-ins with one email at once: the loser (EmailTaken from createCustomer) finds the winner's account
    const found = yield* accountFor(identity, input.referralCode).pipe(
      Effect.retry({ times: 1, while: (e) => e._tag === "EmailTaken" }),
      Effect.catchTag("EmailTaken", () => Effect.fail(new SocialIdentityMismatch()))
    )
    yield* ensureUsable(found, () => new AccountDeleted())
    const tokens = yield* issueTokens(found.account.id, found.account.sessionVersion)
    return { ...tokens, hasPin: found.customer.pinHash !== null }
  }).pipe(withSpan("Auth.socialSignIn"))
