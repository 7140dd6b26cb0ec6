/**
 * Staff access: the first superadmin, sign-in with throttling, staff tokens, and the emailed invite
 * and reset links.
 *
 * Decisions:
 * - Staff passwords are argon2id like customers', with a stronger minimum: 12 characters.
 * - Sign-in throttling counts failures per (email, client) and per client, over 15 minutes: 5 for
 *   one email from one client, 20 from one client across emails; past either, 429 with Retry-After
 *   until the oldest counted failure leaves the window. An attacker elsewhere therefore cannot lock
 *   the real admin out (their failures count against their own client), and the lock ends by
 *   itself. Unknown emails are throttled, answered and timed exactly like known ones (no
 *   enumeration). A success clears that email's count for that client. Keys are keyed digests,
 *   never an email in clear. Counting and verifying are not one atomic step: requests racing at the
 *   same instant may get a few more tries than the limit (bounded by the concurrency of one client).
 * - Links are 32 random bytes, stored as a keyed digest, single use; invite 72 hours, reset 1 hour;
 *   a new link of a purpose revokes the member's earlier unused ones. An unknown, expired or used
 *   link answers 410 alike.
 * - A staff token lasts 8 hours and is refused at once when the member is no longer active, and
 *   when the member's token version moved on since it was issued: a password set or reset, a change
 *   of email, role or status, and a sign-out each end every session of the member.
 */
import { Duration, Effect, Option, type Redacted } from "effect"
import { normalizeEmail } from "../shared/Email.js"
import { secondsUntil } from "../shared/Throttle.js"
import { PasswordHasher, SecretHasher, SecureRandom } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { Notifier } from "../notifications/Ports.js"
import * as Audit from "./Audit.js"
import { permissionMatrix, requirePermission } from "./Permissions.js"
import { orStaffNotFound, staffAction, voidOpenLinks } from "./StaffAudit.js"
import {
  LinkGone,
  PermissionDenied,
  SendLinkEmailRefused,
  StaffInvalidCredentials,
  StaffNotFound,
  StaffSignInThrottled,
  StaffUnauthenticated
} from "./StaffErrors.js"
import { type LinkPurpose, StaffLink, StaffMember, type StaffRole } from "./StaffModel.js"
import { SignInFailures, StaffLinkRepo, StaffRepo, StaffTokens } from "./StaffPorts.js"
import { withSpan } from "../shared/Spans.js"
import { StaffId, newId } from "../shared/Ids.js"

export const StaffPolicy = {
  passwordMinLength: 12,
  tokenTtl: Duration.hours(8),
  throttleWindow: Duration.minutes(15),
  maxFailuresPerEmailAndClient: 5,
  maxFailuresPerClient: 20,
  linkBytes: 32,
  linkTtl: { invite: Duration.hours(72), reset: Duration.hours(1) } satisfies Record<LinkPurpose, Duration.Duration>
} as const

/** What a staff member looks like to the back office: never a hash. */
export const publicStaff = (m: StaffMember) => ({
  id: m.id,
  email: m.email,
  firstName: m.firstName,
  lastName: m.lastName,
  role: m.role,
  status: m.status,
  createdAt: m.createdAt
})
export type PublicStaff = ReturnType<typeof publicStaff>

const windowStart = (at: Date) => new Date(at.getTime() - Duration.toMillis(StaffPolicy.throttleWindow))

/** The throttle keys of a sign-in: the email from this client, and this client. */
const throttleKeys = (email: string, client: string) =>
  Effect.gen(function*() {
    const hasher = yield* SecretHasher
    return {
      emailAndClient: `ec:${yield* hasher.digest("staff-sign-in", `${email}\u0000${client}`)}`,
      client: `c:${yield* hasher.digest("staff-sign-in", client)}`
    }
  })

