/** StaffDirectory on SQL: the `staff` table (migration 0012). */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffDirectory } from "@app/domain"
import { Effect, Layer } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

export const StaffDirectorySql = Layer.effect(
  StaffDirectory,
  Effect.map(SqlClient.SqlClient, (sql) =>
    StaffDirectory.of({
      isStaffEmail: (email) =>
        sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM staff WHERE lower(email) = ${email.toLowerCase()}) AS found`.pipe(
          Effect.map((rows) => rows[0]?.found === true),
          orDieDb
        )
    }))
)
