/**
 * The throttle store on SQL (`throttles`: migration 0030 as `auth_throttles`, renamed by 0040, which
 * also took in the per-customer attempts of 0033): every claim is one statement, a chain of upserts
 * in which each key is claimed only when the previous one was (data-modifying CTEs), so processes
 * sharing the database count together and concurrent claims of a key serialise on its row.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { type ThrottleClaim, type ThrottleKey, ThrottleStore } from "@app/domain"
import { Duration, Effect, Layer } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

interface ClaimRow {
  readonly [column: string]: unknown
}

const asDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value))

export const ThrottleStoreSql = Layer.effect(
  ThrottleStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The upsert of one key: refused (no row returned) while blocked; counts one try otherwise. */
    const upsert = (k: ThrottleKey, now: Date, after: string | null): Statement.Fragment => {
      const windowMs = Duration.toMillis(k.window)
      const cutoff = new Date(now.getTime() - windowMs)
      const blockUntil = new Date(now.getTime() + windowMs)
      // a window that has passed, or a block that has ended, leaves a fresh count
      const fresh = sql`(t.window_started_at <= ${cutoff}::timestamptz OR t.blocked_until IS NOT NULL)`
      const counted = sql`(CASE WHEN ${fresh} THEN 1 ELSE t.tries + 1 END)`
      return sql`
        INSERT INTO throttles AS t (key, tries, window_started_at, blocked_until)
        SELECT ${k.key}::text, 1, ${now}::timestamptz, ${k.limit <= 1 ? blockUntil : null}::timestamptz
        ${after === null ? sql`` : sql`WHERE EXISTS (SELECT 1 FROM ${sql.literal(after)})`}
        ON CONFLICT (key) DO UPDATE SET
          tries = ${counted},
          window_started_at = CASE WHEN ${fresh} THEN ${now}::timestamptz ELSE t.window_started_at END,
          blocked_until = CASE WHEN ${counted} >= ${k.limit}::int THEN ${blockUntil}::timestamptz ELSE NULL END
        WHERE t.blocked_until IS NULL OR t.blocked_until <= ${now}::timestamptz
        RETURNING t.tries, t.blocked_until`
    }

    return ThrottleStore.of({
      claim: (keys, now) => {
        if (keys.length === 0) return Effect.succeed<ThrottleClaim>({ _tag: "Claimed", tries: [], started: [] })
        let ctes: Statement.Fragment | null = null
        const selects: Array<Statement.Fragment> = []
        keys.forEach((k, i) => {
          const name = `k${i}`
          const cte = sql`${sql.literal(name)} AS (${upsert(k, now, i === 0 ? null : `k${i - 1}`)})`
          ctes = ctes === null ? cte : sql`${ctes}, ${cte}`
          selects.push(sql`
            (SELECT tries FROM ${sql.literal(name)}) AS ${sql.literal(`t${i}`)},
            (SELECT blocked_until FROM ${sql.literal(name)}) AS ${sql.literal(`s${i}`)},
            (SELECT blocked_until FROM throttles WHERE key = ${k.key}) AS ${sql.literal(`b${i}`)}`)
        })
        const columns = selects.reduce((all, s) => sql`${all}, ${s}`)
        return sql<ClaimRow>`WITH ${ctes!} SELECT ${columns}`.pipe(
          Effect.flatMap((rows): Effect.Effect<ThrottleClaim, SqlError> => {
            const row = rows[0] ?? {}
            const tries: Array<number> = []
            const started: Array<Date | null> = []
            for (let i = 0; i < keys.length; i++) {
              const counted = row[`t${i}`]
              if (counted === null || counted === undefined) {
                // refused: the block as this statement's snapshot saw it; a block set by a concurrent
                // claim this one waited for is not in that snapshot: read it again
                const seen = asDate(row[`b${i}`])
                if (seen !== null && seen.getTime() > now.getTime()) return Effect.succeed({ _tag: "Blocked", index: i, until: seen })
                return sql<ClaimRow>`SELECT blocked_until FROM throttles WHERE key = ${keys[i]!.key}`.pipe(
                  Effect.map((again) => ({ _tag: "Blocked" as const, index: i, until: asDate(again[0]?.["blockedUntil"]) ?? new Date(now.getTime() + 1000) }))
                )
              }
              tries.push(Number(counted))
              started.push(asDate(row[`s${i}`]))
            }
            return Effect.succeed({ _tag: "Claimed", tries, started })
          }),
          orDieDb
        )
      },
      refund: (keys, started) => {
        if (keys.length === 0) return Effect.void
        const lifted = keys.flatMap((key, i) => {
          const until = started[i]
          return until === null || until === undefined ? [] : [sql`(key = ${key} AND blocked_until = ${until}::timestamptz)`]
        })
        const lift = lifted.length === 0 ? sql`false` : lifted.reduce((all, c) => sql`${all} OR ${c}`)
        return sql`
          UPDATE throttles SET
            tries = GREATEST(tries - 1, 0),
            blocked_until = CASE WHEN ${lift} THEN NULL ELSE blocked_until END
          WHERE key IN ${sql.in(keys)}`.pipe(Effect.asVoid, orDieDb)
      },
      purgeBefore: (before) =>
        sql`
          DELETE FROM throttles
          WHERE window_started_at <= ${before} AND (blocked_until IS NULL OR blocked_until <= ${before})
          RETURNING 1`.pipe(Effect.map((rows) => rows.length), orDieDb)
    })
  })
)
