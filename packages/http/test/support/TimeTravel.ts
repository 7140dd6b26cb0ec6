/**
 * Time travel for end-to-end tests of scheduled payouts: a Clock that runs at the real pace from a
 * chosen instant. The whole test server (HTTP handlers, tokens, repositories) is built on it, and the
 * test's own calls of the jobs (`Plans.processDuePayouts` …) run on it too (`onTravelClock`). Sleeps
 * and timeouts are real. Tokens are minted on the travelled clock: sign in again after a jump.
 */
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

/** From now on the clock reads `iso` (and runs on from there). */
export const travelTo = (iso: string) => Effect.sync(() => {
  offsetMs = Date.parse(iso) - Date.now()
})

/** The test server, built on the travelling clock. */
export const TimeTravelServer = TestServer.pipe(Layer.provide(Layer.setClock(travelClock)))

/** Runs a test body (e.g. a scheduler job) on the travelling clock. */
export const onTravelClock = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.withClock(self, travelClock)
