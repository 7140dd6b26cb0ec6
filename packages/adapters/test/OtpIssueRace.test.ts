/**
 * Issuing one-time codes under concurrency, on the real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where requests really run in parallel): the cooldown and window are checked and
 * the code stored under the account's row lock (OtpRepo.lockIssuing), so a burst gets one code.
 */
import { Otp } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { newCustomer } from "../src/testing/Customers.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

layer(Repos, { timeout: "120 seconds" })(`issuing one-time codes (${describeBackend()})`, (it) => {
  it.effect("20 concurrent issues for one account and purpose store one code; the others are OtpCooldown", () =>
    Effect.gen(function*() {
      const customer = yield* newCustomer("otp-race", "62", new Date())
      const outcomes = yield* Effect.all(
        Array.from({ length: 20 }, () =>
          Otp.issueOtp({
            accountId: customer.accountId,
            channel: "email",
            purpose: "password_reset",
            destination: "race@example.com",
            kind: "password_reset",
            subject: "Reset",
            text: (code) => `code ${code}`
          }).pipe(Effect.either)),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((o) => o._tag === "Right")).toHaveLength(1)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: string }>`SELECT count(*) AS n FROM one_time_codes WHERE account_id = ${customer.accountId}`.pipe(Effect.orDie)
      expect(Number(rows[0]!.n)).toBe(1)
    }))
})
