import * as SqlClient from "@effect/sql/SqlClient"
import { Alerts } from "@app/domain"
import { Effect, Layer } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

/**
 * Staff alerts are `staff_alerts` rows. A raise is one statement: an INSERT that, when an open alert
 * of its dedup key exists (the partial unique index `staff_alerts_open_dedup_key`), counts an
 * occurrence on it instead, so concurrent raises of one condition, in any number of processes,
 * leave one open alert.
 */
export const AlertRepoSql = Layer.effect(
  Alerts.AlertRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(Alerts.StaffAlert)

    /** The one row a statement returned (a defect otherwise). */
    const theOne = (rows: ReadonlyArray<Alerts.StaffAlert>) =>
      rows.length === 1 ? Effect.succeed(rows[0]!) : Effect.dieMessage(`AlertRepo.raise: ${rows.length} rows returned`)

    return Alerts.AlertRepo.of({
      raise: (alert) =>
        sql`
          INSERT INTO staff_alerts ${
          sql.insert({
            id: alert.id,
            kind: alert.kind,
            severity: alert.severity,
            dedupKey: alert.dedupKey,
            customerId: alert.customerId,
            transactionId: alert.transactionId,
            message: alert.message,
            occurrences: alert.occurrences,
            firstRaisedAt: alert.firstRaisedAt,
            lastRaisedAt: alert.lastRaisedAt
          })
        }
          ON CONFLICT (dedup_key) WHERE acknowledged_at IS NULL DO UPDATE SET
            occurrences = staff_alerts.occurrences + 1,
            last_raised_at = GREATEST(staff_alerts.last_raised_at, EXCLUDED.last_raised_at)
          RETURNING *`.pipe(Effect.flatMap(decode), orDieDb, Effect.flatMap(theOne)),
      listOpen: () =>
        sql`
          SELECT * FROM staff_alerts WHERE acknowledged_at IS NULL
          ORDER BY last_raised_at DESC, id DESC`.pipe(Effect.flatMap(decode), orDieDb),
      acknowledge: (id, by, at) =>
        sql`
          UPDATE staff_alerts SET acknowledged_at = ${at}, acknowledged_by = ${by}
          WHERE id = ${id} AND acknowledged_at IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb)
    })
  })
)
