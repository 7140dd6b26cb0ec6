import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { Alerts } from "@app/domain"
import { Effect, Layer, Schema } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

/**
 * Staff alerts are `staff_alerts` rows (one column per field of StaffAlert). A raise is one
 * statement: an INSERT that, when an open alert of its dedup key exists (the partial unique index
 * `staff_alerts_open_dedup_key`), counts an occurrence on it instead, so concurrent raises of one
 * condition, in any number of processes, leave one open alert.
 */
export const AlertRepoSql = Layer.effect(
  Alerts.AlertRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const raise = SqlSchema.single({
      Request: Alerts.StaffAlert,
      Result: Alerts.StaffAlert,
      execute: (alert) =>
        sql`
          INSERT INTO staff_alerts ${sql.insert(alert)}
          ON CONFLICT (dedup_key) WHERE acknowledged_at IS NULL DO UPDATE SET
            occurrences = staff_alerts.occurrences + 1,
            last_raised_at = GREATEST(staff_alerts.last_raised_at, EXCLUDED.last_raised_at)
          RETURNING *`
    })
    const listOpen = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Alerts.StaffAlert,
      execute: () => sql`SELECT * FROM staff_alerts WHERE acknowledged_at IS NULL ORDER BY last_raised_at DESC, id DESC`
    })
    return Alerts.AlertRepo.of({
      // a raise returns its row (the new alert or the open one it counted on); none is a defect
      raise: (alert) => raise(alert).pipe(Effect.catchTag("NoSuchElementException", Effect.die), orDieDb),
      listOpen: () => orDieDb(listOpen(undefined)),
      acknowledge: (id, by, at) =>
        sql`
          UPDATE staff_alerts SET acknowledged_at = ${at}, acknowledged_by = ${by}
          WHERE id = ${id} AND acknowledged_at IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb)
    })
  })
)
