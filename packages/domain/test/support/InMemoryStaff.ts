/**
 * In-memory staff ports with the documented semantics: unique emails, single-use links, failed
 * sign-ins by key, and staff tokens `staff.<expiresAtMillis>.<staffId>` valid while Clock < expiry.
 * Provide beside `InMemoryLayer` (which supplies hashing, ids, the notifier and the unit of work).
 */
import { Clock, Context, Duration, Effect, Layer, Option, Ref } from "effect"
import { StaffEmailTaken } from "../../src/admin/StaffErrors.js"
import { StaffLink, StaffMember } from "../../src/admin/StaffModel.js"
import { SignInFailures, StaffLinkRepo, StaffRepo, StaffTokens } from "../../src/admin/StaffPorts.js"
import { StaffPolicy } from "../../src/admin/StaffAccess.js"
import { StaffId } from "../../src/shared/Ids.js"

export interface StaffState {
  readonly members: ReadonlyArray<StaffMember>
  readonly links: ReadonlyArray<StaffLink>
  readonly failures: ReadonlyArray<{ readonly key: string; readonly at: Date }>
  readonly signIns?: Readonly<Record<string, Date>>
}

export class StaffStore extends Context.Tag("test/StaffStore")<StaffStore, Ref.Ref<StaffState>>() {
  static readonly state = Effect.flatMap(StaffStore, Ref.get)
}

const StaffRepoLive = Layer.effect(
  StaffRepo,
  Effect.map(StaffStore, (ref) =>
    StaffRepo.of({
      count: Effect.map(Ref.get(ref), (s) => s.members.length),
      create: (member) =>
        Effect.flatMap(Ref.get(ref), (s) =>
          s.members.some((m) => m.email === member.email)
            ? Effect.fail(new StaffEmailTaken())
            : Ref.set(ref, { ...s, members: [...s.members, member] })),
      findById: (id) => Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.members.find((m) => m.id === id))),
      findByEmail: (email) => Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.members.find((m) => m.email === email))),
      update: (id, patch) =>
        Effect.flatMap(Ref.get(ref), (s) => {
          const found = s.members.find((m) => m.id === id)
          if (found === undefined) return Effect.succeed(Option.none())
          if (patch.email !== undefined && s.members.some((m) => m.id !== id && m.email === patch.email)) {
            return Effect.fail(new StaffEmailTaken())
          }
          const { revokeTokens, ...fields } = patch
          const revoke = revokeTokens === true || fields.passwordHash !== undefined || fields.email !== undefined ||
            fields.role !== undefined || fields.status !== undefined
          const updated = new StaffMember({ ...found, ...fields, tokenVersion: found.tokenVersion + (revoke ? 1 : 0) })
          return Effect.as(Ref.set(ref, { ...s, members: s.members.map((m) => (m.id === id ? updated : m)) }), Option.some(updated))
        }),
      list: Effect.map(Ref.get(ref), (s) =>
        s.members.map((member) => {
          const invite = s.links.filter((l) => l.staffId === member.id && l.purpose === "invite" && l.usedAt === null).at(-1)
          return {
            member,
            lastSignInAt: s.signIns?.[member.id] ?? null,
            invite: invite === undefined ? null : { sentAt: invite.createdAt, expiresAt: invite.expiresAt }
          }
        })),
      recordSignIn: (id, at) => Ref.update(ref, (s) => ({ ...s, signIns: { ...s.signIns, [id]: at } })),
      lockActiveSuperadmins: Effect.map(Ref.get(ref), (s) =>
        s.members.filter((m) => m.role === "superadmin" && m.status === "active").map((m) => m.id))
    }))
)

const StaffLinkRepoLive = Layer.effect(
  StaffLinkRepo,
  Effect.map(StaffStore, (ref) =>
    StaffLinkRepo.of({
      insert: (link) => Ref.update(ref, (s) => ({ ...s, links: [...s.links, link] })),
      revokeOpen: (staffId, purpose, at) =>
        Ref.update(ref, (s) => ({
          ...s,
          links: s.links.map((l) =>
            l.staffId === staffId && l.purpose === purpose && l.usedAt === null ? new StaffLink({ ...l, usedAt: at }) : l
          )
        })),
      findByTokenHash: (hash) => Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.links.find((l) => l.tokenHash === hash))),
      markUsed: (id, at) =>
        Ref.modify(ref, (s): [boolean, StaffState] => {
          const link = s.links.find((l) => l.id === id)
          if (link === undefined || link.usedAt !== null) return [false, s]
          return [true, { ...s, links: s.links.map((l) => (l.id === id ? new StaffLink({ ...l, usedAt: at }) : l)) }]
        })
    }))
)

const SignInFailuresLive = Layer.effect(
  SignInFailures,
  Effect.map(StaffStore, (ref) =>
    SignInFailures.of({
      record: (keys, at) => Ref.update(ref, (s) => ({ ...s, failures: [...s.failures, ...keys.map((key) => ({ key, at }))] })),
      since: (key, since) =>
        Effect.map(Ref.get(ref), (s) => {
          const hits = s.failures.filter((f) => f.key === key && f.at.getTime() > since.getTime())
          const oldest = hits.reduce<Date | undefined>((o, f) => (o === undefined || f.at < o ? f.at : o), undefined)
          return { count: hits.length, oldest: Option.fromNullable(oldest) }
        }),
      clear: (key) => Ref.update(ref, (s) => ({ ...s, failures: s.failures.filter((f) => f.key !== key) })),
      purgeBefore: (before) =>
        Ref.modify(ref, (s): [number, StaffState] => {
          const kept = s.failures.filter((f) => f.at.getTime() > before.getTime())
          return [s.failures.length - kept.length, { ...s, failures: kept }]
        })
    }))
)

const StaffTokensLive = Layer.succeed(StaffTokens, {
  issue: (staffId, tokenVersion) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const expiresAt = now + Duration.toMillis(StaffPolicy.tokenTtl)
      return { token: `staff.${expiresAt}.${tokenVersion}.${staffId}`, expiresAt: new Date(expiresAt) }
    }),
  verify: (token) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const match = /^staff\.(\d+)\.(\d+)\.(.+)$/.exec(token)
      return match !== null && now < Number(match[1]) ? Option.some({ staffId: StaffId.make(match[3]!), tokenVersion: Number(match[2]) }) : Option.none()
    })
})

/** The staff ports over one fresh StaffStore. */
export const InMemoryStaffLive = Layer.mergeAll(StaffRepoLive, StaffLinkRepoLive, SignInFailuresLive, StaffTokensLive).pipe(
  Layer.provideMerge(Layer.effect(StaffStore, Ref.make<StaffState>({ members: [], links: [], failures: [] })))
)
