/**
 * The monthly spending report job on the TestClock: last month in Africa/Lagos, only customers with
 * email on and a spending in that month, at most one email per customer and month however many runs
 * (sequential or racing "scheduler instances" on one repository), in batches; a scheduler down on
 * the 1st catches up on the 2nd or 3rd.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as Auth from "../src/auth/index.js"
import * as Spendings from "../src/spending/index.js"
import { pw, registerAda, registerBola } from "./support/Fixtures.js"
import { Sent, Store } from "./support/InMemory.js"
import { SpendingStore, withSpendings } from "./support/InMemorySpendings.js"
import { AccountId } from "../src/shared/Ids.js"

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

const reports = Effect.map(Sent.all, (all) => all.filter((m) => m.kind === "spending_report"))

const spend = (accountId: AccountId, date: string, amountKobo = 1_000n) =>
  Spendings.logSpending(accountId, { amountKobo, category: "food", date })

describe("monthly spending reports", () => {
  it.effect("on the 1st: last month's report to each customer with email on and a spending in it, once", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-15T10:00:00Z")
      const ada = yield* registerAda()
      const bola = yield* registerBola
      const chidi = yield* Auth.register({ email: "chidi@example.com", password: pw("chidi's password") })
      const dayo = yield* Auth.register({ email: "dayo@example.com", password: pw("dayo's password") })
      yield* spend(ada.account.id, "2026-11-01", 3_000n)
      yield* spend(bola.account.id, "2026-11-10") // email off: nothing
      yield* Store.patchCustomer(bola.account.id, { emailEnabled: false })
      yield* spend(chidi.account.id, "2026-10-31") // not in November: nothing
      yield* at("2026-11-30T12:00:00Z")
      yield* spend(ada.account.id, "2026-11-30") // the month's last day is in it
      yield* spend(dayo.account.id, "2026-11-30")
      // 05:00 UTC on 1 December = 06:00 in Lagos
      yield* at("2026-12-01T05:00:00Z")
      yield* spend(chidi.account.id, "2026-12-01") // December: next month's
      const run = yield* Spendings.sendMonthlyReports()
      expect(run).toEqual({ month: "2026-11", sent: 2, skipped: 1, failed: 0 })
      const sent = yield* reports
      expect(sent.map((m) => m.to).sort()).toEqual(["ada@example.com", "dayo@example.com"])
      const adas = sent.find((m) => m.to === "ada@example.com")!
      expect(adas.subject).toBe("Your spending report for November 2026")
      expect(adas.text).toContain("Total: ₦40.00 in 2 spendings.")
      expect(adas.html).toContain("<h1>")
      expect(adas.attachments?.[0]?.filename).toBe("spendings-2026-11.csv")
      expect(adas.attachments?.[0]?.content).toContain("day,2026-11-30,,,1000,1,")
      // an hour later (the job fires hourly on the 1st to the 3rd): nobody twice
      yield* at("2026-12-01T06:00:00Z")
      expect(yield* Spendings.sendMonthlyReports()).toEqual({ month: "2026-11", sent: 0, skipped: 1, failed: 0 })
      expect((yield* reports).length).toBe(2)
      // Bola turns email on later that day: the run after that sends hers
      yield* Store.patchCustomer(bola.account.id, { emailEnabled: true })
      expect((yield* Spendings.sendMonthlyReports()).sent).toBe(1)
      expect((yield* reports).map((m) => m.to).sort()).toEqual(["ada@example.com", "bola@example.com", "dayo@example.com"])
      expect((yield* SpendingStore.claims).size).toBe(3)
    })))

  it.effect("at 00:30 on the 1st in Lagos (23:30 UTC the day before) the month just ended is reported", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2027-01-31T12:00:00Z")
      const ada = yield* registerAda()
      yield* spend(ada.account.id, "2027-01-31")
      yield* at("2027-01-31T23:30:00Z")
      expect(yield* Spendings.sendMonthlyReports()).toMatchObject({ month: "2027-01", sent: 1 })
    })))

  it.effect("catch-up: no run on the 1st (scheduler down), the 2nd and 3rd still report last month, once", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-11-20T10:00:00Z")
      const ada = yield* registerAda()
      yield* spend(ada.account.id, "2026-11-20")
      // first run at 05:00 UTC on 2 December
      yield* at("2026-12-02T05:00:00Z")
      yield* spend(ada.account.id, "2026-12-01") // December: not reported
      expect(yield* Spendings.sendMonthlyReports()).toEqual({ month: "2026-11", sent: 1, skipped: 0, failed: 0 })
      // the last run of the window, 22:00 UTC on the 3rd (23:00 Lagos): still November, nobody twice
      yield* at("2026-12-03T22:00:00Z")
      expect(yield* Spendings.sendMonthlyReports()).toEqual({ month: "2026-11", sent: 0, skipped: 0, failed: 0 })
      const sent = yield* reports
      expect(sent.map((m) => [m.to, m.subject])).toEqual([["ada@example.com", "Your spending report for November 2026"]])
    })))

  it.effect("two scheduler instances racing on one repository send one email per customer-month, in batches", () =>
    withSpendings(Effect.gen(function*() {
      yield* at("2026-10-10T10:00:00Z")
      const emails: Array<string> = []
      for (let i = 0; i < 7; i++) {
        const email = `racer-${i}@example.com`
        const { account } = yield* Auth.register({ email, password: pw("a long password") })
        yield* spend(account.id, `2026-10-0${1 + (i % 9)}`)
        emails.push(email)
      }
      yield* at("2026-11-01T05:00:00Z")
      const [a, b] = yield* Effect.all([
        Spendings.sendMonthlyReports({ batchSize: 2 }),
        Spendings.sendMonthlyReports({ batchSize: 3 })
      ], { concurrency: 2 })
      expect(a.sent + b.sent).toBe(7)
      const sent = yield* reports
      expect(sent.map((m) => m.to).sort()).toEqual(emails.sort())
      expect((yield* Spendings.sendMonthlyReports({ batchSize: 1 })).sent).toBe(0)
      expect((yield* reports).length).toBe(7)
    })))
})
