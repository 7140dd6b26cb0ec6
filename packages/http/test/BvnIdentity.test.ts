/**
 * Issue 37, item 2: KYC must not pass on someone else's BVN. Played by the attacker over HTTP: the
 * date of birth alone no longer opens the door (the registry's names must match, in any case,
 * spacing, diacritics or order), the profile takes the registry's names, guessing is capped at 3
 * failed verifications per customer per 24 hours (then 429 with Retry-After and a staff alert,
 * even for the right answer), and "BVN already associated with another account" is only said to
 * someone who already proved they know the BVN's holder.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectFailure, expectSuccess, me, verifiedAccount } from "./support/Fixtures.js"
import { ADA, bvnBody, CHIDI, uniqueBvn, verifyBvn } from "./support/BankingFixtures.js"
import { TestServer } from "./support/TestServer.js"

const DAY_SECONDS = 24 * 60 * 60

const openAlerts = (customerAccountId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ kind: string; severity: string; occurrences: number }>`
      SELECT a.kind, a.severity, a.occurrences FROM staff_alerts a JOIN customers cu ON cu.id = a.customer_id
      WHERE cu.account_id = ${customerAccountId} AND a.acknowledged_at IS NULL`)

layer(TestServer, { excludeTestServices: true, timeout: "90 seconds" })("verify-bvn against an impostor", (it) => {
  describe("the registry's names must match", () => {
    it.effect("Mallory Impostor with Chidi Okeke's BVN and the right date of birth is refused; nothing stored", () =>
      Effect.gen(function*() {
        const mallory = yield* verifiedAccount("bvn-mallory")
        const reply = yield* verifyBvn(
          bvnBody({ bvn: CHIDI.bvn, firstName: "Mallory", lastName: "Impostor", dateOfBirth: CHIDI.dateOfBirth, gender: "male" }),
          mallory.accessToken
        )
        const error = expectFailure(reply, 400, "Name does not match the BVN record")
        expect(error.code).toBe("BVN_NAME_MISMATCH")
        // no hint of whose BVN it is
        expect(reply.text).not.toMatch(/chidi|okeke/i)
        const profile = expectSuccess(yield* me(mallory.accessToken), { apiObject: "Customer" })
        expect(profile.kycStatus).toBe("pending")
        // one name right is not enough
        expectFailure(
          yield* verifyBvn(bvnBody({ bvn: CHIDI.bvn, firstName: "Chidi", lastName: "Impostor", dateOfBirth: CHIDI.dateOfBirth }), mallory.accessToken),
          400,
          "Name does not match the BVN record"
        )
      }))

    it.effect("case, spacing, diacritics and order do not matter; the profile takes the registry's names", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("bvn-names-loose")
        const result = expectSuccess(
          yield* verifyBvn(bvnBody({ firstName: "  ÒBÍ ", lastName: "ádà" }), ada.accessToken),
          { message: "BVN verified." }
        )
        expect(result).toMatchObject({ firstName: ADA.firstName, lastName: ADA.lastName })
        const profile = expectSuccess(yield* me(ada.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({ kycStatus: "bvn_verified", firstName: "Ada", lastName: "Obi" })
      }))
  })

  describe("at most 3 failed verifications per customer per 24 hours", () => {
    it.effect("the 4th try is 429 with Retry-After, even with every answer right; staff are alerted; 24 hours later it opens again", () =>
      Effect.gen(function*() {
        const guesser = yield* verifiedAccount("bvn-guesser")
        const bvn = uniqueBvn()
        for (const dateOfBirth of ["1990-01-02", "1990-01-03", "1990-01-04"]) {
          expectFailure(yield* verifyBvn(bvnBody({ bvn, dateOfBirth }), guesser.accessToken), 400, "Date of birth does not match the BVN record")
        }
        const right = bvnBody({ bvn })
        const refused = yield* verifyBvn(right, guesser.accessToken)
        const error = expectFailure(refused, 429, /Too many failed BVN verifications/)
        expect(error.code).toBe("BVN_VERIFICATION_THROTTLED")
        expect(error.retryAfterSeconds).toBeGreaterThan(DAY_SECONDS - 120)
        expect(error.retryAfterSeconds).toBeLessThanOrEqual(DAY_SECONDS)
        expect(Number(refused.headers["retry-after"])).toBe(error.retryAfterSeconds)
        expect(expectSuccess(yield* me(guesser.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
        const alerts = yield* openAlerts(guesser.id)
        expect(alerts.map((a) => [a.kind, a.severity])).toEqual([["bvn_verification_throttled", "warning"]])

        // a day later the block has ended (moved in the database: the server runs on the real clock)
        const sql = yield* SqlClient.SqlClient
        yield* sql`
          UPDATE throttles SET window_started_at = window_started_at - interval '24 hours',
            blocked_until = blocked_until - interval '24 hours'
          WHERE key = ${`bvn:${guesser.id}`}`
        expectSuccess(yield* verifyBvn(right, guesser.accessToken), { message: "BVN verified." })
      }))

    it.effect("an unknown BVN and a wrong name count too; a burst of 12 concurrent guesses gets at most 3 answers", () =>
      Effect.gen(function*() {
        const burst = yield* verifiedAccount("bvn-burst")
        const guesses = Array.from({ length: 12 }, (_, i) => bvnBody({ dateOfBirth: `1970-01-${String(i + 10).padStart(2, "0")}` }))
        const replies = yield* Effect.all(guesses.map((g) => verifyBvn(g, burst.accessToken)), { concurrency: "unbounded" })
        const statuses = replies.map((r) => r.status)
        expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(3)
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9)
        expect(statuses.every((s) => s === 400 || s === 429)).toBe(true)

        const other = yield* verifiedAccount("bvn-mixed")
        expectFailure(yield* verifyBvn(bvnBody({ bvn: "00000000000" }), other.accessToken), 400, "BVN not found")
        expectFailure(yield* verifyBvn(bvnBody({ lastName: "Okafor" }), other.accessToken), 400, "Name does not match the BVN record")
        expectFailure(yield* verifyBvn(bvnBody({ dateOfBirth: "1991-01-01" }), other.accessToken), 400, /Date of birth/)
        expectFailure(yield* verifyBvn(bvnBody(), other.accessToken), 429, /Too many failed BVN verifications/)
      }))
  })

  describe("no oracle of which BVNs are registered here", () => {
    it.effect("a BVN held by another customer answers like any wrong guess until name and date of birth are right", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("bvn-held-owner")
        const prober = yield* verifiedAccount("bvn-held-prober")
        const bvn = uniqueBvn()
        expectSuccess(yield* verifyBvn(bvnBody({ bvn }), owner.accessToken))
        const wrongName = yield* verifyBvn(bvnBody({ bvn, firstName: "Probe", lastName: "Er" }), prober.accessToken)
        expect(expectFailure(wrongName, 400, "Name does not match the BVN record").code).toBe("BVN_NAME_MISMATCH")
        const wrongDate = yield* verifyBvn(bvnBody({ bvn, dateOfBirth: "1980-01-01" }), prober.accessToken)
        expect(expectFailure(wrongDate, 400, "Date of birth does not match the BVN record").code).toBe("BVN_DATE_OF_BIRTH_MISMATCH")
        // only someone who knows the holder's name and date of birth learns the BVN is taken
        const taken = yield* verifyBvn(bvnBody({ bvn }), prober.accessToken)
        expect(expectFailure(taken, 400, "BVN already associated with another account").code).toBe("BVN_TAKEN")
        expect(expectSuccess(yield* me(prober.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
      }))
  })
})
