import {describe, expect, it} from "@effect/vitest"
import {Effect, Either, Ref, TestClock} from "effect"
import * as Banking from "../src/banking/index.js"
import { TestFunding } from "../src/banking/CoreBanking.js"
import { AccountNotFound } from "../src/account/Errors.js"
import { Transaction } from "../src/transactions/Model.js"
import * as Reports from "../src/transactions/Reports.js"
import {bankedAda, bankedBola, inMemory, verifiedAda} from "./support/Fixtures.js"
import {Store} from "./support/InMemory.js"
import { AccountId, CustomerId, TransactionId } from "../src/shared/Ids.js"

let sequence = 0

/** A Transaction row (a confirmed deposit unless overridden). */
const row = (customerId: CustomerId, createdAt: string, overrides: Partial<ConstructorParameters<typeof Transaction>[0]> = {}) =>
  new Transaction({
    id: TransactionId.make(`00000000-0000-4000-8000-${(++sequence).toString().padStart(12, "0")}`),
    customerId,
    planId: null,
    type: "credit",
    purpose: "deposit",
    amountKobo: 1_000n,
    feeKobo: 0n,
    status: "confirmed",
    retrievalReference: null,
    transferReference: null,
    providerReference: `P${sequence}`,
    failureReason: null,
    retryCount: 0,
    createdAt: new Date(createdAt),
    updatedAt: new Date(createdAt),
    ...overrides
  })

const insert = (...rows: ReadonlyArray<Transaction>) =>
  Effect.flatMap(Store, (s) => Ref.update(s.ref, (st) => ({ ...st, transactions: [...st.transactions, ...rows] })))

const customerIdOf = (accountId: AccountId) => Effect.map(Store.account(accountId), (a) => a.customer.id)

const transfer = (customerId: CustomerId, createdAt: string, amountKobo: bigint, feeKobo: bigint, status: Transaction["status"] = "confirmed") =>
  row(customerId, createdAt, {
    type: "transfer",
    purpose: "manual_transfer",
    amountKobo,
    feeKobo,
    status,
    providerReference: null,
    retrievalReference: `D${sequence}`,
    transferReference: `T${sequence}`,
    ...(status === "failed" ? { failureReason: "destination bank unavailable" } : {})
  })

describe("Reports.windowBounds", () => {
  it("from 00:00Z of from up to (excluding) 00:00Z of the day after to", () => {
    const bounds = Either.getOrThrow(Reports.windowBounds({ from: "2024-02-28", to: "2024-02-29" }))
    expect(bounds.start.toISOString()).toBe("2024-02-28T00:00:00.000Z")
    expect(bounds.until.toISOString()).toBe("2024-03-01T00:00:00.000Z")
    const oneDay = Either.getOrThrow(Reports.windowBounds({ from: "2023-12-31", to: "2023-12-31" }))
    expect(oneDay.until.toISOString()).toBe("2024-01-01T00:00:00.000Z")
  })

  it("accepts 1900-01-01 to 2999-12-31, and no date outside that range", () => {
    const widest = Either.getOrThrow(Reports.windowBounds({ from: "1900-01-01", to: "2999-12-31" }))
    expect(widest.start.toISOString()).toBe("1900-01-01T00:00:00.000Z")
    expect(widest.until.toISOString()).toBe("3000-01-01T00:00:00.000Z")
    const reason = "Use a date between 1900-01-01 and 2999-12-31"
    for (const from of ["0000-01-01", "0001-01-01", "1899-12-31"]) {
      expect(Either.getLeft(Reports.windowBounds({ from, to: "2024-01-01" }))).toMatchObject({ value: { field: "from", reason } })
    }
    for (const to of ["3000-01-01", "9999-12-31"]) {
      expect(Either.getLeft(Reports.windowBounds({ from: "2024-01-01", to }))).toMatchObject({ value: { field: "to", reason } })
    }
  })

  it("refuses to before from, and dates that are not real YYYY-MM-DD days", () => {
    const left = (from: string, to: string) => Either.getLeft(Reports.windowBounds({ from, to }))
    expect(left("2024-03-02", "2024-03-01")).toMatchObject({ _tag: "Some", value: { _tag: "InvalidReportWindow", field: "to" } })
    for (const bad of ["2023-02-29", "2024-13-01", "2024-1-01", "01/02/2024", "", "2024-01-01T00:00:00Z"]) {
      expect(left(bad, "2024-12-31"), bad).toMatchObject({ _tag: "Some", value: { field: "from" } })
      expect(left("2020-01-01", bad), bad).toMatchObject({ _tag: "Some", value: { field: "to" } })
    }
  })
})

