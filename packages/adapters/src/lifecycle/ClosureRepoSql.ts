import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { AccountClosure, ClosureRepo } from "@app/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { decodeRows, leaseFromNow, orDieDb } from "../sql/SqlSupport.js"

const ClosureRow = Schema.Struct({ ...AccountClosure.fields, amountKobo: Schema.BigInt })

/** Closures with work left: closing, or closed with a deletion asked for while the customer is not deleted yet. */
const WORK_LEFT = (sql: SqlClient.SqlClient) => sql`(
  k.status = 'closing'
  OR (k.status = 'closed' AND k.delete_requested
      AND EXISTS (SELECT 1 FROM customers c WHERE c.id = k.customer_id AND c.customer_status = 'closed'))
)`

/**
 * Closures are `account_closures` rows; at most one `closing` per customer (a partial unique
 * index), the idempotency key unique per customer. The closure job leases rows on the database's
 * clock (FOR UPDATE SKIP LOCKED), so any number of processes can run it.
 */
export const ClosureRepoSql = Layer.effect(
  ClosureRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(ClosureRow)
    const many = (q: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      q.pipe(Effect.flatMap(decode), Effect.map((rs) => rs.map((r) => new AccountClosure(r))), orDieDb)
    const one = (q: Effect.Effect<ReadonlyArray<unknown>, SqlError>) => Effect.map(many(q), (rs) => Option.fromNullable(rs[0]))

    return ClosureRepo.of({
      insert: (c) =>
        orDieDb(sql`
          INSERT INTO account_closures ${sql.insert({
            id: c.id,
            customerId: c.customerId,
            idempotencyKey: c.idempotencyKey,
            requestHash: c.requestHash,
            transactionId: c.transactionId,
            amountKobo: c.amountKobo.toString(),
            planId: c.planId,
            status: c.status,
            freezeReference: c.freezeReference,
            deleteRequested: c.deleteRequested,
            deleteVia: c.deleteVia,
            createdAt: c.createdAt,
            updatedAt: c.updatedAt,
            closedAt: c.closedAt
          })}
          ON CONFLICT DO NOTHING
          RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
      findById: (id) => one(sql`SELECT * FROM account_closures WHERE id = ${id}`),
      findByKey: (customerId, key) =>
        one(sql`SELECT * FROM account_closures WHERE customer_id = ${customerId} AND idempotency_key = ${key}`),
      findOpen: (customerId) =>
        one(sql`SELECT * FROM account_closures WHERE customer_id = ${customerId} AND status = 'closing'`),
      claim: (id, now, leaseUntil) =>
        one(sql`
          UPDATE account_closures k SET lease_until = ${leaseFromNow(sql, now, leaseUntil)}
          WHERE k.id = ${id} AND ${WORK_LEFT(sql)} AND (k.lease_until IS NULL OR k.lease_until < now())
          RETURNING k.*`),
      claimSettled: (now, leaseUntil, limit) =>
        many(sql`
          UPDATE account_closures SET lease_until = ${leaseFromNow(sql, now, leaseUntil)}
          WHERE id IN (
            SELECT k.id FROM account_closures k
            WHERE ${WORK_LEFT(sql)}
              AND (k.lease_until IS NULL OR k.lease_until < now())
              AND (k.transaction_id IS NULL
                   OR EXISTS (SELECT 1 FROM transactions t WHERE t.id = k.transaction_id AND t.status <> 'pending'))
            ORDER BY k.created_at
            LIMIT ${limit}
            FOR UPDATE OF k SKIP LOCKED
          )
          RETURNING *`),
      save: (c) =>
        orDieDb(sql`
          UPDATE account_closures
          SET status = ${c.status}, freeze_reference = ${c.freezeReference}, delete_requested = delete_requested OR ${c.deleteRequested},
              delete_via = COALESCE(delete_via, ${c.deleteVia}), closed_at = ${c.closedAt}, updated_at = ${c.updatedAt}, lease_until = NULL
          WHERE id = ${c.id}`).pipe(Effect.asVoid),
      requestDeletion: (id, via, now) =>
        orDieDb(sql`
          UPDATE account_closures SET delete_requested = true, delete_via = ${via}, updated_at = ${now}
          WHERE id = ${id}`).pipe(Effect.asVoid)
    })
  })
)
