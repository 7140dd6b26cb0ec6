/**
 * Issue 41, item 2: a movement cut short by a process that died (SIGKILL) must not block its
 * customer until its 2-minute lease runs out. Leases carry their holder's process identity
 * (lease_holders, adapters' concurrency/LeaseHolder.ts):
 * - a lease whose holder is not registered, or stopped heartbeating, is free at once;
 * - a lease whose holder heartbeats is respected (another live process is driving it);
 * - on the embedded database, a process starting on the data directory is its only writer: every
 *   other registered holder is a dead predecessor and is removed, so its leases are free at once.
 *   On PostgreSQL, a fresh heartbeat is a live peer and keeps its leases.
 * The SIGKILL itself, with `npm start`, is e2e/crash.e2e.test.ts.
 */
import { LeaseHolderLive, STALE_AFTER } from "@app/adapters/concurrency/LeaseHolder"
import { AccountId, Transfers } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer } from "effect"
import { bankCustomer } from "./support/BankingFixtures.js"
import { onFirstCall, startTransfer } from "./support/BankFaults.js"
import { expectSuccess, post } from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"
import { CoreBanking } from "@app/domain"

const FUNDS = 1_000_000
const AMOUNT = 250_000n
const TWO_MINUTES = 120_000

/**
 * A customer whose transfer was cut short after its debit (the saga interrupted, as a process
 * dying would), its movement left leased for 2 minutes by `holder`, as a SIGKILL leaves it.
 */
const cutShort = (tag: string, holder: string) =>
  Effect.gen(function*() {
    const c = yield* bankCustomer(tag)
    expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: FUNDS }, c.accessToken), { apiObject: "Transaction" })
    const broken = yield* onFirstCall("debit", (call) => Effect.zipRight(call, Effect.interrupt))
    const exit = yield* startTransfer(c.id, "0123450001", AMOUNT).pipe(Effect.provideService(CoreBanking, broken), Effect.exit)
    expect(Exit.isInterrupted(exit)).toBe(true)
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ id: string }>`
      SELECT t.id FROM transactions t JOIN customers c ON c.id = t.customer_id
      WHERE c.account_id = ${c.id} AND t.type = 'transfer'`
    // a SIGKILL gives nothing back: the lease stands for its full length, held by the dead process
    yield* sql`UPDATE transactions SET lease_until = now() + ${TWO_MINUTES}::float8 * interval '1 millisecond', lease_holder = ${holder}
               WHERE id = ${row!.id}`
    return { customer: c, id: row!.id }
  })

const statusOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ status: string; inFlight: boolean }>`SELECT status, in_flight FROM transactions WHERE id = ${id}`).pipe(
    Effect.map((rows) => rows[0]!)
  )

/** The customer's next transfer (a new key): accepted, or MovementInFlight. */
const nextTransfer = (accountId: AccountId) =>
  startTransfer(accountId, "0123450001", 10_000n).pipe(
    Effect.map((t) => t.status as string),
    Effect.catchTag("MovementInFlight", () => Effect.succeed("in flight" as const))
  )

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("leases after a crash (issue 41)", (it) => {
  describe("a lease whose holder is dead is free before it ends", () => {
    it.effect("holder not registered: recovered at once, and the customer transacts again", () =>
      Effect.gen(function*() {
        const { customer, id } = yield* cutShort("lease-unregistered", "gone-host:4242:deadbeef")
        expect(yield* nextTransfer(customer.id)).toBe("in flight")
        const recovered = yield* Transfers.processDue()
        expect(recovered.claimed).toBeGreaterThanOrEqual(1)
        expect(yield* statusOf(id)).toMatchObject({ status: "confirmed", inFlight: false })
        expect(yield* nextTransfer(customer.id)).toBe("confirmed")
      }))

    it.effect("holder silent for longer than STALE_AFTER: free; holder heartbeating: respected", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const silent = `silent-host:1:${Date.now()}`
        const live = `live-host:2:${Date.now()}`
        yield* sql`INSERT INTO lease_holders (id, pid, host, heartbeat_at) VALUES
          (${silent}, 1, 'silent-host', now() - ${Duration.toMillis(STALE_AFTER) + 5_000}::float8 * interval '1 millisecond'),
          (${live}, 2, 'live-host', now())`
        const stalled = yield* cutShort("lease-silent", silent)
        const driven = yield* cutShort("lease-live", live)
        yield* Transfers.processDue()
        expect((yield* statusOf(stalled.id)).status).toBe("confirmed")
        // a live peer's movement is left to it
        expect(yield* statusOf(driven.id)).toMatchObject({ status: "pending", inFlight: true })
        yield* sql`DELETE FROM lease_holders WHERE id = ${live}`
        yield* Transfers.processDue()
        expect((yield* statusOf(driven.id)).status).toBe("confirmed")
      }))
  })

  it.effect("a process starting on the embedded database takes back its dead predecessor's leases at once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const predecessor = `previous-host:7:${Date.now()}`
      // it heartbeated a moment ago (it was SIGKILLed just now)
      yield* sql`INSERT INTO lease_holders (id, pid, host, heartbeat_at) VALUES (${predecessor}, 7, 'previous-host', now())`
      const { customer, id } = yield* cutShort("lease-predecessor", predecessor)
      // the new process's start-up (its adapters register it as a holder)
      yield* Effect.scoped(Layer.build(LeaseHolderLive.pipe(Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)))).pipe(
        Effect.zipRight(Transfers.processDue())
      ))
      const [{ embedded }] = yield* sql<{ embedded: boolean }>`SELECT version() LIKE '%PGlite%' AS embedded`
      if (embedded) {
        expect(yield* statusOf(id)).toMatchObject({ status: "confirmed", inFlight: false })
        expect(yield* nextTransfer(customer.id)).toBe("confirmed")
      } else {
        // PostgreSQL: a fresh heartbeat may be a live peer; it loses its leases once silent
        expect((yield* statusOf(id)).status).toBe("pending")
        yield* sql`DELETE FROM lease_holders WHERE id = ${predecessor}`
        yield* Transfers.processDue()
        expect((yield* statusOf(id)).status).toBe("confirmed")
      }
    }))
})
