/** POST /api/v1/auth/verify-bvn: the registry's identity, kycStatus, every refusal, and the BVN never leaving the server. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import {
  expectFailure,
  expectSuccess,
  expectValidation,
  login,
  me,
  post,
  uniqueEmail,
  uniquePhone,
  verifiedAccount
} from "./support/Fixtures.js"
import { ADA, bvnBody, CHIDI, storedCustomerText, uniqueBvn, verifyBvn } from "./support/BankingFixtures.js"
import { outboxFile, TestServer } from "./support/TestServer.js"

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("verify-bvn", (it) => {
  describe("success", () => {
    it.effect("returns the registry's {firstName, lastName, phone}; the profile shows bvn_verified, the registry's names and the details given", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-ok")
        const before = expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" })
        expect(before.kycStatus).toBe("pending")

        const phone = uniquePhone()
        const body = bvnBody({ phone: phone.national, firstName: "ADA", lastName: " obi ", gender: "female" })
        const reply = yield* verifyBvn(body, account.accessToken)
        const result = expectSuccess(reply, { apiObject: "Auth", message: "BVN verified." })
        expect(result).toEqual({ firstName: ADA.firstName, lastName: ADA.lastName, phone: ADA.phone })

        const after = yield* me(account.accessToken)
        const profile = expectSuccess(after, { apiObject: "Customer" })
        expect(profile).toMatchObject({
          kycStatus: "bvn_verified",
          customerStatus: "verified",
          firstName: "Ada",
          lastName: "Obi",
          phone: phone.e164,
          dateOfBirth: ADA.dateOfBirth,
          gender: "female",
          address: body.address
        })
        for (const text of [reply.text, after.text]) expect(text).not.toContain(body.bvn)
      }))

    it.effect("the listed registry entry 11111111111 is Chidi Okeke, born 1985-05-15", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-chidi")
        const wrong = yield* verifyBvn(bvnBody({ bvn: CHIDI.bvn, dateOfBirth: ADA.dateOfBirth }), account.accessToken)
        expectFailure(wrong, 400, "Date of birth does not match the BVN record")
        const result = expectSuccess(
          yield* verifyBvn(
            bvnBody({ bvn: CHIDI.bvn, firstName: CHIDI.firstName, lastName: CHIDI.lastName, dateOfBirth: CHIDI.dateOfBirth, gender: "male" }),
            account.accessToken
          )
        )
        expect(result).toMatchObject({ firstName: CHIDI.firstName, lastName: CHIDI.lastName })
        expect(result.phone).toMatch(/^(\+234|0)\d{10}$/)
      }))

    it.effect("an unverified (email not confirmed) customer may verify the BVN", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("bvn-unverified")
        expectSuccess(yield* post("/api/v1/auth/register", { email, password: "bvn-unverified-1" }), { status: 201 })
        const tokens = expectSuccess(yield* login({ email, password: "bvn-unverified-1" }))
        expectSuccess(yield* verifyBvn(bvnBody(), tokens.accessToken))
        expect(expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })).toMatchObject({
          kycStatus: "bvn_verified",
          customerStatus: "unverified"
        })
      }))
  })

  describe("refusals (400), kycStatus unchanged", () => {
    it.effect("unknown BVN 00000000000 → 400 'BVN not found'", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-unknown")
        expectFailure(yield* verifyBvn(bvnBody({ bvn: "00000000000" }), account.accessToken), 400, "BVN not found")
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
      }))

    it.effect("date of birth mismatch → 400; the right date then succeeds", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-dob")
        const body = bvnBody({ dateOfBirth: "1990-01-02" })
        expectFailure(yield* verifyBvn(body, account.accessToken), 400, "Date of birth does not match the BVN record")
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
        expectSuccess(yield* verifyBvn({ ...body, dateOfBirth: ADA.dateOfBirth }, account.accessToken))
      }))

    it.effect("already verified → 400 'BVN already verified' (same BVN or another)", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-twice")
        const body = bvnBody()
        expectSuccess(yield* verifyBvn(body, account.accessToken))
        expectFailure(yield* verifyBvn(body, account.accessToken), 400, "BVN already verified")
        expectFailure(yield* verifyBvn(bvnBody(), account.accessToken), 400, "BVN already verified")
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).kycStatus).toBe("bvn_verified")
      }))

    it.effect("the same BVN on a second customer → 400 'BVN already associated with another account'", () =>
      Effect.gen(function*() {
        const first = yield* verifiedAccount("bvn-owner")
        const second = yield* verifiedAccount("bvn-thief")
        const bvn = uniqueBvn()
        expectSuccess(yield* verifyBvn(bvnBody({ bvn }), first.accessToken))
        const reply = yield* verifyBvn(bvnBody({ bvn }), second.accessToken)
        expectFailure(reply, 400, "BVN already associated with another account")
        expect(reply.text).not.toContain(bvn)
        expect(reply.text).not.toContain(first.email)
        expect(expectSuccess(yield* me(second.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
      }))

    it.effect("the same BVN from two customers at once: exactly one wins", () =>
      Effect.gen(function*() {
        const a = yield* verifiedAccount("bvn-race-a")
        const b = yield* verifiedAccount("bvn-race-b")
        const bvn = uniqueBvn()
        const replies = yield* Effect.all(
          [verifyBvn(bvnBody({ bvn }), a.accessToken), verifyBvn(bvnBody({ bvn }), b.accessToken)],
          { concurrency: "unbounded" }
        )
        expect(replies.map((r) => r.status).sort()).toEqual([200, 400])
        const loser = replies.find((r) => r.status === 400)!
        expectFailure(loser, 400, "BVN already associated with another account")
      }))

    it.effect("a phone number registered to another account → 400 'Phone number already registered'", () =>
      Effect.gen(function*() {
        const holder = yield* verifiedAccount("bvn-phone-holder", { withPhone: true })
        const account = yield* verifiedAccount("bvn-phone-taker")
        const reply = yield* verifyBvn(bvnBody({ phone: holder.phone!.national }), account.accessToken)
        expectFailure(reply, 400, "Phone number already registered")
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
      }))
  })

  describe("authentication", () => {
    it.effect("401 'Authentication required' without a token or with a bad one", () =>
      Effect.gen(function*() {
        expectFailure(yield* verifyBvn(bvnBody()), 401, "Authentication required")
        expectFailure(yield* verifyBvn(bvnBody(), "not-a-token"), 401, "Authentication required")
      }))
  })

  describe("validation → 400 'Validation error' with fieldErrors", () => {
    it.effect("a 10-digit, 12-digit or non-numeric BVN", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-shape")
        for (const bvn of ["1234567890", "123456789012", "1234567890a", "", 12345678901]) {
          expectValidation(yield* verifyBvn(bvnBody({ bvn }), account.accessToken), { fields: ["bvn"] })
        }
        expect(expectSuccess(yield* me(account.accessToken), { apiObject: "Customer" }).kycStatus).toBe("pending")
      }))

    it.effect("a bad date of birth, gender, phone or short address", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-fields")
        for (const dateOfBirth of ["1990-02-30", "01/01/1990", "1990-1-1"]) {
          expectValidation(yield* verifyBvn(bvnBody({ dateOfBirth }), account.accessToken), { fields: ["dateOfBirth"] })
        }
        expectValidation(yield* verifyBvn(bvnBody({ gender: "other" }), account.accessToken), { fields: ["gender"] })
        expectValidation(yield* verifyBvn(bvnBody({ phone: "12345" }), account.accessToken), { fields: ["phone"] })
        expectValidation(yield* verifyBvn(bvnBody({ address: "abc" }), account.accessToken), { fields: ["address"] })
        const several = expectValidation(
          yield* verifyBvn(bvnBody({ bvn: "1", dateOfBirth: "x", firstName: "" }), account.accessToken),
          { fields: ["bvn", "dateOfBirth", "firstName"] }
        )
        expect(several.fieldErrors).not.toHaveProperty("lastName")
      }))

    it.effect("missing fields: every one is named 'Required'", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-missing")
        const error = expectValidation(yield* verifyBvn({}, account.accessToken), {
          fields: ["bvn", "firstName", "lastName", "phone", "address", "gender", "dateOfBirth"]
        })
        expect(error.fieldErrors.bvn).toContain("Required")
        const { bvn: _, ...withoutBvn } = bvnBody()
        const one = expectValidation(yield* verifyBvn(withoutBvn, account.accessToken), { fields: ["bvn"] })
        expect(Object.keys(one.fieldErrors)).toEqual(["bvn"])
      }))
  })

  describe("the BVN is never sent back, mailed or stored in clear", () => {
    it.effect("not in any response, the outbox, or the customer's rows", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("bvn-secret")
        const other = yield* verifiedAccount("bvn-secret-other")
        const body = bvnBody()
        const texts: Array<string> = []
        texts.push((yield* verifyBvn({ ...body, dateOfBirth: "1991-01-01" }, account.accessToken)).text)
        texts.push((yield* verifyBvn({ ...body, bvn: body.bvn.slice(1) }, account.accessToken)).text)
        texts.push((yield* verifyBvn(body, account.accessToken)).text)
        texts.push((yield* verifyBvn(body, account.accessToken)).text)
        texts.push((yield* verifyBvn(body, other.accessToken)).text)
        texts.push((yield* me(account.accessToken)).text)
        expect(texts).toHaveLength(6)
        for (const text of texts) expect(text).not.toContain(body.bvn)
        const outbox = fs.existsSync(outboxFile) ? fs.readFileSync(outboxFile, "utf8") : ""
        expect(outbox.length).toBeGreaterThan(0)
        expect(outbox).not.toContain(body.bvn)
        const stored = yield* storedCustomerText(account.id)
        expect(stored).toContain("bvn_verified")
        expect(stored).not.toContain(body.bvn)
      }))
  })
})
