import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { UnitOfWork } from "@app/domain"
import { Effect, Layer } from "effect"

/** Atomic units of work are SQL transactions (nested ones become savepoints). */
export const UnitOfWorkSql = Layer.effect(
  UnitOfWork,
  Effect.map(SqlClient.SqlClient, (sql) =>
    UnitOfWork.of({
      atomically: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        sql.withTransaction(effect).pipe(
          // BEGIN/COMMIT failing is an infrastructure defect, not a domain outcome.
          Effect.catchIf((e): e is SqlError => e instanceof SqlError, (e) => Effect.die(e))
        ) as Effect.Effect<A, E, R>
    }))
)
