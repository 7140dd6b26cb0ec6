/**
 * The customer sign-in throttle (issue 37, item 4), played by the attacker: 60 wrong passwords at
 * once used to cost 60 argon2 hashes and the right one then worked. Now: at most 5 failures per
 * account (an email or phone with no account alike) and, looser, per client address (X-Forwarded-For
 * from a trusted proxy: loopback plays the proxy), within 15 minutes; past either, 429 with
 * Retry-After and no password checked. A client address's trip raises a staff alert.
 */
import { HttpClientRequest } from "@effect/platform"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminGet, adminServer, rootToken } from "./support/AdminFixtures.js"
import { checkInvariants, expectFailure, expectSuccess, register, uniqueEmail } from "./support/Fixtures.js"
import { send } from "./support/TestServer.js"

const PER_CLIENT = 12
const server = adminServer({
  trustedProxies: ["127.0.0.1", "::1"],
  signInThrottle: { maxFailuresPerAccount: 5, maxFailuresPerClient: PER_CLIENT, windowMinutes: 15 }
})

let lastOctet = 0
/** A client address of its own, so a test counts only its own failures per address. */
const freshAddress = () => `203.0.${Math.floor(++lastOctet / 250)}.${(lastOctet % 250) + 1}`

const loginFrom = (address: string, body: Record<string, unknown>) =>
  Effect.map(
    send(HttpClientRequest.post("/api/v1/auth/login").pipe(
      HttpClientRequest.setHeader("x-forwarded-for", address),
      HttpClientRequest.bodyUnsafeJson(body)
    )),
    checkInvariants
  )

const throttled = (reply: { status: number; body: any; text: string; headers: Record<string, string> }) => {
  const error = expectFailure(reply, 429, "Too many failed sign-in attempts; try again later")
  expect(error.code).toBe("SIGN_IN_THROTTLED")
  expect(error.retryAfterSeconds).toBeGreaterThan(14 * 60)
  expect(error.retryAfterSeconds).toBeLessThanOrEqual(15 * 60)
  expect(Number(reply.headers["retry-after"])).toBe(error.retryAfterSeconds)
  return error
}

layer(server, { excludeTestServices: true, timeout: "300 seconds" })("customer sign-in throttle", (it) => {
  describe("per account", () => {
    it.effect("60 wrong passwords at once: exactly 5 are checked (401), 55 refused (429); then the right one is 429 too", () =>
      Effect.gen(function*() {
        const victim = yield* register("throttle-burst", { withPhone: true })
        const replies = yield* Effect.all(
          Array.from({ length: 60 }, (_, i) => loginFrom(freshAddress(), { email: victim.email, password: `wrong-guess-${i}` })),
          { concurrency: "unbounded" }
        )
        expect(replies.filter((r) => r.status === 401)).toHaveLength(5)
        expect(replies.filter((r) => r.status === 429)).toHaveLength(55)
        for (const r of replies.filter((r) => r.status === 429)) throttled(r)
        throttled(yield* loginFrom(freshAddress(), { email: victim.email, password: victim.password }))
        // by phone it is the same account, so the same block
        throttled(yield* loginFrom(freshAddress(), { phone: victim.phone!.national, password: victim.password }))
      }))

    it.effect("an email with no account is throttled the same way (no enumeration)", () =>
      Effect.gen(function*() {
        const known = yield* register("throttle-known")
        const unknown = uniqueEmail("throttle-nobody")
        const address = freshAddress()
        for (let i = 0; i < 5; i++) {
          const a = expectFailure(yield* loginFrom(address, { email: known.email, password: "wrong-password" }), 401, "Invalid credentials")
          const b = expectFailure(yield* loginFrom(freshAddress(), { email: unknown, password: "wrong-password" }), 401, "Invalid credentials")
          expect(b).toEqual(a)
        }
        const a = throttled(yield* loginFrom(freshAddress(), { email: known.email, password: known.password }))
        const b = throttled(yield* loginFrom(freshAddress(), { email: unknown, password: "wrong-password" }))
        expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort())
      }))

    it.effect("failures by email and by phone count together; a right password is never counted as a failure", () =>
      Effect.gen(function*() {
        const owner = yield* register("throttle-mixed", { withPhone: true })
        for (let i = 0; i < 2; i++) expectFailure(yield* loginFrom(freshAddress(), { email: owner.email, password: "wrong-password" }), 401, "Invalid credentials")
        for (let i = 0; i < 2; i++) expectFailure(yield* loginFrom(freshAddress(), { phone: owner.phone!.national, password: "wrong-password" }), 401, "Invalid credentials")
        // right passwords in between leave the count of failures where it was
        for (let i = 0; i < 3; i++) expectSuccess(yield* loginFrom(freshAddress(), { email: owner.email, password: owner.password }), { message: "Signed in." })
        expectFailure(yield* loginFrom(freshAddress(), { email: owner.email, password: "wrong-password" }), 401, "Invalid credentials")
        throttled(yield* loginFrom(freshAddress(), { phone: owner.phone!.national, password: owner.password }))
      }))

    it.effect("the block ends with its window: the right password then works", () =>
      Effect.gen(function*() {
        const owner = yield* register("throttle-ends")
        for (let i = 0; i < 5; i++) expectFailure(yield* loginFrom(freshAddress(), { email: owner.email, password: "wrong-password" }), 401, "Invalid credentials")
        throttled(yield* loginFrom(freshAddress(), { email: owner.email, password: owner.password }))
        // 15 minutes later (moved in the database: the server runs on the real clock)
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          UPDATE throttles SET window_started_at = window_started_at - interval '16 minutes',
            blocked_until = blocked_until - interval '16 minutes'
          WHERE key = ${`sa:${owner.id}`}`.pipe(Effect.orDie)
        expectSuccess(yield* loginFrom(freshAddress(), { email: owner.email, password: owner.password }), { message: "Signed in." })
      }))
  })

  describe("per client address", () => {
    it.effect(`${PER_CLIENT} failures from one address across accounts: that address is refused, others are not; staff are alerted`, () =>
      Effect.gen(function*() {
        const address = freshAddress()
        const target = yield* register("throttle-client-target")
        for (let i = 0; i < PER_CLIENT; i++) {
          expectFailure(yield* loginFrom(address, { email: uniqueEmail("stuffed"), password: "password123" }), 401, "Invalid credentials")
        }
        throttled(yield* loginFrom(address, { email: target.email, password: target.password }))
        // the account itself is not blocked: from another address the right password works
        expectSuccess(yield* loginFrom(freshAddress(), { email: target.email, password: target.password }), { message: "Signed in." })
        const alerts = expectSuccess(yield* adminGet("/api/v1/admin/alerts", yield* rootToken), { apiObject: "Admin" }) as Array<any>
        const alert = alerts.find((a) => a.kind === "sign_in_throttled" && a.message.includes(address))
        expect(alert).toMatchObject({ severity: "warning", occurrences: 1 })
        expect(alert.message).not.toContain("password123")
      }))
  })
})