const checkThrottle = (keys: { readonly emailAndClient: string; readonly client: string }, at: Date) =>
  Effect.gen(function*() {
    const failures = yield* SignInFailures
    const since = windowStart(at)
    const limits = [
      [keys.emailAndClient, StaffPolicy.maxFailuresPerEmailAndClient],
      [keys.client, StaffPolicy.maxFailuresPerClient]
    ] as const
    for (const [key, limit] of limits) {
      const { count, oldest } = yield* failures.since(key, since)
      if (count >= limit && Option.isSome(oldest)) {
        const until = oldest.value.getTime() + Duration.toMillis(StaffPolicy.throttleWindow)
        return yield* new StaffSignInThrottled({ retryAfterSeconds: yield* secondsUntil(new Date(until)) })
      }
    }
  })

export interface SignedIn {
  readonly token: string
  readonly expiresAt: Date
  readonly admin: PublicStaff
}

const tokenFor = (member: StaffMember) =>
  Effect.map(Effect.flatMap(StaffTokens, (t) => t.issue(member.id, member.tokenVersion)), ({ expiresAt, token }) => ({
    token,
    expiresAt,
    admin: publicStaff(member)
  }) satisfies SignedIn)

/**
 * POST /admin/auth/sign-in. `client` identifies where the request came from (its address) for the
 * throttle.
 */
export const signIn = (input: { readonly email: string; readonly password: Redacted.Redacted<string>; readonly client: string }) =>
  Effect.gen(function*() {
    const email = normalizeEmail(input.email)
    const at = yield* now
    const keys = yield* throttleKeys(email, input.client)
    yield* checkThrottle(keys, at)
    const hasher = yield* PasswordHasher
    const found = yield* (yield* StaffRepo).findByEmail(email)
    const usable = Option.filter(found, (m) => m.status === "active" && m.passwordHash !== null)
    const ok = Option.isSome(usable)
      ? yield* hasher.verify(input.password, usable.value.passwordHash!)
      : yield* Effect.as(hasher.dummyVerify(input.password), false)
    const failures = yield* SignInFailures
    if (!ok || Option.isNone(usable)) {
      yield* failures.record([keys.emailAndClient, keys.client], at)
      return yield* new StaffInvalidCredentials()
    }
    yield* failures.clear(keys.emailAndClient)
    yield* (yield* StaffRepo).recordSignIn(usable.value.id, at)
    yield* staffAction(usable.value, "staff.sign_in", usable.value.id)
    return yield* tokenFor(usable.value)
  }).pipe(withSpan("StaffAccess.signIn"))

/** The member behind a staff token, while they are active; else StaffUnauthenticated. */
export const authenticate = (token: string) =>
  Effect.gen(function*() {
    const claims = yield* (yield* StaffTokens).verify(token)
    if (Option.isNone(claims)) return yield* new StaffUnauthenticated()
    const member = yield* (yield* StaffRepo).findById(claims.value.staffId)
    if (Option.isNone(member) || member.value.status !== "active") return yield* new StaffUnauthenticated()
    // a password set or reset, an email, role or status change, or a sign-out since it was issued
    if (member.value.tokenVersion !== claims.value.tokenVersion) return yield* new StaffUnauthenticated()
    return member.value
  })

/** POST /admin/auth/sign-out: ends every session of the member (every staff token of theirs). */
export const signOut = (member: StaffMember) =>
  Effect.gen(function*() {
    yield* atomically(Effect.zipRight(
      (yield* StaffRepo).update(member.id, { revokeTokens: true, updatedAt: yield* now }),
      staffAction(member, "staff.sign_out", member.id)
    ))
  }).pipe(Effect.catchTag("StaffEmailTaken", () => Effect.dieMessage("a sign-out cannot take an email")))

/** GET /admin/auth/me: the member, their role and its permissions. */
export const me = (member: StaffMember) => ({ ...publicStaff(member), permissions: permissionMatrix[member.role] })

/**
 * At start-up: when no staff member exists, the configured email and password become the first
 * superadmin. Returns whether one was created.
 */
export const bootstrapSuperadmin = (email: string, password: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const repo = yield* StaffRepo
    if ((yield* repo.count) > 0) return false
    const at = yield* now
    const member = new StaffMember({
      id: yield* newId(StaffId),
      email: normalizeEmail(email),
      firstName: null,
      lastName: null,
      role: "superadmin",
      status: "active",
      passwordHash: yield* (yield* PasswordHasher).hash(password),
      createdAt: at,
      updatedAt: at
    })
    // a concurrent start-up may have created it first: the email is then taken, which is fine
    return yield* atomically(
      Effect.zipRight(
        repo.create(member),
        Audit.record({ actorKind: "system", actorId: "bootstrap", action: "staff.bootstrap", targetKind: "staff", targetId: member.id, after: { role: "superadmin" } })
      )
    ).pipe(Effect.as(true), Effect.catchTag("StaffEmailTaken", () => Effect.succeed(false)))
  })

