import * as SqlClient from "@effect/sql/SqlClient"
import { OneTimeCode, OtpRepo, RefreshToken, RefreshTokenRepo } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

export const OtpRepoSql = Layer.effect(
  OtpRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(OneTimeCode)
    const one = (query: Effect.Effect<ReadonlyArray<unknown>, any>) =>
      query.pipe(Effect.flatMap(decode), Effect.map(first), orDieDb)

    return OtpRepo.of({
      lockIssuing: (accountId) => sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.pipe(Effect.asVoid, orDieDb),
      issue: (otp) =>
        orDieDb(sql.withTransaction(Effect.gen(function*() {
          // Only the newest code of a purpose is live: older ones are retired, not deleted.
          yield* sql`
            UPDATE one_time_codes SET consumed_at = ${otp.createdAt}
            WHERE account_id = ${otp.accountId} AND purpose = ${otp.purpose} AND consumed_at IS NULL`
          yield* sql`INSERT INTO one_time_codes ${sql.insert({ ...otp, attempts: 0, consumedAt: null })}`
        }))),
      latest: (accountId, purpose) =>
        one(sql`
          SELECT * FROM one_time_codes WHERE account_id = ${accountId} AND purpose = ${purpose}
          ORDER BY created_at DESC LIMIT 1`),
      issuedSince: (accountId, purpose, since) =>
        sql<{ createdAt: Date }>`
          SELECT created_at FROM one_time_codes
          WHERE account_id = ${accountId} AND purpose = ${purpose} AND created_at >= ${since}
          ORDER BY created_at`.pipe(Effect.map((rows) => rows.map((r) => r.createdAt)), orDieDb),
      findById: (id) => one(sql`SELECT * FROM one_time_codes WHERE id = ${id}`),
      claimAttempt: (id, now) =>
        one(sql`
          UPDATE one_time_codes SET attempts = attempts + 1
          WHERE id = ${id} AND consumed_at IS NULL AND expires_at > ${now} AND attempts < max_attempts
          RETURNING *`),
      consume: (id, now) =>
        sql`
          UPDATE one_time_codes SET consumed_at = ${now}
          WHERE id = ${id} AND consumed_at IS NULL AND expires_at > ${now}
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      purgeCreatedBefore: (before) =>
        sql`DELETE FROM one_time_codes WHERE created_at < ${before} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          orDieDb
        )
    })
  })
)

export const RefreshTokenRepoSql = Layer.effect(
  RefreshTokenRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(RefreshToken)
    return RefreshTokenRepo.of({
      insert: (token) =>
        orDieDb(sql`INSERT INTO refresh_tokens ${
          sql.insert({
            id: token.id,
            accountId: token.accountId,
            familyId: token.familyId,
            tokenHash: token.tokenHash,
            expiresAt: token.expiresAt,
            usedAt: token.usedAt,
            revokedAt: token.revokedAt,
            createdAt: token.createdAt
          })
        }`),
      findByHash: (tokenHash) =>
        sql`SELECT * FROM refresh_tokens WHERE token_hash = ${tokenHash}`.pipe(
          Effect.flatMap(decode),
          Effect.map(first),
          orDieDb
        ),
      markUsed: (id, now) =>
        sql`
          UPDATE refresh_tokens SET used_at = ${now}
          WHERE id = ${id} AND used_at IS NULL AND revoked_at IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      revokeFamily: (familyId, now) =>
        orDieDb(sql`UPDATE refresh_tokens SET revoked_at = ${now} WHERE family_id = ${familyId} AND revoked_at IS NULL`),
      revokeAllForAccount: (accountId, now) =>
        orDieDb(
          sql`UPDATE refresh_tokens SET revoked_at = ${now} WHERE account_id = ${accountId} AND revoked_at IS NULL`
        ),
      purgeExpiredBefore: (before) =>
        sql`DELETE FROM refresh_tokens WHERE expires_at < ${before} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          orDieDb
        )
    })
  })
)
