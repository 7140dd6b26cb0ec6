/**
 * A crash at every provider call of the saga, on the real stack: SQL journal (PGlite or PostgreSQL)
 * and the sandbox bank through the real HTTP adapter. A wrapper around the CoreBanking port kills
 * the driving fiber just before or just after the provider applies a call, as a process dying would;
 * then the lease is let expire and recovery (processDue) finishes the saga from the journal. The
 * money is delivered exactly once or returned, PND is active, no lien remains, the books balance.
 */
import { CoreBanking, Transfers } from "@app/domain"
import { conservation } from "@app/sandbox"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { expectSuccess, post } from "./support/Fixtures.js"
import { onFirstCall, type Operation, startTransfer } from "./support/BankFaults.js"
import { TestServer } from "./support/TestServer.js"

/** CoreBanking whose `operation` kills the fiber once, before or after the provider applied it. */
const crashing = (operation: Operation, after: boolean) =>
  onFirstCall(operation, (call) => (after ? Effect.zipRight(call, Effect.interrupt) : Effect.interrupt))

const FUNDS = 1_000_000
const AMOUNT = 250_000n
const FEE = 1_075

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("saga recovery after a crash", (it) => {
  const cases: Array<[Operation, boolean, string]> = []
  for (const op of ["deactivatePnd", "placeLien", "debit", "transfer", "removeLien", "activatePnd"] as const) {
    cases.push([op, false, "0123450001"], [op, true, "0123450001"])
  }
  cases.push(["credit", false, "0123450003"], ["credit", true, "0123450003"])

  describe("the process dies at a provider call; recovery finishes from the journal", () => {
    for (const [operation, after, destination] of cases) {
      const delivered = destination.endsWith("0001")
      it.effect(`${operation} (${after ? "after" : "before"} it applied), ${delivered ? "delivered once" : "returned"}`, () =>
        Effect.gen(function*() {
          const c = yield* bankCustomer(`crash-${operation.toLowerCase()}-${after}`)
          expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: FUNDS }, c.accessToken), {
            apiObject: "Transaction"
          })
          const broken = yield* crashing(operation, after)
          const exit = yield* startTransfer(c.id, destination, AMOUNT).pipe(Effect.provideService(CoreBanking, broken), Effect.exit)
          expect(Exit.isInterrupted(exit)).toBe(true)

          // the process is gone: its lease runs out
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE transactions SET lease_until = ${new Date(Date.now() - 1000)} WHERE type = 'transfer' AND lease_until IS NOT NULL`
          const rows = yield* sql<{ id: string; status: string }>`
            SELECT t.id, t.status FROM transactions t JOIN customers c ON c.id = t.customer_id
            WHERE c.account_id = ${c.id} AND t.type = 'transfer'`
          expect(rows).toHaveLength(1)
          expect(rows[0]!.status).toBe("pending")

          yield* Transfers.processDue()
          const [row] = yield* sql<{ status: string }>`SELECT status FROM transactions WHERE id = ${rows[0]!.id}`
          expect(row!.status).toBe(delivered ? "confirmed" : "failed")

          const account = yield* (yield* CoreBanking).account(c.accountNumber)
          expect(account.pndActive).toBe(true)
          expect(account.liens).toEqual([])
          const balance = (yield* get("/api/v1/customers/balance", c.accessToken)).body.result.balanceKobo
          expect(balance).toBe(delivered ? FUNDS - Number(AMOUNT) - FEE : FUNDS)
          const history = yield* (yield* CoreBanking).history(c.accountNumber)
          expect(history.filter((h) => h.channel === "core_debit")).toHaveLength(1)
          const books = yield* conservation
          expect(books.problems).toEqual([])
        }))
    }
  })
})