const linkText = (purpose: LinkPurpose, member: StaffMember, token: string) => {
  const hello = member.firstName === null ? "Hello" : `Hello ${member.firstName}`
  const path = `/admin/links/${token}`
  return purpose === "invite"
    ? `${hello},\n\nYou have been invited to the back office as ${member.role}. Open ${path} within 72 hours to choose your password.\n`
    : `${hello},\n\nA password reset was requested for your back office account. Open ${path} within 1 hour to choose a new password. If you did not expect this, tell your administrator.\n`
}

/** Creates a link (revoking earlier ones of the purpose) and emails it to the member. */
export const sendLink = (member: StaffMember, purpose: LinkPurpose) =>
  Effect.gen(function*() {
    const at = yield* now
    const token = yield* (yield* SecureRandom).token(StaffPolicy.linkBytes)
    const links = yield* StaffLinkRepo
    const link = new StaffLink({
      id: yield* newId(StaffId),
      staffId: member.id,
      purpose,
      tokenHash: yield* (yield* SecretHasher).digest("staff-link", token),
      expiresAt: new Date(at.getTime() + Duration.toMillis(StaffPolicy.linkTtl[purpose])),
      usedAt: null,
      createdAt: at
    })
    yield* atomically(Effect.zipRight(links.revokeOpen(member.id, purpose, at), links.insert(link)))
    yield* (yield* Notifier).send({
      channel: "email",
      to: member.email,
      subject: purpose === "invite" ? "Your back office invitation" : "Reset your back office password",
      text: linkText(purpose, member, token),
      kind: purpose === "invite" ? "staff_invite" : "staff_password_reset",
      // the outbox file (development) carries it like a one-time code
      code: token
    })
    return link
  })

/** A link that may still be used, with its member; LinkGone otherwise. */
const usableLink = (token: string) =>
  Effect.gen(function*() {
    const at = yield* now
    const hash = yield* (yield* SecretHasher).digest("staff-link", token)
    const link = yield* (yield* StaffLinkRepo).findByTokenHash(hash)
    if (Option.isNone(link) || link.value.usedAt !== null || link.value.expiresAt.getTime() <= at.getTime()) {
      return yield* new LinkGone()
    }
    const member = yield* (yield* StaffRepo).findById(link.value.staffId)
    if (Option.isNone(member) || member.value.status === "disabled") return yield* new LinkGone()
    return { link: link.value, member: member.value }
  })

/** GET /admin/auth/links/{token}. */
export const openLink = (token: string) =>
  Effect.map(usableLink(token), ({ link, member }) => ({
    purpose: link.purpose,
    email: member.email,
    firstName: member.firstName,
    expiresAt: link.expiresAt
  }))

/** POST /admin/auth/links/{token}: sets the password, spends the link, signs in. */
export const useLink = (token: string, password: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const { link, member } = yield* usableLink(token)
    const passwordHash = yield* (yield* PasswordHasher).hash(password)
    const at = yield* now
    const updated = yield* atomically(
      Effect.gen(function*() {
        if (!(yield* (yield* StaffLinkRepo).markUsed(link.id, at))) return yield* new LinkGone()
        const repo = yield* StaffRepo
        const updated = yield* repo.update(member.id, { passwordHash, status: "active", updatedAt: at })
        yield* repo.recordSignIn(member.id, at)
        yield* staffAction(member, "staff.password_set", member.id, { after: { purpose: link.purpose } })
        return updated
      })
    )
    if (Option.isNone(updated)) return yield* new LinkGone()
    return yield* tokenFor(updated.value)
  }).pipe(Effect.catchTag("StaffEmailTaken", () => Effect.dieMessage("a password change cannot take an email")))

