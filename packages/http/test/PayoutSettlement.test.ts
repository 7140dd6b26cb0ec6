/**
 * Issue 41, items 3 and 4, on the real stack (SQL, the sandbox bank over HTTP, the scheduler's jobs
 * called as the scheduler calls them):
 * - a payout the bank answered "pending" is settled (instalment paid, the plan on to its next
 *   cycle) by the reconciliation run that learns it was paid, not by the next due-payout run;
 * - a due payout goes ahead of its customer's new movements: a payout run that finds the customer
 *   busy makes them wait (MovementInFlight) until it has paid, so the customer's own activity
 *   delays a payout by one run at most.
 */
import { AccountId, CoreBanking, PlanId, Plans, TransactionId, Transfers } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeDue, planCustomer } from "./support/PlanFixtures.js"
import { onFirstCall, startTransfer } from "./support/BankFaults.js"
import { TestServer } from "./support/TestServer.js"

/** What the scheduler's process-transfers job runs (scheduler Jobs.ts). */
const processTransfersJob = Plans.processDueMovements()

const instalments = (planId: PlanId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ cycle: number; status: string; transactionId: TransactionId | null }>`
      SELECT cycle, status, transaction_id FROM plan_instalments WHERE plan_id = ${planId} ORDER BY cycle`)

const planRow = (planId: PlanId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ nextCycle: number; nextDueAt: Date | null }>`SELECT next_cycle, next_due_at FROM disbursement_plans WHERE id = ${planId}`).pipe(
      Effect.map((rows) => rows[0]!)
    )

/** Every pending transfer's requery is due now (its first requery comes 5 minutes on, after its lease). */
const requeryDueNow = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`UPDATE transactions SET next_attempt_at = now() - interval '1 second', lease_until = NULL
      WHERE status = 'pending' AND next_attempt_at IS NOT NULL`)

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("payout settlement and priority (issue 41)", (it) => {
  describe("a payout the bank answered pending", () => {
    it.effect("is settled by the reconciliation that confirms it, not a minute later by the next payout run", () =>
      Effect.gen(function*() {
        // 0002: the bank answers "09" (pending); its second requery answers Successful
        const c = yield* planCustomer("settle-pending", { body: { withdrawalAccountNumber: "0123450002" } })
        yield* makeDue(c.plan.id)
        yield* Plans.processDuePayouts()
        const [first] = yield* instalments(c.plan.id)
        expect(first).toMatchObject({ cycle: 0, status: "open" })
        expect(first!.transactionId).not.toBeNull()
        // reconciliation: requeried (each run as its backoff comes due) until the bank says Successful
        const sql = yield* SqlClient.SqlClient
        const statusOf = Effect.map(sql<{ status: string }>`SELECT status FROM transactions WHERE id = ${first!.transactionId}`, (r) => r[0]!.status)
        for (let i = 0; i < 5 && (yield* statusOf) === "pending"; i++) {
          yield* requeryDueNow
          yield* processTransfersJob
        }
        expect(yield* statusOf).toBe("confirmed")
        // no due-payout run in between: the bookkeeping is done already
        expect((yield* instalments(c.plan.id))[0]).toMatchObject({ cycle: 0, status: "paid" })
        expect((yield* planRow(c.plan.id)).nextCycle).toBe(1)
      }))
  })

  describe("a due payout and its customer's own movements", () => {
    it.effect("a payout run that finds the customer busy makes their new movements wait; the next run pays", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("busy-customer", { fundKobo: 3_000_000 })
        const sql = yield* SqlClient.SqlClient
        yield* makeDue(c.plan.id)
        // the customer's transfer is in flight when the payout run comes (its saga stopped after
        // the debit, as an unanswered call leaves it)
        const [customer] = yield* sql<{ id: string; accountId: AccountId }>`
          SELECT c.id, c.account_id FROM customers c JOIN disbursement_plans p ON p.customer_id = c.id WHERE p.id = ${c.plan.id}`
        const broken = yield* onFirstCall("debit", (call) => Effect.zipRight(call, Effect.interrupt))
        const exit = yield* startTransfer(customer!.accountId, "0123450001", 10_000n).pipe(Effect.provideService(CoreBanking, broken), Effect.exit)
        expect(Exit.isInterrupted(exit)).toBe(true)
        yield* Plans.processDuePayouts()
        expect((yield* instalments(c.plan.id))[0]?.transactionId ?? null).toBeNull() // skipped: the customer was busy

        // that movement ends (recovery finishes it) ...
        yield* Transfers.processDue()
        const [busy] = yield* sql<{ inFlight: boolean }>`SELECT bool_or(in_flight) AS in_flight FROM transactions WHERE customer_id = ${customer!.id}`
        expect(busy!.inFlight).toBe(false)
        // ... and the customer starts another at once: it waits behind the due payout
        const refused = yield* startTransfer(customer!.accountId, "0123450001", 10_000n).pipe(
          Effect.map(() => "accepted"),
          Effect.catchTag("MovementInFlight", () => Effect.succeed("in flight"))
        )
        expect(refused).toBe("in flight")

        // the next payout run pays it
        yield* Plans.processDuePayouts()
        expect((yield* instalments(c.plan.id))[0]).toMatchObject({ cycle: 0, status: "paid" })
        // and the customer transacts again
        const after = yield* startTransfer(customer!.accountId, "0123450001", 10_000n)
        expect(after.status).toBe("confirmed")
      }))
  })

  it.effect("recovery still runs through the plain transfers job", () =>
    Effect.map(Transfers.processDue(), (r) => expect(r.claimed).toBeGreaterThanOrEqual(0)))
})
