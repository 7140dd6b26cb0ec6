/**
 * The money path's traced defects, each on the real stack (SQL journal, HTTP adapter, sandbox bank):
 * a delivered transfer never refunded because the bank was unreachable, a lien never left behind,
 * other liens and a whole-balance movement handled, a refused reversal or lien removal given a state
 * and a staff alert, an ambiguous answer requeried, and a stale NIP session refreshed. After each,
 * the books balance.
 */
import { AccountId, Alerts, CoreBanking, Plans, TransactionId, Transfers } from "@app/domain"
import { referencesOf, TransferPolicy } from "@app/domain/transfers/Saga"
import { conservation } from "@app/sandbox"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { bankCustomer } from "./support/BankingFixtures.js"
import { bankWith, onFirstCall, refused, startTransfer, unknown } from "./support/BankFaults.js"
import { expectSuccess, post } from "./support/Fixtures.js"
import { makeDue, planCustomer } from "./support/PlanFixtures.js"
import { testProvider, testServer, TestServer } from "./support/TestServer.js"

const FUNDS = 1_000_000n
const AMOUNT = 250_000n
const FEE = 1_075n // ₦10 + 7.5% VAT

/** A customer with a bank account and FUNDS in it. */
const funded = (tag: string) =>
  Effect.gen(function*() {
    const c = yield* bankCustomer(tag)
    expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: Number(FUNDS) }, c.accessToken), {
      apiObject: "Transaction"
    })
    return c
  })

const transfer = (accountId: AccountId, destination: string, amount = AMOUNT) => startTransfer(accountId, destination, amount)

interface Row {
  readonly status: string
  readonly retryCount: number
  readonly reversalState: string
  readonly transferState: string
  readonly restored: boolean
  readonly epoch: number
}

const row = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<Row>`
      SELECT status, retry_count, reversal_state, transfer_state, restored, epoch
      FROM transactions WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]!))

/** Lets the movement's lease run out and its requery fall due, as the clock would. */
const due = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      UPDATE transactions SET lease_until = ${new Date(Date.now() - 1000)}, next_attempt_at = ${new Date(Date.now() - 1000)}
      WHERE id = ${id}`)

const alertsOf = (transactionId: TransactionId) =>
  Effect.map(Alerts.listOpen, (alerts) => alerts.filter((a) => a.transactionId === transactionId).map((a) => a.kind))

/** The account at the bank: PND active, the liens that are left, the postings. */
const atTheBank = (accountNumber: string) =>
  Effect.gen(function*() {
    const bank = yield* CoreBanking
    const account = yield* bank.account(accountNumber)
    const history = yield* bank.history(accountNumber)
    return {
      account,
      debits: history.filter((h) => h.channel === "core_debit").length,
      credits: history.filter((h) => h.channel === "core_credit").length
    }
  })

const booksBalance = Effect.map(conservation, (books) => expect(books.problems).toEqual([]))

