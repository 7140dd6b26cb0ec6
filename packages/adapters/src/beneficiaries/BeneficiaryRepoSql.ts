import * as SqlClient from "@effect/sql/SqlClient"
import { Beneficiary, BeneficiaryRepo, CustomerId } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

/**
 * Every write first locks the customer's row (FOR UPDATE, inside a transaction or a savepoint of
 * the caller's), so the writes of one customer run one at a time and "exactly one default while any
 * exist" holds under concurrency; the partial unique index beneficiaries_one_default_key backs it.
 */
export const BeneficiaryRepoSql = Layer.effect(
  BeneficiaryRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(Beneficiary)
    const first = (query: Effect.Effect<ReadonlyArray<unknown>, any>) =>
      query.pipe(Effect.flatMap(decode), Effect.map((rs) => Option.fromNullable(rs[0])))
    const locked = <A, E, R>(customerId: CustomerId, body: Effect.Effect<A, E, R>) =>
      sql.withTransaction(Effect.zipRight(sql`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`, body))

    return BeneficiaryRepo.of({
      add: (b) =>
        orDieDb(locked(
          b.customerId,
          first(sql`
            INSERT INTO beneficiaries
              (id, customer_id, account_number, bank_code, bank_name, account_name, is_default, created_at)
            SELECT ${b.id}, ${b.customerId}, ${b.accountNumber}, ${b.bankCode}, ${b.bankName}, ${b.accountName},
                   NOT EXISTS (SELECT 1 FROM beneficiaries WHERE customer_id = ${b.customerId} AND is_default),
                   ${b.createdAt}
            ON CONFLICT (customer_id, account_number, bank_code) DO NOTHING
            RETURNING *`)
        )),
      list: (customerId) =>
        orDieDb(
          sql`
            SELECT * FROM beneficiaries WHERE customer_id = ${customerId}
            ORDER BY is_default DESC, created_at, id`.pipe(Effect.flatMap(decode))
        ),
      findById: (customerId, id) =>
        orDieDb(first(sql`SELECT * FROM beneficiaries WHERE id = ${id} AND customer_id = ${customerId}`)),
      setDefault: (customerId, id) =>
        orDieDb(locked(
          customerId,
          Effect.gen(function*() {
            const target = yield* first(sql`SELECT * FROM beneficiaries WHERE id = ${id} AND customer_id = ${customerId}`)
            if (Option.isNone(target)) return Option.none<Beneficiary>()
            // clear first: the unique index is checked row by row
            yield* sql`
              UPDATE beneficiaries SET is_default = false
              WHERE customer_id = ${customerId} AND is_default AND id <> ${id}`
            return yield* first(sql`UPDATE beneficiaries SET is_default = true WHERE id = ${id} RETURNING *`)
          })
        )),
      remove: (customerId, id) =>
        orDieDb(locked(
          customerId,
          first(sql`DELETE FROM beneficiaries WHERE id = ${id} AND customer_id = ${customerId} RETURNING *`)
        )),
      promoteOldest: (customerId) =>
        orDieDb(locked(
          customerId,
          first(sql`
            UPDATE beneficiaries SET is_default = true
            WHERE id = (
              SELECT id FROM beneficiaries WHERE customer_id = ${customerId} ORDER BY created_at, id LIMIT 1
            )
            AND NOT EXISTS (SELECT 1 FROM beneficiaries WHERE customer_id = ${customerId} AND is_default)
            RETURNING *`)
        ))
    })
  })
)
