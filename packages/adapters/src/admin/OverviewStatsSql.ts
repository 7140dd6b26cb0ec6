/**
 * The dashboard's aggregates (`customers`, `transactions`, `disbursement_plans`): a few GROUP BY
 * queries, days bucketed as UTC dates by the database. Counts are cast to int4 and sums to text so
 * node-postgres and PGlite answer alike (int8 and numeric arrive as strings on one, numbers on the
 * other); the schemas below still accept either.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerStatus, KycStatus, OverviewStats, TransactionPurpose, TransactionStatus } from "@app/domain"
import { Effect, Layer, Schema } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const Count = Schema.Union(Schema.Number, Schema.NumberFromString)
const KoboSum = Schema.Union(Schema.BigInt, Schema.BigIntFromNumber)

const CountRow = <K extends string>(key: Schema.Schema<K>) => Schema.Struct({ key, count: Count })
const DayCountRow = Schema.Struct({ date: Schema.String, count: Count })
const MovementRow = Schema.Struct({
  date: Schema.String,
  purpose: TransactionPurpose,
  status: TransactionStatus,
  count: Count,
  amountKobo: KoboSum,
  feeKobo: KoboSum
})
const PendingRow = Schema.Struct({ count: Count, amountKobo: KoboSum })
const PlansRow = Schema.Struct({ count: Count })

export const OverviewStatsSql = Layer.effect(
  OverviewStats,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const utcDay = sql`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
    return OverviewStats.of({
      customersByStatus: sql`SELECT customer_status AS key, count(*)::int AS count FROM customers GROUP BY customer_status`.pipe(
        Effect.flatMap(decodeRows(CountRow(CustomerStatus))),
        orDieDb
      ),
      customersByKyc: sql`SELECT kyc_status AS key, count(*)::int AS count FROM customers GROUP BY kyc_status`.pipe(
        Effect.flatMap(decodeRows(CountRow(KycStatus))),
        orDieDb
      ),
      signUps: ({ from, until }) =>
        sql`
          SELECT ${utcDay} AS date, count(*)::int AS count FROM customers
          WHERE created_at >= ${from} AND created_at < ${until}
          GROUP BY 1`.pipe(Effect.flatMap(decodeRows(DayCountRow)), orDieDb),
      movements: ({ from, until }) =>
        sql`
          SELECT ${utcDay} AS date, purpose, status, count(*)::int AS count,
            sum(amount_kobo)::text AS amount_kobo, sum(fee_kobo)::text AS fee_kobo
          FROM transactions
          WHERE created_at >= ${from} AND created_at < ${until}
          GROUP BY 1, purpose, status`.pipe(Effect.flatMap(decodeRows(MovementRow)), orDieDb),
      pending: sql`
        SELECT count(*)::int AS count, coalesce(sum(amount_kobo), 0)::text AS amount_kobo
        FROM transactions WHERE status = 'pending'`.pipe(
        Effect.flatMap(decodeRows(PendingRow)),
        Effect.map((rows) => rows[0] ?? { count: 0, amountKobo: 0n }),
        orDieDb
      ),
      activePlans: sql`SELECT count(*)::int AS count FROM disbursement_plans WHERE state = 'active'`.pipe(
        Effect.flatMap(decodeRows(PlansRow)),
        Effect.map((rows) => rows[0]?.count ?? 0),
        orDieDb
      )
    })
  })
)
