/** SocialIdentityRepo on SQL: `social_identities` (migration 0010), unique on both columns. */
import * as SqlClient from "@effect/sql/SqlClient"
import { AccountId, SocialIdentityRepo } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

export const SocialIdentityRepoSql = Layer.effect(
  SocialIdentityRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SocialIdentityRepo.of({
      findBySubject: (subject) =>
        sql<{ accountId: AccountId }>`SELECT account_id FROM social_identities WHERE subject = ${subject}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.accountId)),
          orDieDb
        ),
      findByAccount: (accountId) =>
        sql<{ subject: string }>`SELECT subject FROM social_identities WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.subject)),
          orDieDb
        ),
      // either unique key taken: nothing inserted, no error (ON CONFLICT without a target covers both)
      link: (accountId, subject, now) =>
        sql`
          INSERT INTO social_identities (subject, account_id, linked_at) VALUES (${subject}, ${accountId}, ${now})
          ON CONFLICT DO NOTHING
          RETURNING subject`.pipe(Effect.map((rows) => rows.length === 1), orDieDb)
    })
  })
)
