/**
 * Time travel for end-to-end tests of scheduled payouts: a Clock that runs at the real pace from a
 * chosen instant. The whole test server (HTTP handlers, tokens, repositories) is built on it, and the
 * test's own calls of the jobs (`Plans.processDuePayouts` …) run on it too (`onTravelClock`). Sleeps
 * and timeouts are real. Tokens are minted on the travelled clock: sign in again after a jump.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Clock, type Duration, Effect, Layer } from "effect"
import { TestServer } from "./TestServer.js"

let offsetMs = 0
const live = Clock.make()
const nowMs = () => Date.now() + offsetMs

export const travelClock: Clock.Clock = {
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: nowMs,
  currentTimeMillis: Effect.sync(nowMs),
  unsafeCurrentTimeNanos: () => BigInt(nowMs()) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => BigInt(nowMs()) * 1_000_000n),
  sleep: (duration: Duration.Duration) => live.sleep(duration)
}

/**
 * From now on the clock reads `iso` (and runs on from there). Leases are judged by the database's
 * clock, which cannot travel: a jump forward moves every lease back by as much, so what would have
 * run out by then has (in the same order).
 */
export const travelTo = (iso: string) =>
  Effect.gen(function*() {
    const jumpMs = Date.parse(iso) - nowMs()
    offsetMs = Date.parse(iso) - Date.now()
    if (jumpMs <= 0) return
    const sql = yield* SqlClient.SqlClient
    const back = sql`(${jumpMs}::float8 * interval '1 millisecond')`
    yield* sql`UPDATE transactions SET lease_until = lease_until - ${back} WHERE lease_until IS NOT NULL`
    yield* sql`UPDATE disbursement_plans SET lease_until = lease_until - ${back} WHERE lease_until IS NOT NULL`
  }).pipe(Effect.orDie)

/** The test server, built on the travelling clock. */
export const TimeTravelServer = TestServer.pipe(Layer.provide(Layer.setClock(travelClock)))

/** Runs a test body (e.g. a scheduler job) on the travelling clock. */
export const onTravelClock = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.withClock(self, travelClock)
