/**
 * ReferralRepo on SQL: `customers.referral_code` (unique) names the referrer, `customers.referred_by`
 * links the referred (indexed by migration 0009).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerId, ReferralRepo, type ReferredCustomer } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

export const ReferralRepoSql = Layer.effect(
  ReferralRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ReferralRepo.of({
      findReferrer: (code) =>
        sql<{ customerId: CustomerId }>`SELECT id AS customer_id FROM customers WHERE referral_code = ${code}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]).pipe(Option.map((r) => ({ customerId: r.customerId })))),
          orDieDb
        ),
      listReferred: (customerId) =>
        sql<ReferredCustomer>`
          SELECT c.id AS customer_id, a.first_name, a.last_name, c.customer_status,
                 c.created_at AS joined_at, c.first_deposit_at
          FROM customers c JOIN accounts a ON a.id = c.account_id
          WHERE c.referred_by = ${customerId}
          ORDER BY c.created_at, c.id`.pipe(orDieDb)
    })
  })
)
