/** SupportStaff on SQL: the `staff` table (migration 0012). */
import * as SqlClient from "@effect/sql/SqlClient"
import { SupportStaff } from "@app/domain"
import { Effect, Layer } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"
import { isUuid } from "./SupportRepoSql.js"

export const SupportStaffSql = Layer.effect(
  SupportStaff,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SupportStaff.of({
      exists: (staffId) =>
        !isUuid(staffId) ? Effect.succeed(false) : sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM staff WHERE id = ${staffId}) AS found`.pipe(
          Effect.map((rows) => rows[0]?.found === true),
          orDieDb
        )
    }))
)
