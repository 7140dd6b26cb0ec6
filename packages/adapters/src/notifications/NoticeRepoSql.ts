import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import { CustomerId, Notice, NoticeRepo } from "@app/domain"
import { Effect, Layer } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

/** Notices are `notices` rows (one column per field of Notice), kept for the customer and for admins. */
export const NoticeRepoSql = Layer.effect(
  NoticeRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const record = SqlSchema.void({
      Request: Notice,
      execute: (notice) => sql`INSERT INTO notices ${sql.insert(notice)}`
    })
    const listForCustomer = SqlSchema.findAll({
      Request: CustomerId,
      Result: Notice,
      execute: (customerId) => sql`SELECT * FROM notices WHERE customer_id = ${customerId} ORDER BY created_at DESC, id DESC`
    })
    return NoticeRepo.of({
      record: (notice) => orDieDb(record(notice)),
      listForCustomer: (customerId) => orDieDb(listForCustomer(customerId))
    })
  })
)
