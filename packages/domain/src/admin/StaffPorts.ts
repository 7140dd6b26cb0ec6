/**
 * Where staff, their links and failed sign-ins are kept, and how staff tokens are made.
 */
import { Context, type Effect, type Option } from "effect"
import type { StaffEmailTaken } from "./StaffErrors.js"
import type { LinkPurpose, StaffLink, StaffMember, StaffRole, StaffStatus } from "./StaffModel.js"
import { StaffId } from "../shared/Ids.js"

export interface StaffPatch {
  readonly firstName?: string
  readonly lastName?: string
  readonly email?: string
  readonly passwordHash?: string
  readonly role?: StaffRole
  readonly status?: StaffStatus
  /** end every session of the member even when nothing else changes (sign-out) */
  readonly revokeTokens?: true
  readonly updatedAt: Date
}

/** A member as the staff list shows them: their last sign-in and their newest unused invite link, if any. */
export interface StaffListing {
  readonly member: StaffMember
  readonly lastSignInAt: Date | null
  /** the newest invite link not yet used (it may have expired) */
  readonly invite: { readonly sentAt: Date; readonly expiresAt: Date } | null
}

export class StaffRepo extends Context.Tag("domain/StaffRepo")<StaffRepo, {
  readonly count: Effect.Effect<number>
  /** Fails with StaffEmailTaken when the email belongs to another member (nothing stored). */
  readonly create: (member: StaffMember) => Effect.Effect<void, StaffEmailTaken>
  readonly findById: (id: string) => Effect.Effect<Option.Option<StaffMember>>
  /** by normalised email */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<StaffMember>>
  /**
   * The member as updated; none when no member has this id. A patch that sets the password, email,
   * role or status, or `revokeTokens`, also moves `tokenVersion` on by one in the same statement:
   * every staff token issued before is refused from then on.
   */
  readonly update: (id: string, patch: StaffPatch) => Effect.Effect<Option.Option<StaffMember>, StaffEmailTaken>
  /** Every member, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<StaffListing>>
  /** Notes a successful sign-in (password or link); it moves no token version. */
  readonly recordSignIn: (id: string, at: Date) => Effect.Effect<void>
  /**
   * The ids of the active superadmins, each row locked until the unit of work ends (run it inside
   * `atomically`): two superadmins demoting or deactivating each other at once are serialised, the
   * second seeing the first's change.
   */
  readonly lockActiveSuperadmins: Effect.Effect<ReadonlyArray<string>>
}>() {}

export class StaffLinkRepo extends Context.Tag("domain/StaffLinkRepo")<StaffLinkRepo, {
  readonly insert: (link: StaffLink) => Effect.Effect<void>
  /** Marks every unused link of the member for this purpose as used: only the newest one works. */
  readonly revokeOpen: (staffId: StaffId, purpose: LinkPurpose, at: Date) => Effect.Effect<void>
  readonly findByTokenHash: (tokenHash: string) => Effect.Effect<Option.Option<StaffLink>>
  /** Spends the link; false when it was already used (a concurrent use won). */
  readonly markUsed: (id: string, at: Date) => Effect.Effect<boolean>
}>() {}

/** Failed staff sign-ins, by throttle key (keys carry no email in clear). */
export class SignInFailures extends Context.Tag("domain/SignInFailures")<SignInFailures, {
  readonly record: (keys: ReadonlyArray<string>, at: Date) => Effect.Effect<void>
  /** How many failures of `key` strictly after `since`, and the oldest of them. */
  readonly since: (key: string, since: Date) => Effect.Effect<{ readonly count: number; readonly oldest: Option.Option<Date> }>
  readonly clear: (key: string) => Effect.Effect<void>
  /** Forgets failures at or before `before`; returns how many. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}>() {}

export interface StaffToken {
  readonly token: string
  readonly expiresAt: Date
}

/**
 * Staff bearer tokens: 8 hours, signed apart from customer tokens so neither is accepted where the
 * other is expected.
 */
export class StaffTokens extends Context.Tag("domain/StaffTokens")<StaffTokens, {
  /** `tokenVersion`: the member's, carried in the token (claim `sv`) */
  readonly issue: (staffId: StaffId, tokenVersion: number) => Effect.Effect<StaffToken>
  readonly verify: (token: string) => Effect.Effect<Option.Option<{ readonly staffId: StaffId; readonly tokenVersion: number }>>
}>() {}
