/**
 * PinRepoSql against a real database: PGlite, or PostgreSQL when TEST_DATABASE_URL is set. The
 * stored guard must be exactly what the pure rules of PinLockout.ts give for the same sequence of
 * calls, and concurrent claims must serialize (this matters most on PostgreSQL, where they really
 * run in parallel on several connections).
 */
import { AccountRepo, PinLockout, PinRepo } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer } from "../src/testing/Customers.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-03-01T08:00:00.000Z")
const later = (d: Duration.DurationInput) => new Date(at.getTime() + Duration.toMillis(d))

const customerId = Effect.map(newCustomer("pin", "61", at), (c) => c.id)

type Step =
  | { readonly _tag: "claim"; readonly at: Date; readonly right: boolean }
  | { readonly _tag: "clear" }

layer(Repos, { timeout: "60 seconds" })(`PinRepoSql (${describeBackend()})`, (it) => {
  it.effect("a customer who never tried has noGuard", () =>
    Effect.gen(function*() {
      expect(yield* (yield* PinRepo).findGuard(yield* customerId)).toEqual(PinLockout.noGuard)
    }))

  it.effect("stores exactly what the pure rules give: locks, a lock that ends, a right 5th PIN, resets, old lockouts dropped", () =>
    Effect.gen(function*() {
      const repo = yield* PinRepo
      const id = yield* customerId
      const wrong = (d: Duration.DurationInput): Step => ({ _tag: "claim", at: later(d), right: false })
      const steps: Array<Step> = [
        ...[0, 1, 2, 3, 4].map((m) => wrong(Duration.minutes(m))), // 5th locks (lockout 1)
        wrong(Duration.minutes(5)), // locked: nothing changes
        ...[20, 21, 22, 23].map((m) => wrong(Duration.minutes(m))), // the lock ended: a fresh count
        { _tag: "claim", at: later(Duration.minutes(24)), right: true }, // a right 5th PIN undoes its lock
        ...[30, 31, 32, 33, 34].map((m) => wrong(Duration.minutes(m))), // lockout 2
        { _tag: "clear" }, // OTP reset: lifts the lock, keeps the lockouts
        ...[0, 1, 2, 3, 4].map((m) => wrong(Duration.sum(Duration.hours(25), Duration.minutes(m)))) // lockout 3, 25 h on: the first two dropped
      ]
      let model = PinLockout.noGuard
      for (const step of steps) {
        if (step._tag === "clear") {
          yield* repo.clearWrongTries(id)
          model = PinLockout.clearTries(model)
        } else {
          const [expected, next] = PinLockout.claimTry(model, step.at, PinLockout.PinPolicy)
          const claim = yield* repo.claimTry(id, step.at, PinLockout.PinPolicy)
          expect(claim).toEqual(expected)
          if (claim._tag === "Claimed") {
            model = next
            if (step.right) {
              yield* repo.recordCorrectTry(id, claim.lock)
              model = PinLockout.settleCorrect(model, claim.lock)
            }
          }
        }
        expect(yield* repo.findGuard(id)).toEqual(model)
      }
      expect(model.lockouts).toHaveLength(1)
    }))

  it.effect("20 concurrent claims on a fresh customer: exactly 5 Claimed, 15 Locked", () =>
    Effect.gen(function*() {
      const repo = yield* PinRepo
      const id = yield* customerId
      const claims = yield* Effect.all(
        Array.from({ length: 20 }, () => repo.claimTry(id, at, PinLockout.PinPolicy)),
        { concurrency: "unbounded" }
      )
      expect(claims.filter((c) => c._tag === "Claimed").map((c) => c._tag === "Claimed" && c.tryNumber).sort()).toEqual([1, 2, 3, 4, 5])
      expect(claims.filter((c) => c._tag === "Locked")).toHaveLength(15)
      expect((yield* repo.findGuard(id)).wrongTries).toBe(5)
    }))

  it.effect("replacePinHash is a compare-and-set; setPinHash overwrites", () =>
    Effect.gen(function*() {
      const repo = yield* PinRepo
      const accounts = yield* AccountRepo
      const created = yield* newCustomer("pin", "61", at)
      const id = created.id
      const hashOf = Effect.map(accounts.findById(created.accountId), (found) => Option.getOrThrow(found).customer.pinHash)
      expect(yield* repo.replacePinHash(id, "stale", "h1", at)).toBe(false)
      expect(yield* hashOf).toBeNull()
      expect(yield* repo.replacePinHash(id, null, "h1", at)).toBe(true)
      expect(yield* repo.replacePinHash(id, null, "h2", at)).toBe(false)
      expect(yield* hashOf).toBe("h1")
      expect(yield* repo.replacePinHash(id, "h1", "h2", at)).toBe(true)
      yield* repo.setPinHash(id, "h3", at)
      expect(yield* hashOf).toBe("h3")
    }))

  it.effect("lastProviderFreeze is the latest recorded freeze, none before any", () =>
    Effect.gen(function*() {
      const repo = yield* PinRepo
      const id = yield* customerId
      expect(Option.isNone(yield* repo.lastProviderFreeze(id))).toBe(true)
      yield* repo.recordProviderFreeze(id, "FRZ-1", at)
      yield* repo.recordProviderFreeze(id, "FRZ-2", later(Duration.hours(1)))
      expect(yield* repo.lastProviderFreeze(id)).toEqual(
        Option.some({ customerId: id, freezeReference: "FRZ-2", frozenAt: later(Duration.hours(1)) })
      )
    }))
})
