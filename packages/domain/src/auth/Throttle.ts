/**
 * The guessing throttles of customer sign-in and one-time codes, on the one throttle store
 * (shared/Throttle.ts: the rules of claims, blocks and refunds): their trip metric and `guarded`.
 */
import { Effect, Metric } from "effect"
import { ThrottleStore, type ThrottleKey } from "../shared/Throttle.js"

/**
 * How many throttles tripped (a claim started a block), by scope: `sign_in_account`,
 * `sign_in_client`, `otp_account`. Served on /metrics as `auth_throttle_trips_total`.
 */
export const throttleTrips = Metric.counter("auth_throttle_trips_total", {
  description: "Guessing throttles that started a block (customer sign-in per account or client address, one-time codes per account)",
  incremental: true
})

export const countTrip = (scope: "sign_in_account" | "sign_in_client" | "otp_account") =>
  Metric.increment(Metric.tagged(throttleTrips, "scope", scope))

/** Claims and runs `check` (true = the secret was right), refunding a right one. */
export const guarded = <E, R>(
  keys: ReadonlyArray<ThrottleKey>,
  now: Date,
  check: Effect.Effect<boolean, E, R>
) =>
  Effect.gen(function*() {
    const throttle = yield* ThrottleStore
    const claim = yield* throttle.claim(keys, now)
    if (claim._tag === "Blocked") return claim
    const right = yield* check
    if (right) yield* throttle.refund(keys.map((k) => k.key), claim.started)
    return { _tag: "Checked" as const, right, started: claim.started }
  })
