/**
 * A driver that stalls past its lease (a blocked event loop, a paused VM, a long GC) while recovery
 * in another process takes the movement over and finishes it, on the real stack: SQL journal
 * (PGlite or PostgreSQL) and the sandbox bank through the real HTTP adapter, in its strict mode
 * where a reused reference answers "94" as many real providers do.
 *
 * Driver A is held inside a provider call (before the call reaches the bank, or after its answer
 * came back and before A journals it); A's lease is let expire; `processDue` (driver B) claims the
 * movement, which fences A out, and finishes it; then A is released. Whatever A does next, the
 * recipient is paid once, the customer debited once, nothing is reversed that should not be, PND is
 * active, no lien is left and the books balance.
 */
import { CoreBanking, TransactionId, Transfers } from "@app/domain"
import { referencesOf } from "@app/domain/transfers/Saga"
import { conservation } from "@app/sandbox"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { expectSuccess, post } from "./support/Fixtures.js"
import { onFirstCall, type Operation, startTransfer, unknown } from "./support/BankFaults.js"
import { testServer } from "./support/TestServer.js"

/** held before the call is sent; after its answer came back; or before, and its answer is then lost */
type Moment = "before" | "after" | "before, answer lost"

/**
 * CoreBanking whose first call of `operation` signals `entered` and waits for `release`, either
 * before the call is sent or after its answer came back.
 */
const stalling = (operation: Operation, moment: Moment, entered: Deferred.Deferred<void>, release: Deferred.Deferred<void>) => {
  const hold = Effect.zipRight(Deferred.succeed(entered, undefined), Deferred.await(release))
  return onFirstCall(operation, (call) =>
    moment === "before"
      ? Effect.zipRight(hold, call)
      : moment === "after"
      ? Effect.flatten(Effect.zipLeft(Effect.exit(call), hold))
      : Effect.zipRight(Effect.zipRight(hold, call), unknown(operation)))
}

const FUNDS = 1_000_000
const AMOUNT = 250_000n
const FEE = 1_075

layer(testServer({ sandboxDuplicateReferences: "reject" }), { excludeTestServices: true, timeout: "120 seconds" })(
  "a driver stalled past its lease is fenced out",
  (it) => {
    const cases: Array<[Operation, Moment, string]> = []
    for (const op of ["deactivatePnd", "placeLien", "debit", "transfer", "removeLien", "activatePnd"] as const) {
      cases.push([op, "before", "0123450001"])
    }
    cases.push(["debit", "after", "0123450001"], ["transfer", "after", "0123450001"])
    cases.push(["deactivatePnd", "before, answer lost", "0123450001"], ["placeLien", "before, answer lost", "0123450001"])
    cases.push(["credit", "before", "0123450003"], ["credit", "after", "0123450003"])

    describe("recovery finishes the movement; the stale driver changes nothing when it wakes", () => {
      for (const [operation, moment, destination] of cases) {
        const delivered = destination.endsWith("0001")
        it.effect(`stalled ${moment} ${operation}: ${delivered ? "delivered once" : "returned once"}`, () =>
          Effect.gen(function*() {
            const c = yield* bankCustomer(`stall-${operation.toLowerCase()}-${moment.replace(/[^a-z]+/g, "-")}`)
            expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: FUNDS }, c.accessToken), {
              apiObject: "Transaction"
            })
            const entered = yield* Deferred.make<void>()
            const release = yield* Deferred.make<void>()
            const bank = yield* stalling(operation, moment, entered, release)
            // driver A: the customer's request, driven in the request
            const driverA = yield* startTransfer(c.id, destination, AMOUNT).pipe(
              Effect.provideService(CoreBanking, bank),
              Effect.either,
              Effect.fork
            )
            yield* Deferred.await(entered)

            // A's lease runs out while it is held; B (recovery) claims the movement and finishes it
            const sql = yield* SqlClient.SqlClient
            const [row] = yield* sql<{ id: string }>`
              SELECT t.id FROM transactions t JOIN customers c ON c.id = t.customer_id
              WHERE c.account_id = ${c.id} AND t.type = 'transfer'`
            yield* sql`UPDATE transactions SET lease_until = ${new Date(Date.now() - 1000)} WHERE id = ${row!.id}`
            yield* Transfers.processDue()
            const finished = yield* sql<{ status: string; epoch: number }>`SELECT status, epoch FROM transactions WHERE id = ${row!.id}`
            const expected = delivered ? "confirmed" : "failed"
            expect(finished[0]!.status).toBe(expected)

            // A wakes up and goes on as far as the fence lets it
            yield* Deferred.succeed(release, undefined)
            yield* Fiber.join(driverA)
            const after = yield* sql<{ status: string; reversalState: string; epoch: number }>`
              SELECT status, reversal_state, epoch FROM transactions WHERE id = ${row!.id}`
            expect(after[0]).toMatchObject({ status: expected, reversalState: delivered ? "none" : "applied" })
            expect(Number(after[0]!.epoch)).toBe(Number(finished[0]!.epoch))

            const real = yield* CoreBanking
            const account = yield* real.account(c.accountNumber)
            expect(account.pndActive).toBe(true)
            expect(account.liens).toEqual([])
            const balance = (yield* get("/api/v1/customers/balance", c.accessToken)).body.result.balanceKobo
            expect(balance).toBe(delivered ? FUNDS - Number(AMOUNT) - FEE : FUNDS)
            const history = yield* real.history(c.accountNumber)
            expect(history.filter((h) => h.channel === "core_debit")).toHaveLength(1)
            expect(history.filter((h) => h.channel === "core_credit")).toHaveLength(delivered ? 0 : 1)
            // the recipient: paid once under the movement's one reference, or never
            expect(yield* real.requery(referencesOf(TransactionId.make(row!.id)).transfer)).toBe(delivered ? "successful" : "failed")
            expect((yield* conservation).problems).toEqual([])
          }))
      }
    })
  }
)
