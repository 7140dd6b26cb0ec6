/** Names of customers (by customer or account id) and staff by id: one statement for a whole page. */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffAccess } from "@app/domain"
import { Effect, Layer } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"
import { isUuid } from "../support/SupportRepoSql.js"

export const DisplayNamesSql = Layer.effect(
  StaffAccess.Names.DisplayNames,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return StaffAccess.Names.DisplayNames.of({
      of: (ids) => {
        const uuids = ids.filter(isUuid)
        if (uuids.length === 0) return Effect.succeed(new Map())
        const name = sql`COALESCE(NULLIF(trim(concat_ws(' ', first_name, last_name)), ''), email)`
        // a customer is named by its customer id (most rows) or its account id (sign-in, audit of the account)
        return sql<{ id: string; name: string | null }>`
          SELECT c.id::text AS id, ${name} AS name FROM customers c JOIN accounts a ON a.id = c.account_id WHERE ${sql.in("c.id", uuids)}
          UNION ALL
          SELECT id::text AS id, ${name} AS name FROM accounts WHERE ${sql.in("id", uuids)}
          UNION ALL
          SELECT id::text AS id, ${name} AS name FROM staff WHERE ${sql.in("id", uuids)}`.pipe(
          Effect.map((rows) => new Map(rows.flatMap((r) => (r.name === null ? [] : [[r.id, r.name] as const])))),
          orDieDb
        )
      }
    })
  })
)