describe("Reports.summarize", () => {
  it("inbound = confirmed credits; outbound = confirmed debits and transfers with their fees; net subtracts both", () => {
    const c = CustomerId.make("c")
    const rows = [
      row(c, "2024-03-01T10:00:00Z", { amountKobo: 5_000_000n }),
      row(c, "2024-03-02T10:00:00Z", { amountKobo: 250_000n }),
      row(c, "2024-03-02T11:00:00Z", { amountKobo: 999n, status: "pending" }),
      transfer(c, "2024-03-03T10:00:00Z", 1_000_000n, 2_688n),
      transfer(c, "2024-03-03T11:00:00Z", 700_000n, 2_688n, "failed"),
      transfer(c, "2024-03-03T12:00:00Z", 300_000n, 1_075n, "pending"),
      row(c, "2024-03-04T10:00:00Z", { type: "debit", purpose: "early_withdrawal", amountKobo: 400_000n, feeKobo: 16_000n })
    ]
    const report = Reports.summarize({ from: "2024-03-01", to: "2024-03-31" }, rows)
    expect(report).toEqual({
      from: "2024-03-01",
      to: "2024-03-31",
      inbound: { count: 2, totalKobo: 5_250_000n },
      outbound: { count: 2, totalKobo: 1_400_000n, feesKobo: 18_688n },
      netKobo: 5_250_000n - 1_400_000n - 18_688n,
      transactions: rows
    })
  })

  it("an empty window is all zeros; more out than in gives a negative net", () => {
    expect(Reports.summarize({ from: "2024-01-01", to: "2024-01-01" }, [])).toMatchObject({
      inbound: { count: 0, totalKobo: 0n },
      outbound: { count: 0, totalKobo: 0n, feesKobo: 0n },
      netKobo: 0n,
      transactions: []
    })
    const report = Reports.summarize({ from: "2024-01-01", to: "2024-01-31" }, [transfer(CustomerId.make("c"), "2024-01-05T00:00:00Z", 10_000n, 1_075n)])
    expect(report.netKobo).toBe(-11_075n)
  })
})

describe("Reports.transactionReport", () => {
  it.effect("totals the customer's rows of the window, UTC days, both ends inclusive; rows oldest first", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* bankedAda
      const bola = yield* bankedBola
      const ada = yield* customerIdOf(accountId)
      const before = row(ada, "2024-02-29T23:59:59.999Z", { amountKobo: 1n })
      const first = row(ada, "2024-03-01T00:00:00.000Z", { amountKobo: 10_000n })
      const out = transfer(ada, "2024-03-05T12:00:00Z", 3_000n, 1_075n)
      const failed = transfer(ada, "2024-03-06T12:00:00Z", 2_000n, 1_075n, "failed")
      const last = row(ada, "2024-03-10T23:59:59.999Z", { amountKobo: 20_000n })
      const after = row(ada, "2024-03-11T00:00:00.000Z", { amountKobo: 4n })
      const others = row(yield* customerIdOf(bola.accountId), "2024-03-05T00:00:00Z", { amountKobo: 777n })
      // stored out of order: the report sorts
      yield* insert(last, after, out, others, before, failed, first)

      const report = yield* Reports.transactionReport(accountId, { from: "2024-03-01", to: "2024-03-10" })
      expect(report).toMatchObject({
        from: "2024-03-01",
        to: "2024-03-10",
        inbound: { count: 2, totalKobo: 30_000n },
        outbound: { count: 1, totalKobo: 3_000n, feesKobo: 1_075n },
        netKobo: 25_925n
      })
      expect(report.transactions.map((t) => t.id)).toEqual([first.id, out.id, failed.id, last.id])

      const oneDay = yield* Reports.transactionReport(accountId, { from: "2024-03-11", to: "2024-03-11" })
      expect(oneDay.transactions.map((t) => t.id)).toEqual([after.id])
      expect(oneDay.inbound).toEqual({ count: 1, totalKobo: 4n })
    })))

  it.effect("deposits recorded by a sync count on the day the provider posted them", () =>
    inMemory(Effect.gen(function*() {
      const { accountId, accountNumber } = yield* bankedAda
      const funding = yield* TestFunding
      yield* TestClock.setTime(Date.parse("2024-06-01T08:00:00Z"))
      yield* funding.deposit({ accountNumber, amountKobo: 5_000_000n })
      yield* TestClock.setTime(Date.parse("2024-06-02T23:30:00Z"))
      yield* funding.deposit({ accountNumber, amountKobo: 1_500n })
      yield* TestClock.setTime(Date.parse("2024-06-03T00:30:00Z"))
      yield* funding.deposit({ accountNumber, amountKobo: 250n })
      yield* Banking.syncDeposits(accountId)

      const window = yield* Reports.transactionReport(accountId, { from: "2024-06-01", to: "2024-06-02" })
      expect(window.inbound).toEqual({ count: 2, totalKobo: 5_001_500n })
      expect(window.outbound).toEqual({ count: 0, totalKobo: 0n, feesKobo: 0n })
      expect(window.netKobo).toBe(5_001_500n)
      const all = yield* Reports.transactionReport(accountId, { from: "2024-01-01", to: "2024-12-31" })
      expect(all.inbound).toEqual({ count: 3, totalKobo: 5_001_750n })
    })))

  it.effect("a customer without a bank account gets an empty report; an unknown account is AccountNotFound", () =>
    inMemory(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const report = yield* Reports.transactionReport(accountId, { from: "2024-01-01", to: "2024-12-31" })
      expect(report).toMatchObject({ inbound: { count: 0, totalKobo: 0n }, netKobo: 0n, transactions: [] })
      const unknown = yield* Effect.flip(
        Reports.transactionReport(AccountId.make("00000000-0000-4000-8000-999999999999"), { from: "2024-01-01", to: "2024-01-02" })
      )
      expect(unknown).toBeInstanceOf(AccountNotFound)
    })))

  it.effect("an invalid window fails with InvalidReportWindow before reading anything", () =>
    inMemory(Effect.gen(function*() {
      const error = yield* Effect.flip(
        Reports.transactionReport(AccountId.make("00000000-0000-4000-8000-999999999999"), { from: "2024-05-02", to: "2024-05-01" })
      )
      expect(error).toMatchObject({ _tag: "InvalidReportWindow", field: "to", reason: "to must be on or after from" })
    })))
})