export interface InviteInput {
  readonly email: string
  readonly firstName: string
  readonly lastName: string
  readonly role: StaffRole
}

/** POST /admin/admins (superadmin only): a new member, invited by email. */
export const invite = (actor: StaffMember, input: InviteInput) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:invite")
    const at = yield* now
    const member = new StaffMember({
      id: yield* newId(StaffId),
      email: normalizeEmail(input.email),
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      status: "invited",
      passwordHash: null,
      createdAt: at,
      updatedAt: at
    })
    yield* atomically(
      Effect.zipRight(
        (yield* StaffRepo).create(member),
        staffAction(actor, "staff.invite", member.id, { after: { email: Audit.maskContact(member.email), role: member.role } })
      )
    )
    yield* sendLink(member, "invite")
    return publicStaff(member)
  }).pipe(withSpan("StaffAccess.invite"))

export interface SendLinkInput {
  readonly firstName?: string
  readonly lastName?: string
  readonly email?: string
}

/**
 * POST /admin/officers/{id}/send-link: a member without a password gets their invite again (the
 * body may complete their name); a member with one gets a password reset. Only a superadmin may
 * send links to a superadmin. The link always goes to the email the member has: an `email` in the
 * body must be that one (SendLinkEmailRefused otherwise, nothing sent); changing it is a
 * superadmin's `changeEmail`. Otherwise an admin could rewrite a pending invite's email to their
 * own address, become that member through the link and approve their own four-eyes requests.
 */
export const sendLinkTo = (actor: StaffMember, staffId: StaffId, input: SendLinkInput) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:send_link")
    const repo = yield* StaffRepo
    let member = yield* orStaffNotFound(staffId, repo.findById(staffId))
    if (member.role === "superadmin" && actor.role !== "superadmin") return yield* new PermissionDenied({ permission: "staff:invite" })
    if (member.status === "disabled") return yield* new StaffNotFound({ staffId })
    if (input.email !== undefined && normalizeEmail(input.email) !== member.email) return yield* new SendLinkEmailRefused()
    const purpose: LinkPurpose = member.passwordHash === null ? "invite" : "reset"
    if (purpose === "invite" && (input.firstName !== undefined || input.lastName !== undefined)) {
      member = yield* orStaffNotFound(staffId, repo.update(member.id, {
        ...(input.firstName === undefined ? {} : { firstName: input.firstName }),
        ...(input.lastName === undefined ? {} : { lastName: input.lastName }),
        updatedAt: yield* now
      }))
    }
    yield* sendLink(member, purpose)
    yield* staffAction(actor, "staff.send_link", member.id, { after: { purpose } })
    return { purpose, staff: publicStaff(member) }
  }).pipe(withSpan("StaffAccess.sendLinkTo"))

/**
 * PATCH /admin/staff/{id}/email (superadmin only, staff:change_email): the member's email changes,
 * every open invite and reset link of theirs is voided (it was sent to the old address), and every
 * session of theirs ends (their token version moves on with the email). Audited with the email
 * before and after (masked). No link is sent: send-link sends one to the new address.
 */
export const changeEmail = (actor: StaffMember, staffId: StaffId, email: string) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:change_email")
    const repo = yield* StaffRepo
    const found = yield* orStaffNotFound(staffId, repo.findById(staffId))
    const next = normalizeEmail(email)
    if (next === found.email) return publicStaff(found)
    const at = yield* now
    const updated = yield* atomically(Effect.gen(function*() {
      const updated = yield* orStaffNotFound(staffId, repo.update(staffId, { email: next, updatedAt: at }))
      yield* voidOpenLinks(staffId, at)
      yield* staffAction(actor, "staff.email_changed", staffId, {
        before: { email: Audit.maskContact(found.email) },
        after: { email: Audit.maskContact(next), linksVoided: true, sessionsEnded: true }
      })
      return updated
    }))
    return publicStaff(updated)
  }).pipe(withSpan("StaffAccess.changeEmail"))

/** Housekeeping: forget failed sign-ins older than the throttle window. */
export const purgeSignInFailures = Effect.flatMap(now, (at) => Effect.flatMap(SignInFailures, (f) => f.purgeBefore(windowStart(at))))
