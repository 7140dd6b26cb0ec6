/** Staff members, their links and failed sign-ins on SQL (migrations 0012, 0017, 0030 and 0042). */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { SignInFailures, StaffEmailTaken, StaffLink, StaffLinkRepo, StaffMember, StaffRepo } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb, uniqueViolation } from "../sql/SqlSupport.js"

const STAFF_COLUMNS = "id, email, first_name, last_name, role, status, password_hash, created_at, updated_at, token_version"

export const StaffRepoSql = Layer.effect(
  StaffRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(StaffMember)
    const one = (rows: ReadonlyArray<StaffMember>) => Option.fromNullable(rows[0])
    const emailTaken = <A, R>(effect: Effect.Effect<A, SqlError, R>): Effect.Effect<A, StaffEmailTaken, R> =>
      Effect.catchAll(effect, (e) => (uniqueViolation(e) === undefined ? Effect.die(e) : Effect.fail(new StaffEmailTaken())))
    return StaffRepo.of({
      count: sql<{ n: string }>`SELECT count(*) AS n FROM staff`.pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)), orDieDb),
      create: (m) =>
        sql`INSERT INTO staff ${
          sql.insert({
            id: m.id,
            email: m.email,
            firstName: m.firstName,
            lastName: m.lastName,
            role: m.role,
            status: m.status,
            passwordHash: m.passwordHash,
            createdAt: m.createdAt,
            updatedAt: m.updatedAt
          })
        }`.pipe(Effect.asVoid, emailTaken),
      findById: (id) =>
        sql`SELECT ${sql.literal(STAFF_COLUMNS)} FROM staff WHERE id = ${id}`.pipe(Effect.flatMap(decode), Effect.map(one), orDieDb),
      findByEmail: (email) =>
        sql`SELECT ${sql.literal(STAFF_COLUMNS)} FROM staff WHERE lower(email) = ${email.toLowerCase()}`.pipe(
          Effect.flatMap(decode),
          Effect.map(one),
          orDieDb
        ),
      update: (id, patch) => {
        const { revokeTokens, updatedAt, ...fields } = patch
        // every session ends with a change of what a token stands for (StaffRepo.update)
        const revoke = revokeTokens === true || fields.passwordHash !== undefined || fields.email !== undefined ||
          fields.role !== undefined || fields.status !== undefined
        return sql`
          UPDATE staff SET ${sql.update({ ...fields, updatedAt })}, token_version = token_version + ${revoke ? 1 : 0}
          WHERE id = ${id}
          RETURNING ${sql.literal(STAFF_COLUMNS)}`.pipe(
          emailTaken,
          Effect.flatMap((rows) => Effect.orDie(decode(rows))),
          Effect.map(one)
        )
      },
      list: sql<Record<string, unknown> & { lastSignInAt: Date | null; inviteSentAt: Date | null; inviteExpiresAt: Date | null }>`
        SELECT ${sql.literal(STAFF_COLUMNS.split(", ").map((c) => `s.${c}`).join(", "))}, s.last_sign_in_at,
               i.created_at AS invite_sent_at, i.expires_at AS invite_expires_at
        FROM staff s
        LEFT JOIN LATERAL (
          SELECT created_at, expires_at FROM staff_links
          WHERE staff_id = s.id AND purpose = 'invite' AND used_at IS NULL
          ORDER BY created_at DESC LIMIT 1
        ) i ON true
        ORDER BY s.created_at, s.id`.pipe(
        Effect.flatMap((rows) =>
          Effect.map(decode(rows), (members) =>
            members.map((member, n) => {
              const row = rows[n]!
              return {
                member,
                lastSignInAt: row.lastSignInAt === null ? null : new Date(row.lastSignInAt),
                invite: row.inviteSentAt === null || row.inviteExpiresAt === null
                  ? null
                  : { sentAt: new Date(row.inviteSentAt), expiresAt: new Date(row.inviteExpiresAt) }
              }
            }))
        ),
        orDieDb
      ),
      recordSignIn: (id, at) => sql`UPDATE staff SET last_sign_in_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, orDieDb),
      lockActiveSuperadmins: sql<{ id: string }>`
        SELECT id FROM staff WHERE role = 'superadmin' AND status = 'active' ORDER BY id FOR UPDATE`.pipe(
        Effect.map((rows) => rows.map((r) => r.id)),
        orDieDb
      )
    })
  })
)

export const StaffLinkRepoSql = Layer.effect(
  StaffLinkRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(StaffLink)
    return StaffLinkRepo.of({
      insert: (l) =>
        sql`INSERT INTO staff_links ${
          sql.insert({
            id: l.id,
            staffId: l.staffId,
            purpose: l.purpose,
            tokenHash: l.tokenHash,
            expiresAt: l.expiresAt,
            usedAt: l.usedAt,
            createdAt: l.createdAt
          })
        }`.pipe(Effect.asVoid, orDieDb),
      revokeOpen: (staffId, purpose, at) =>
        sql`UPDATE staff_links SET used_at = ${at} WHERE staff_id = ${staffId} AND purpose = ${purpose} AND used_at IS NULL`.pipe(
          Effect.asVoid,
          orDieDb
        ),
      findByTokenHash: (hash) =>
        sql`SELECT * FROM staff_links WHERE token_hash = ${hash}`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          orDieDb
        ),
      markUsed: (id, at) =>
        sql`UPDATE staff_links SET used_at = ${at} WHERE id = ${id} AND used_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          orDieDb
        )
    })
  })
)

export const SignInFailuresSql = Layer.effect(
  SignInFailures,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SignInFailures.of({
      record: (keys, at) =>
        keys.length === 0
          ? Effect.void
          : sql`INSERT INTO staff_sign_in_failures ${sql.insert(keys.map((key) => ({ key, at })))}`.pipe(Effect.asVoid, orDieDb),
      since: (key, since) =>
        sql<{ n: string; oldest: Date | null }>`
          SELECT count(*) AS n, min(at) AS oldest FROM staff_sign_in_failures WHERE key = ${key} AND at > ${since}`.pipe(
          Effect.map((rows) => ({ count: Number(rows[0]?.n ?? 0), oldest: Option.fromNullable(rows[0]?.oldest ?? null) })),
          orDieDb
        ),
      clear: (key) => sql`DELETE FROM staff_sign_in_failures WHERE key = ${key}`.pipe(Effect.asVoid, orDieDb),
      purgeBefore: (before) =>
        sql`DELETE FROM staff_sign_in_failures WHERE at <= ${before} RETURNING 1`.pipe(Effect.map((rows) => rows.length), orDieDb)
    })
  })
)
