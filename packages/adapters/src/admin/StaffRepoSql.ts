/** Staff members, their links and failed sign-ins on SQL (migrations 0012, 0017, 0030 and 0042). */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { SignInFailures, StaffEmailTaken, StaffLink, StaffLinkRepo, StaffMember, StaffRepo } from "@app/domain"
import { Effect, Layer, Option, type ParseResult, Schema } from "effect"
import { decodeRows, orDieDb, uniqueViolation } from "../sql/SqlSupport.js"

const STAFF_COLUMNS = "id, email, first_name, last_name, role, status, password_hash, created_at, updated_at, token_version"

export const StaffRepoSql = Layer.effect(
  StaffRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(STAFF_COLUMNS)
    const decode = decodeRows(StaffMember)
    const emailTaken = <A, R>(effect: Effect.Effect<A, SqlError | ParseResult.ParseError, R>): Effect.Effect<A, StaffEmailTaken, R> =>
      Effect.catchAll(effect, (e) =>
        e._tag === "SqlError" && uniqueViolation(e) !== undefined ? Effect.fail(new StaffEmailTaken()) : Effect.die(e))
    const create = SqlSchema.void({ Request: StaffMember, execute: (m) => sql`INSERT INTO staff ${sql.insert(m)}` })
    const findById = SqlSchema.findOne({
      Request: Schema.String,
      Result: StaffMember,
      execute: (id) => sql`SELECT ${columns} FROM staff WHERE id = ${id}`
    })
    const findByEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: StaffMember,
      execute: (email) => sql`SELECT ${columns} FROM staff WHERE lower(email) = ${email.toLowerCase()}`
    })
    return StaffRepo.of({
      count: sql<{ n: string }>`SELECT count(*) AS n FROM staff`.pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)), orDieDb),
      create: (m) => emailTaken(create(m)),
      findById: (id) => orDieDb(findById(id)),
      findByEmail: (email) => orDieDb(findByEmail(email)),
      update: (id, patch) => {
        const { revokeTokens, updatedAt, ...fields } = patch
        // every session ends with a change of what a token stands for (StaffRepo.update)
        const revoke = revokeTokens === true || fields.passwordHash !== undefined || fields.email !== undefined ||
          fields.role !== undefined || fields.status !== undefined
        return sql`
          UPDATE staff SET ${sql.update({ ...fields, updatedAt })}, token_version = token_version + ${revoke ? 1 : 0}
          WHERE id = ${id}
          RETURNING ${columns}`.pipe(
          emailTaken,
          Effect.flatMap((rows) => Effect.orDie(decode(rows))),
          Effect.map((rows) => Option.fromNullable(rows[0]))
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
    const insert = SqlSchema.void({ Request: StaffLink, execute: (l) => sql`INSERT INTO staff_links ${sql.insert(l)}` })
    const findByTokenHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: StaffLink,
      execute: (hash) => sql`SELECT * FROM staff_links WHERE token_hash = ${hash}`
    })
    return StaffLinkRepo.of({
      insert: (l) => orDieDb(insert(l)),
      revokeOpen: (staffId, purpose, at) =>
        sql`UPDATE staff_links SET used_at = ${at} WHERE staff_id = ${staffId} AND purpose = ${purpose} AND used_at IS NULL`.pipe(
          Effect.asVoid,
          orDieDb
        ),
      findByTokenHash: (hash) => orDieDb(findByTokenHash(hash)),
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
