import * as SqlClient from "@effect/sql/SqlClient"
import { Transaction, TransactionRepo } from "@app/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { decodeInstances, orDieDb } from "../sql/SqlSupport.js"

/** A transactions row: int8 amounts arrive as decimal strings and become bigint kobo. */
export const TransactionRow = Schema.Struct({
  ...Transaction.fields,
  amountKobo: Schema.BigInt,
  feeKobo: Schema.BigInt
})

export const TransactionRepoSql = Layer.effect(
  TransactionRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeInstances(TransactionRow, Transaction)
    const rows = (query: Effect.Effect<ReadonlyArray<unknown>, any>) =>
      query.pipe(Effect.flatMap(decode), orDieDb)

    return TransactionRepo.of({
      recordDeposit: (deposit) =>
        sql`
          INSERT INTO transactions ${
          sql.insert({
            id: deposit.id,
            customerId: deposit.customerId,
            planId: null,
            type: "credit",
            purpose: "deposit",
            amountKobo: deposit.amountKobo.toString(),
            feeKobo: "0",
            status: "confirmed",
            retrievalReference: null,
            transferReference: null,
            providerReference: deposit.providerReference,
            failureReason: null,
            retryCount: 0,
            createdAt: deposit.postedAt,
            updatedAt: deposit.now
          })
        }
          ON CONFLICT (customer_id, provider_reference) DO NOTHING
          RETURNING id`.pipe(Effect.map((inserted) => inserted.length === 1), orDieDb),
      findById: (id) => rows(sql`SELECT * FROM transactions WHERE id = ${id}`).pipe(Effect.map((rs) => Option.fromNullable(rs[0]))),
      listForCustomer: (customerId, { page, pageSize }) =>
        Effect.gen(function*() {
          const items = yield* rows(sql`
            SELECT * FROM transactions WHERE customer_id = ${customerId}
            ORDER BY created_at DESC, id DESC
            LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`)
          const counted = yield* orDieDb(
            sql<{ total: string | number }>`SELECT count(*) AS total FROM transactions WHERE customer_id = ${customerId}`
          )
          return { items, page, pageSize, total: Number(counted[0]?.total ?? 0) }
        }),
      listForCustomerBetween: (customerId, from, until) =>
        rows(sql`
          SELECT * FROM transactions
          WHERE customer_id = ${customerId} AND created_at >= ${from} AND created_at < ${until}
          ORDER BY created_at, id`),
      listForCustomerByPurpose: (customerId, purpose) =>
        rows(sql`
          SELECT * FROM transactions
          WHERE customer_id = ${customerId} AND purpose = ${purpose}
          ORDER BY created_at DESC, id DESC`)
    })
  })
)
