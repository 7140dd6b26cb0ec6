/** Staff freezes of customers (`customer_freezes`, migration 0021). */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffAccess } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

const { CustomerFreeze, FreezeRepo } = StaffAccess.Freezes

export const FreezeRepoSql = Layer.effect(
  FreezeRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(CustomerFreeze)
    const columns = sql`id, customer_id, staff_id, reason, previous_status, state, provider_reference,
      requested_at, updated_at, lifted_at, lifted_by`
    return FreezeRepo.of({
      insert: (f) =>
        sql`INSERT INTO customer_freezes ${
          sql.insert({
            id: f.id,
            customerId: f.customerId,
            staffId: f.staffId,
            reason: f.reason,
            previousStatus: f.previousStatus,
            state: f.state,
            providerReference: f.providerReference,
            requestedAt: f.requestedAt,
            updatedAt: f.updatedAt,
            liftedAt: f.liftedAt,
            liftedBy: f.liftedBy
          })
        }`.pipe(Effect.asVoid, orDieDb),
      findOpen: (customerId) =>
        sql`SELECT ${columns} FROM customer_freezes WHERE customer_id = ${customerId} AND lifted_at IS NULL`.pipe(
          Effect.flatMap(decode),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          orDieDb
        ),
      save: (f) =>
        sql`
          UPDATE customer_freezes SET state = ${f.state}, provider_reference = ${f.providerReference},
            updated_at = ${f.updatedAt}, lifted_at = ${f.liftedAt}, lifted_by = ${f.liftedBy}, lease_until = NULL
          WHERE id = ${f.id}`.pipe(Effect.asVoid, orDieDb),
      saveOpen: (f) =>
        sql<{ readonly id: string }>`
          UPDATE customer_freezes SET state = ${f.state}, provider_reference = ${f.providerReference},
            updated_at = ${f.updatedAt}, lifted_at = ${f.liftedAt}, lifted_by = ${f.liftedBy}, lease_until = NULL
          WHERE id = ${f.id} AND lifted_at IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      claimPending: (id, now, leaseUntil, limit) =>
        sql`
          UPDATE customer_freezes SET lease_until = ${leaseUntil}
          WHERE id IN (
            SELECT id FROM customer_freezes
            WHERE state = 'pending_provider' AND lifted_at IS NULL
              AND (lease_until IS NULL OR lease_until < ${now})
              ${id === undefined ? sql`` : sql`AND id = ${id}`}
            ORDER BY requested_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          RETURNING ${columns}`.pipe(Effect.flatMap(decode), orDieDb)
    })
  })
)