/** The movement is confirmed and the customer was debited once for it, nothing given back. */
const expectDeliveredOnce = (id: string, accountNumber: string, ledgerKobo: bigint) =>
  Effect.gen(function*() {
    expect(yield* row(id)).toMatchObject({ status: "confirmed", reversalState: "none" })
    const bank = yield* atTheBank(accountNumber)
    expect(bank).toMatchObject({ debits: 1, credits: 0 })
    expect(bank.account.ledgerBalanceKobo).toBe(ledgerKobo)
    yield* booksBalance
  })

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("money integrity on the real stack", (it) => {
  it.effect("a bank unreachable during reconciliation never fails a delivered transfer; past the window, a staff alert", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-unreachable")
      const started = yield* transfer(c.id, "0123450002")
      expect(started).toMatchObject({ status: "pending", transferState: "pending", restored: true })
      const down = yield* bankWith(() => ({ requery: () => unknown("requery") }))
      // more passes than the requery limit, every one unanswered
      for (let pass = 0; pass < 7; pass++) {
        yield* due(started.id)
        yield* Transfers.processDue().pipe(Effect.provideService(CoreBanking, down))
      }
      expect(yield* row(started.id)).toMatchObject({ status: "pending", retryCount: 0, reversalState: "none" })
      expect(yield* alertsOf(started.id)).toEqual([])
      // no answer for longer than the whole requery window: an operator is told, requeries go on
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE transactions SET created_at = created_at - interval '3 hours' WHERE id = ${started.id}`
      yield* due(started.id)
      yield* Transfers.processDue().pipe(Effect.provideService(CoreBanking, down))
      expect(yield* alertsOf(started.id)).toEqual(["provider_unreachable"])
      expect((yield* row(started.id)).status).toBe("pending")
      // the bank is back: the transfer was delivered all along
      for (let pass = 0; pass < 3 && (yield* row(started.id)).status === "pending"; pass++) {
        yield* due(started.id)
        yield* Transfers.processDue()
      }
      yield* expectDeliveredOnce(started.id, c.accountNumber, FUNDS - AMOUNT - FEE)
    }))

  it.effect("a transfer still pending after every requery is reversed, as the spec says, with a staff alert (with BankOne: escalated and kept until the bank answers)", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-exhausted")
      // 0005: the sandbox fails it at the 4th requery (the money back in settlement), but this bank
      // answers "pending" to every requery
      const started = yield* transfer(c.id, "0123450005")
      const stuck = yield* bankWith((real) => ({ requery: (reference) => Effect.as(real.requery(reference), "pending" as const) }))
      for (let pass = 0; pass < TransferPolicy.maxRequeries; pass++) {
        expect(yield* alertsOf(started.id)).toEqual([])
        yield* due(started.id)
        yield* Transfers.processDue().pipe(Effect.provideService(CoreBanking, stuck))
      }
      expect(yield* alertsOf(started.id)).toEqual(["transfer_retries_exhausted"])
      if (testProvider === "bankone") {
        // BankOne's rule: still pending after 5 status queries is a case for its support desk, so
        // the transfer stays pending and nothing is reversed (the bank may still pay it) ...
        expect(yield* row(started.id)).toMatchObject({ status: "pending", retryCount: TransferPolicy.maxRequeries, reversalState: "none" })
        expect(yield* atTheBank(c.accountNumber)).toMatchObject({ debits: 1, credits: 0 })
        // ... until the bank answers: this one failed at the bank, so it is reversed then
        yield* due(started.id)
        yield* Transfers.processDue()
      }
      expect(yield* row(started.id)).toMatchObject({
        status: "failed",
        retryCount: TransferPolicy.maxRequeries,
        reversalState: "applied"
      })
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank).toMatchObject({ debits: 1, credits: 1 })
      expect(bank.account.ledgerBalanceKobo).toBe(FUNDS)
      yield* booksBalance
    }))

  it.effect("a lien whose placement answer was lost is found and removed, though a deposit changed the balance", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-lost-lien")
      const lost = yield* onFirstCall("placeLien", (call) => Effect.zipRight(call, unknown("placeLien")))
      const started = yield* transfer(c.id, "0123450001").pipe(Effect.provideService(CoreBanking, lost))
      expect(started).toMatchObject({ status: "pending", pndLifted: true, lienPlaced: false })
      // the customer is paid while the movement waits: the protecting lien's amount is now stale
      expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: 100_000 }, c.accessToken), {
        apiObject: "Transaction"
      })
      yield* due(started.id)
      yield* Transfers.processDue()
      expect((yield* row(started.id)).status).toBe("confirmed")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account.liens).toEqual([])
      expect(bank.account.pndActive).toBe(true)
      expect(bank.account.ledgerBalanceKobo).toBe(FUNDS + 100_000n - AMOUNT - FEE)
      yield* booksBalance
    }))

  it.effect("a lien already on the account does not make the movement fail, and it stays", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-foreign-lien")
      const foreign = { reference: `XF${randomUUID().replace(/-/g, "").slice(0, 10)}`, amountKobo: 200_000n }
      yield* (yield* CoreBanking).placeLien({ accountNumber: c.accountNumber, ...foreign })
      const done = yield* transfer(c.id, "0123450001")
      expect(done.status).toBe("confirmed")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account.liens).toEqual([foreign])
      expect(bank.account.ledgerBalanceKobo).toBe(FUNDS - AMOUNT - FEE)
      expect(bank.account.pndActive).toBe(true)
      yield* booksBalance
    }))

  it.effect("moving exactly the whole balance succeeds (no lien of nothing) and leaves zero", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-whole")
      const fee = 2_688n // ₦25 + VAT, for ₦5,001–₦50,000
      const done = yield* transfer(c.id, "0123450001", FUNDS - fee)
      expect(done.status).toBe("confirmed")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account.ledgerBalanceKobo).toBe(0n)
      expect(bank.account.liens).toEqual([])
      expect(bank.account.pndActive).toBe(true)
      yield* booksBalance
    }))

  it.effect("a reversal the bank refuses: its own state and a staff alert; the account is given back and not requeried forever", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-reversal-refused")
      const noReversal = yield* bankWith(() => ({ credit: () => refused("credit") }))
      const started = yield* transfer(c.id, "0123450003").pipe(Effect.provideService(CoreBanking, noReversal))
      const stuck = yield* row(started.id)
      expect(stuck).toMatchObject({ status: "pending", transferState: "failed", reversalState: "refused", restored: true })
      expect(yield* alertsOf(started.id)).toEqual(["reversal_refused"])
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account).toMatchObject({ pndActive: true, liens: [] })
      // recovery leaves it to the operator
      yield* due(started.id)
      yield* Transfers.processDue()
      expect(yield* row(started.id)).toEqual(stuck)
      // the customer is not blocked by it
      expect((yield* transfer(c.id, "0123450001", 10_000n)).status).toBe("confirmed")
      // the money is at the bank (in settlement), not lost
      yield* booksBalance
    }))

  it.effect("a lien removal the bank refuses keeps the movement in flight with a staff alert; recovery restores it later", () =>
    Effect.gen(function*() {
      const c = yield* funded("mi-lien-refused")
      const stuckLien = yield* bankWith(() => ({ removeLien: () => refused("removeLien") }))
      const started = yield* transfer(c.id, "0123450001").pipe(Effect.provideService(CoreBanking, stuckLien))
      expect(yield* row(started.id)).toMatchObject({ status: "pending", transferState: "successful", restored: false })
      expect(yield* alertsOf(started.id)).toEqual(["lien_removal_refused"])
      expect((yield* atTheBank(c.accountNumber)).account.liens.map((l) => l.reference)).toEqual([referencesOf(started.id).lien])
      // the bank accepts again
      yield* due(started.id)
      yield* Transfers.processDue()
      expect(yield* row(started.id)).toMatchObject({ status: "confirmed", restored: true })
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account).toMatchObject({ pndActive: true, liens: [] })
      expect(bank.account.ledgerBalanceKobo).toBe(FUNDS - AMOUNT - FEE)
      yield* booksBalance
    }))

  describe("an ambiguous answer (96) to a money write", () => {
    it.effect("is requeried, never taken for a refusal: delivered once, nothing reversed", () =>
      Effect.gen(function*() {
        const c = yield* funded("mi-ambiguous")
        const started = yield* transfer(c.id, "0123450006")
        expect(started).toMatchObject({ status: "pending", transferState: "attempted", reversalState: "none" })
        yield* due(started.id)
        yield* Transfers.processDue()
        yield* expectDeliveredOnce(started.id, c.accountNumber, FUNDS - AMOUNT - FEE)
      }))
  })
})

layer(testServer({ sandboxNipSessionTtlMs: 1_000 }), { excludeTestServices: true, timeout: "120 seconds" })(
  "NIP name-enquiry sessions expire",
  (it) => {
    it.effect("a payout does not quote the plan's stored session: it makes a fresh name enquiry", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("mi-session")
        // the session the plan stored at creation is now older than the bank accepts
        yield* Effect.sleep("1500 millis")
        yield* makeDue(c.plan.id)
        expect(yield* Plans.processDuePayouts()).toMatchObject({ paid: 1, failed: 0 })
        yield* booksBalance
      }))
  }
)
