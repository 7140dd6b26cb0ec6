import {describe, expect, it} from "@effect/vitest"
import {Cause, Duration, Effect, Exit, HashMap, Layer, Logger, LogLevel, TestClock} from "effect"
import * as Alerts from "../src/admin/Alerts.js"
import { AlertRepo, raiseAlert, severityOf, StaffAlert } from "../src/admin/Alerts.js"
import { Ids } from "../src/shared/Ports.js"
import {inMemory} from "./support/Fixtures.js"
import {AlertStore, uuidFor} from "./support/InMemory.js"
import { AlertId, CustomerId, StaffId, TransactionId } from "../src/shared/Ids.js"

const CUSTOMER = CustomerId.make("0000000c-0000-4000-8000-00000000000c")
const TX = TransactionId.make("0000000d-0000-4000-8000-00000000000d")

const reversalRefused = (transactionId = TX) => ({
  kind: "reversal_refused" as const,
  dedupKey: `reversal_refused:${transactionId}`,
  message: `The bank refused the reversal of movement ${transactionId}: credit it back by hand.`,
  customerId: CUSTOMER,
  transactionId
})

describe("Alerts.raiseAlert", () => {
  it.effect("stores a new alert: severity from its kind, time from the Clock, id from Ids", () =>
    inMemory(Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-03-01T10:00:00Z"))
      const alert = yield* raiseAlert(reversalRefused())
      const at = new Date("2026-03-01T10:00:00Z")
      expect(alert).toBeInstanceOf(StaffAlert)
      expect(alert).toEqual(
        new StaffAlert({
          id: alert.id,
          kind: "reversal_refused",
          severity: "critical",
          dedupKey: `reversal_refused:${TX}`,
          customerId: CUSTOMER,
          transactionId: TX,
          message: reversalRefused().message,
          occurrences: 1,
          firstRaisedAt: at,
          lastRaisedAt: at,
          acknowledgedAt: null,
          acknowledgedBy: null
        })
      )
      expect(alert.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(yield* AlertStore.all).toEqual([alert])
    })))

  it.effect("customer and transaction are optional (null)", () =>
    inMemory(Effect.gen(function*() {
      const alert = yield* raiseAlert({
        kind: "provider_unreachable",
        dedupKey: "provider_unreachable:core-banking",
        message: "The bank has not answered for 30 minutes."
      })
      expect(alert).toMatchObject({ severity: "warning", customerId: null, transactionId: null, occurrences: 1 })
    })))

  it.effect("the same condition raised again while open is one alert: occurrences and lastRaisedAt move", () =>
    inMemory(Effect.gen(function*() {
      const first = yield* raiseAlert(reversalRefused())
      yield* TestClock.adjust(Duration.minutes(5))
      const second = yield* raiseAlert({ ...reversalRefused(), message: "a later description" })
      yield* TestClock.adjust(Duration.minutes(5))
      const third = yield* raiseAlert(reversalRefused())

      expect(third).toEqual(
        new StaffAlert({ ...first, occurrences: 3, lastRaisedAt: new Date(first.firstRaisedAt.getTime() + 600_000) })
      )
      expect(second.occurrences).toBe(2)
      expect(yield* AlertStore.all).toEqual([third])
      // another condition is another alert
      const other = yield* raiseAlert(reversalRefused(TransactionId.make(uuidFor(999))))
      expect(other.id).not.toBe(first.id)
      expect(yield* AlertStore.all).toHaveLength(2)
    })))

  it.effect("listOpen: most recently raised first; acknowledged alerts leave it", () =>
    inMemory(Effect.gen(function*() {
      const a = yield* raiseAlert(reversalRefused(TransactionId.make(uuidFor(101))))
      yield* TestClock.adjust(Duration.seconds(1))
      const b = yield* raiseAlert({ ...reversalRefused(TransactionId.make(uuidFor(102))), kind: "lien_removal_refused", dedupKey: "lien:102" })
      yield* TestClock.adjust(Duration.seconds(1))
      const c = yield* raiseAlert({ ...reversalRefused(TransactionId.make(uuidFor(103))), kind: "transfer_retries_exhausted", dedupKey: "x:103" })
      expect((yield* Alerts.listOpen).map((x) => x.id)).toEqual([c.id, b.id, a.id])

      // a new occurrence of the oldest brings it to the top
      yield* TestClock.adjust(Duration.seconds(1))
      yield* raiseAlert(reversalRefused(TransactionId.make(uuidFor(101))))
      expect((yield* Alerts.listOpen).map((x) => x.id)).toEqual([a.id, c.id, b.id])

      expect(yield* Alerts.acknowledge(c.id, StaffId.make("staff-1"))).toBe(true)
      expect((yield* Alerts.listOpen).map((x) => x.id)).toEqual([a.id, b.id])
    })))

  it.effect("acknowledge: once, by whom and when; then the same condition opens a new alert", () =>
    inMemory(Effect.gen(function*() {
      const first = yield* raiseAlert(reversalRefused())
      yield* TestClock.adjust(Duration.hours(1))
      expect(yield* Alerts.acknowledge(first.id, StaffId.make("staff-7"))).toBe(true)
      expect(yield* Alerts.acknowledge(first.id, StaffId.make("staff-8"))).toBe(false)
      expect(yield* Alerts.acknowledge(AlertId.make(uuidFor(12345)), StaffId.make("staff-7"))).toBe(false)
      const acknowledged = (yield* AlertStore.all)[0]!
      expect(acknowledged).toMatchObject({ acknowledgedAt: new Date(3_600_000), acknowledgedBy: "staff-7", occurrences: 1 })
      expect(yield* Alerts.listOpen).toEqual([])

      yield* TestClock.adjust(Duration.minutes(1))
      const again = yield* raiseAlert(reversalRefused())
      expect(again.id).not.toBe(first.id)
      expect(again).toMatchObject({ occurrences: 1, firstRaisedAt: new Date(3_660_000), acknowledgedAt: null })
      expect(yield* Alerts.listOpen).toEqual([again])
      expect(yield* AlertStore.all).toEqual([acknowledged, again])
    })))

  it.effect("logs at error level with kind, severity, dedupKey and ids, never the message", () =>
    inMemory(Effect.gen(function*() {
      const lines: Array<{ level: string; message: unknown; annotations: Record<string, unknown> }> = []
      const capture = Logger.make(({ annotations, logLevel, message }) => {
        lines.push({ level: logLevel.label, message, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
      })
      const input = { ...reversalRefused(), message: "secret-free text, but with ₦12,345.00 in it" }
      yield* raiseAlert(input).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({
        level: "ERROR",
        annotations: { kind: "reversal_refused", severity: "critical", dedupKey: input.dedupKey, customerId: CUSTOMER, transactionId: TX }
      })
      expect(JSON.stringify(lines)).not.toContain("12,345")
    })))

  it.effect("a storage failure is a defect, not a typed failure", () =>
    Effect.gen(function*() {
      const broken = Layer.mergeAll(
        Layer.succeed(AlertRepo, AlertRepo.of({
          raise: () => Effect.die(new Error("database down")),
          listOpen: () => Effect.succeed([]),
          acknowledge: () => Effect.succeed(false)
        })),
        Layer.succeed(Ids, { next: Effect.succeed(uuidFor(1)) })
      )
      const exit = yield* raiseAlert(reversalRefused()).pipe(
        Effect.provide(broken),
        Logger.withMinimumLogLevel(LogLevel.None),
        Effect.exit
      )
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    }))

  it("every kind has a severity", () => {
    for (const kind of Alerts.AlertKind.literals) expect(["critical", "warning"]).toContain(severityOf[kind])
    expect(severityOf.provider_unreachable).toBe("warning")
    expect(severityOf.reversal_refused).toBe("critical")
  })
})
