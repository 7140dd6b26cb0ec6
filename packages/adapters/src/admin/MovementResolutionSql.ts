/** Operators' resolutions of movements parked after a refused reversal (`movement_resolutions`, migration 0027). */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffAccess } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const { MovementResolution, MovementResolutionRepo } = StaffAccess.MovementResolution

export const MovementResolutionSql = Layer.effect(
  MovementResolutionRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(MovementResolution)
    return MovementResolutionRepo.of({
      // one statement-pair in a transaction (a savepoint of the caller's unit of work): the
      // compare-and-set on the movement's epoch and status, then the record (its primary key keeps
      // it to one per movement whatever happens above)
      record: (held, patch, r) =>
        sql.withTransaction(Effect.gen(function*() {
          const set: Record<string, unknown> = { updatedAt: r.resolvedAt }
          for (const [key, value] of Object.entries(patch)) if (value !== undefined) set[key] = value
          const updated = yield* sql`
            UPDATE transactions SET ${sql.update(set)}, lease_until = NULL, epoch = epoch + 1
            WHERE id = ${held.id} AND type = 'transfer' AND epoch = ${held.epoch} AND status = 'pending'
            RETURNING id`
          if (updated.length === 0) return false
          yield* sql`INSERT INTO movement_resolutions ${
            sql.insert({
              transactionId: r.transactionId,
              customerId: r.customerId,
              outcome: r.outcome,
              note: r.note,
              requestedBy: r.requestedBy,
              resolvedBy: r.resolvedBy,
              resolvedAt: r.resolvedAt
            })
          }`
          return true
        })).pipe(orDieDb),
      find: (transactionId) =>
        sql`
          SELECT transaction_id, customer_id, outcome, note, requested_by, resolved_by, resolved_at
          FROM movement_resolutions WHERE transaction_id = ${transactionId}`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          orDieDb
        )
    })
  })
)
