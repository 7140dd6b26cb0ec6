/**
 * GET /api/v1/banks and the beneficiary endpoints: NIP name enquiry (lookup), saving a verified
 * account, listing (default first), choosing the default, and the OTP-gated removal.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { api, expectFailure, expectSuccess, expectValidation, otherCode, post, UUID_PATTERN, verifiedAccount } from "./support/Fixtures.js"
import { actionOtp, get } from "./support/BankingFixtures.js"
import { TestServer } from "./support/TestServer.js"

const BENEFICIARIES = "/api/v1/beneficiaries"
const GTBANK = "000013"
const KUDA = "090267"
const NOT_FOUND = "Beneficiary not found"
const BAD_OTP = "Invalid or expired OTP"

const lookup = (accountNumber: string, bankCode: string, token?: string) =>
  get(`${BENEFICIARIES}/lookup?accountNumber=${encodeURIComponent(accountNumber)}&bankCode=${encodeURIComponent(bankCode)}`, token)

const save = (token: string, accountNumber: string, bankCode = GTBANK, bankName = "GTBank") =>
  post(BENEFICIARIES, { accountNumber, bankCode, bankName }, token)

const saved = (token: string, accountNumber: string, bankCode = GTBANK) =>
  Effect.map(save(token, accountNumber, bankCode), (r) => expectSuccess(r, { status: 201, apiObject: "Beneficiary" }))

const list = (token: string) =>
  Effect.map(get(BENEFICIARIES, token), (r) => expectSuccess(r, { apiObject: "Beneficiary" }) as Array<any>)

const setDefault = (token: string | undefined, id: string) => api("PATCH", `${BENEFICIARIES}/${id}/default`, undefined, token)

const remove = (token: string | undefined, id: string, body: unknown) => api("DELETE", `${BENEFICIARIES}/${id}`, body, token)

let accountSequence = 0
/** A fresh 10-digit account number at any listed bank. */
const accountNumber = () => {
  const n = (++accountSequence).toString().padStart(4, "0")
  return `01${n}${n}`
}

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("banks and beneficiaries", (it) => {
  describe("GET /api/v1/banks", () => {
    it.effect("public: at least 15 banks as {bankCode, bankName}, including GTBank 000013 and Kuda 090267", () =>
      Effect.gen(function*() {
        const reply = yield* get("/api/v1/banks")
        const banks = expectSuccess(reply, { apiObject: "Bank" }) as Array<any>
        expect(Array.isArray(banks)).toBe(true)
        expect(banks.length).toBeGreaterThanOrEqual(15)
        for (const bank of banks) {
          expect(Object.keys(bank).sort()).toEqual(["bankCode", "bankName"])
          expect(bank.bankCode).toMatch(/^\d{3,6}$/)
          expect(bank.bankName.length).toBeGreaterThan(2)
        }
        expect(new Set(banks.map((b) => b.bankCode)).size).toBe(banks.length)
        const codes = banks.map((b) => b.bankCode)
        for (const code of [GTBANK, KUDA, "000014", "000015", "000016", "000004", "090405", "100004"]) {
          expect(codes).toContain(code)
        }
        expect(banks.find((b) => b.bankCode === GTBANK)!.bankName).toMatch(/Guaranty Trust|GTBank/i)
        expect(banks.find((b) => b.bankCode === KUDA)!.bankName).toMatch(/Kuda/i)
      }))

    it.effect("the same list with a token", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("banks-token")
        const anonymous = expectSuccess(yield* get("/api/v1/banks"), { apiObject: "Bank" })
        expect(expectSuccess(yield* get("/api/v1/banks", account.accessToken), { apiObject: "Bank" })).toEqual(anonymous)
      }))
  })

  describe("GET /beneficiaries/lookup", () => {
    it.effect("any 10-digit account at a listed bank: 'SANDBOX ACCOUNT <last 4>' with a NIP session id", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("lookup")
        const reply = yield* lookup("0123456789", GTBANK, account.accessToken)
        const found = expectSuccess(reply, { apiObject: "Beneficiary" })
        expect(Object.keys(found).sort()).toEqual(["accountName", "accountNumber", "bankCode", "nipSessionId"])
        expect(found).toMatchObject({ accountName: "SANDBOX ACCOUNT 6789", accountNumber: "0123456789", bankCode: GTBANK })
        expect(typeof found.nipSessionId).toBe("string")
        expect(found.nipSessionId.length).toBeGreaterThan(0)
        const kuda = expectSuccess(yield* lookup("2233440001", KUDA, account.accessToken), { apiObject: "Beneficiary" })
        expect(kuda).toMatchObject({ accountName: "SANDBOX ACCOUNT 0001", accountNumber: "2233440001", bankCode: KUDA })
      }))

    it.effect("an account starting 999 → 400 not found; an unlisted bank code → 400", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("lookup-missing")
        expectFailure(yield* lookup("9990001234", GTBANK, account.accessToken), 400, "Account not found at that bank", "Beneficiary")
        expectFailure(yield* lookup("0123456789", "123456", account.accessToken), 400, "Invalid bank code", "Beneficiary")
        expectFailure(yield* lookup("0123456789", "999", account.accessToken), 400, "Invalid bank code", "Beneficiary")
      }))

    it.effect("validation: 9 or 11 digits, letters, a missing parameter → 400 fieldErrors", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("lookup-shape")
        for (const bad of ["012345678", "01234567890", "01234a6789", ""]) {
          expectValidation(yield* lookup(bad, GTBANK, account.accessToken), { fields: ["accountNumber"], apiObject: "Beneficiary" })
        }
        expectValidation(yield* lookup("0123456789", "gtb", account.accessToken), { fields: ["bankCode"], apiObject: "Beneficiary" })
        expectValidation(yield* get(`${BENEFICIARIES}/lookup?accountNumber=0123456789`, account.accessToken), {
          fields: ["bankCode"],
          apiObject: "Beneficiary"
        })
        expectValidation(yield* get(`${BENEFICIARIES}/lookup`, account.accessToken), {
          fields: ["accountNumber", "bankCode"],
          apiObject: "Beneficiary"
        })
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* lookup("0123456789", GTBANK), 401, "Authentication required", "Beneficiary")
      }))
  })

  describe("POST /beneficiaries and GET /beneficiaries", () => {
    it.effect("201 with the verified name and the bank list's name; the first is the default, later ones are not", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-add")
        expect(yield* list(account.accessToken)).toEqual([])
        const started = Date.now()
        const reply = yield* save(account.accessToken, "0011224321", GTBANK, "gtb")
        const first = expectSuccess(reply, { status: 201, apiObject: "Beneficiary", message: "Beneficiary saved." })
        expect(Object.keys(first).sort()).toEqual(["accountName", "accountNumber", "bankCode", "bankName", "createdAt", "id", "isDefault"])
        expect(first).toMatchObject({
          accountNumber: "0011224321",
          bankCode: GTBANK,
          accountName: "SANDBOX ACCOUNT 4321",
          isDefault: true
        })
        expect(first.bankName).toMatch(/Guaranty Trust/)
        expect(first.id).toMatch(UUID_PATTERN)
        expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt)
        expect(Date.parse(first.createdAt)).toBeGreaterThanOrEqual(started - 5_000)

        const second = yield* saved(account.accessToken, "0011225555", KUDA)
        expect(second).toMatchObject({ accountName: "SANDBOX ACCOUNT 5555", bankCode: KUDA, isDefault: false })
        // the same number at another bank is another beneficiary
        const third = yield* saved(account.accessToken, "0011224321", KUDA)
        expect(third.isDefault).toBe(false)

        const all = yield* list(account.accessToken)
        expect(all.map((b) => b.id)).toEqual([first.id, second.id, third.id])
        expect(all[0]).toEqual(first)
        expect(all.filter((b) => b.isDefault)).toHaveLength(1)
      }))

    it.effect("a duplicate → 400 'Beneficiary already saved'; nothing added", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-dup")
        yield* saved(account.accessToken, "0022334455")
        expectFailure(yield* save(account.accessToken, "0022334455"), 400, "Beneficiary already saved", "Beneficiary")
        expectFailure(yield* save(account.accessToken, "0022334455", GTBANK, "Another Name"), 400, "Beneficiary already saved", "Beneficiary")
        expect(yield* list(account.accessToken)).toHaveLength(1)
      }))

    it.effect("concurrent saves of the same account: exactly one is saved", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-dup-race")
        const replies = yield* Effect.all(Array.from({ length: 4 }, () => save(account.accessToken, "0022339999")), {
          concurrency: "unbounded"
        })
        expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
        for (const r of replies.filter((r) => r.status !== 201)) {
          expectFailure(r, 400, "Beneficiary already saved", "Beneficiary")
        }
        const all = yield* list(account.accessToken)
        expect(all).toHaveLength(1)
        expect(all[0].isDefault).toBe(true)
      }))

    it.effect("another customer may save the same account; each sees only their own", () =>
      Effect.gen(function*() {
        const a = yield* verifiedAccount("ben-own-a")
        const b = yield* verifiedAccount("ben-own-b")
        const mine = yield* saved(a.accessToken, "0033445566")
        const theirs = yield* saved(b.accessToken, "0033445566")
        expect(theirs.isDefault).toBe(true)
        expect(theirs.id).not.toBe(mine.id)
        expect((yield* list(a.accessToken)).map((x) => x.id)).toEqual([mine.id])
        expect((yield* list(b.accessToken)).map((x) => x.id)).toEqual([theirs.id])
      }))

    it.effect("not found (999…) → 400; unlisted bank code → 400; nothing saved", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-missing")
        expectFailure(yield* save(account.accessToken, "9991234567"), 400, "Account not found at that bank", "Beneficiary")
        expectFailure(yield* save(account.accessToken, "0123456789", "123456"), 400, "Invalid bank code", "Beneficiary")
        expect(yield* list(account.accessToken)).toEqual([])
      }))

    it.effect("validation: bad account number, bank code, missing fields → 400 fieldErrors", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-shape")
        expectValidation(yield* save(account.accessToken, "012345678"), { fields: ["accountNumber"], apiObject: "Beneficiary" })
        expectValidation(yield* save(account.accessToken, "0123456789", "ab"), { fields: ["bankCode"], apiObject: "Beneficiary" })
        expectValidation(yield* post(BENEFICIARIES, { accountNumber: "0123456789", bankCode: GTBANK }, account.accessToken), {
          fields: ["bankName"],
          apiObject: "Beneficiary"
        })
        expectValidation(yield* post(BENEFICIARIES, {}, account.accessToken), {
          fields: ["accountNumber", "bankCode", "bankName"],
          apiObject: "Beneficiary"
        })
        expect(yield* list(account.accessToken)).toEqual([])
      }))

    it.effect("401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* post(BENEFICIARIES, { accountNumber: "0123456789", bankCode: GTBANK, bankName: "GTBank" }), 401, "Authentication required", "Beneficiary")
        expectFailure(yield* get(BENEFICIARIES), 401, "Authentication required", "Beneficiary")
      }))
  })

  describe("PATCH /beneficiaries/{id}/default", () => {
    it.effect("200: the chosen one becomes the only default and is listed first", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-default")
        const a = yield* saved(account.accessToken, accountNumber())
        const b = yield* saved(account.accessToken, accountNumber())
        const c = yield* saved(account.accessToken, accountNumber())
        const reply = yield* setDefault(account.accessToken, c.id)
        const updated = expectSuccess(reply, { apiObject: "Beneficiary", message: "Default beneficiary updated." })
        expect(updated).toMatchObject({ id: c.id, accountNumber: c.accountNumber, isDefault: true })
        const all = yield* list(account.accessToken)
        expect(all.map((x) => x.id)).toEqual([c.id, a.id, b.id])
        expect(all.map((x) => x.isDefault)).toEqual([true, false, false])
        // setting the current default again is harmless
        expectSuccess(yield* setDefault(account.accessToken, c.id), { apiObject: "Beneficiary" })
        expect((yield* list(account.accessToken)).filter((x) => x.isDefault).map((x) => x.id)).toEqual([c.id])
        // and back
        expectSuccess(yield* setDefault(account.accessToken, b.id), { apiObject: "Beneficiary" })
        expect((yield* list(account.accessToken)).map((x) => x.id)).toEqual([b.id, a.id, c.id])
      }))

    it.effect("concurrent changes of the default leave exactly one default", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-default-race")
        const all = [
          yield* saved(account.accessToken, accountNumber()),
          yield* saved(account.accessToken, accountNumber()),
          yield* saved(account.accessToken, accountNumber()),
          yield* saved(account.accessToken, accountNumber())
        ]
        const replies = yield* Effect.all(all.slice(1).map((b) => setDefault(account.accessToken, b.id)), { concurrency: "unbounded" })
        for (const reply of replies) expectSuccess(reply, { apiObject: "Beneficiary" })
        const after = yield* list(account.accessToken)
        expect(after).toHaveLength(4)
        expect(after.filter((b) => b.isDefault)).toHaveLength(1)
        expect(after[0].isDefault).toBe(true)
        expect(all.slice(1).map((b) => b.id)).toContain(after[0].id)
      }))

    it.effect("another customer's id or an unknown id → 404; nothing changes for either", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("ben-default-owner")
        const other = yield* verifiedAccount("ben-default-other")
        const first = yield* saved(owner.accessToken, accountNumber())
        const second = yield* saved(owner.accessToken, accountNumber())
        const own = yield* saved(other.accessToken, accountNumber())
        expectFailure(yield* setDefault(other.accessToken, second.id), 404, NOT_FOUND, "Beneficiary")
        expectFailure(yield* setDefault(other.accessToken, randomUUID()), 404, NOT_FOUND, "Beneficiary")
        expect((yield* list(owner.accessToken)).map((x) => [x.id, x.isDefault])).toEqual([[first.id, true], [second.id, false]])
        expect((yield* list(other.accessToken)).map((x) => [x.id, x.isDefault])).toEqual([[own.id, true]])
      }))

    it.effect("a malformed id → 400 validation; no token → 401", () =>
      Effect.gen(function*() {
        const account = yield* verifiedAccount("ben-default-bad")
        expectValidation(yield* setDefault(account.accessToken, "not-a-uuid"), { apiObject: "Beneficiary" })
        expectValidation(yield* setDefault(account.accessToken, "123"), { apiObject: "Beneficiary" })
        expectFailure(yield* setDefault(undefined, randomUUID()), 401, "Authentication required", "Beneficiary")
      }))
  })

  describe("DELETE /beneficiaries/{id} (OTP-gated)", () => {
    it.effect("wrong code → 401 and kept; another customer's → 404; each spends its code; the right code removes and promotes the next; two removals back to back need no wait", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("ben-del")
        const other = yield* verifiedAccount("ben-del-other")
        const first = yield* saved(owner.accessToken, accountNumber())
        const second = yield* saved(owner.accessToken, accountNumber())
        const third = yield* saved(owner.accessToken, accountNumber())
        const foreign = yield* saved(other.accessToken, accountNumber())
        const otp = yield* actionOtp(owner.accessToken, owner.email)

        // wrong code: 401, nothing removed, and the code is spent (one guess per code)
        expectFailure(
          yield* remove(owner.accessToken, first.id, { otpPinId: otp.otpPinId, otpCode: otherCode(otp.otpCode) }),
          401,
          BAD_OTP,
          "Beneficiary"
        )
        expectFailure(yield* remove(owner.accessToken, first.id, otp), 401, BAD_OTP, "Beneficiary")
        expect((yield* list(owner.accessToken)).map((x) => x.id)).toEqual([first.id, second.id, third.id])

        // another customer's beneficiary, or an unknown id, with a valid code: 404 (the code is spent)
        const forForeign = yield* actionOtp(owner.accessToken, owner.email)
        expectFailure(yield* remove(owner.accessToken, foreign.id, forForeign), 404, NOT_FOUND, "Beneficiary")
        const forUnknown = yield* actionOtp(owner.accessToken, owner.email)
        expectFailure(yield* remove(owner.accessToken, randomUUID(), forUnknown), 404, NOT_FOUND, "Beneficiary")
        expectFailure(yield* remove(owner.accessToken, first.id, forUnknown), 401, BAD_OTP, "Beneficiary")
        expect((yield* list(other.accessToken)).map((x) => x.id)).toEqual([foreign.id])

        // the right code removes the default; the oldest remaining one is promoted
        const fresh = yield* actionOtp(owner.accessToken, owner.email)
        const removed = yield* remove(owner.accessToken, first.id, fresh)
        expect(expectSuccess(removed, { apiObject: "Beneficiary", message: "Beneficiary removed." })).toEqual({})
        const after = yield* list(owner.accessToken)
        expect(after.map((x) => [x.id, x.isDefault])).toEqual([[second.id, true], [third.id, false]])

        // the code is spent
        expectFailure(yield* remove(owner.accessToken, third.id, fresh), 401, BAD_OTP, "Beneficiary")
        expect((yield* list(owner.accessToken)).map((x) => x.id)).toEqual([second.id, third.id])
        // and the removed one is gone
        expectFailure(yield* setDefault(owner.accessToken, first.id), 404, NOT_FOUND, "Beneficiary")

        // the next removal right after: a new code at once, no cooldown to wait out
        const next = yield* actionOtp(owner.accessToken, owner.email)
        expectSuccess(yield* remove(owner.accessToken, third.id, next), { apiObject: "Beneficiary" })
        expect((yield* list(owner.accessToken)).map((x) => x.id)).toEqual([second.id])

        // five codes in this quarter hour: the sixth is refused with the seconds to wait
        const refused = yield* post("/api/v1/auth/otp/request", undefined, owner.accessToken)
        const error = expectFailure(refused, 429, /^Please wait \d+ seconds/)
        expect(error.code).toBe("OTP_COOLDOWN")
        expect(error.retryAfterSeconds).toBeGreaterThan(890)
        expect(refused.headers["retry-after"]).toBe(String(error.retryAfterSeconds))
      }))

    it.effect("one code, two removals at once: exactly one succeeds", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("ben-del-race")
        const first = yield* saved(owner.accessToken, accountNumber())
        const second = yield* saved(owner.accessToken, accountNumber())
        const third = yield* saved(owner.accessToken, accountNumber())
        const otp = yield* actionOtp(owner.accessToken, owner.email)
        const replies = yield* Effect.all([remove(owner.accessToken, second.id, otp), remove(owner.accessToken, third.id, otp)], {
          concurrency: "unbounded"
        })
        expect(replies.map((r) => r.status).sort()).toEqual([200, 401])
        expectFailure(replies.find((r) => r.status === 401)!, 401, BAD_OTP, "Beneficiary")
        const left = yield* list(owner.accessToken)
        expect(left).toHaveLength(2)
        expect(left[0]).toMatchObject({ id: first.id, isDefault: true })
      }))

    it.effect("removing a non-default keeps the default; a code issued to another customer → 401", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("ben-del-nondefault")
        const stranger = yield* verifiedAccount("ben-del-stranger")
        const first = yield* saved(owner.accessToken, accountNumber())
        const second = yield* saved(owner.accessToken, accountNumber())
        const strangers = yield* actionOtp(stranger.accessToken, stranger.email)
        expectFailure(yield* remove(owner.accessToken, second.id, strangers), 401, BAD_OTP, "Beneficiary")
        expect(yield* list(owner.accessToken)).toHaveLength(2)

        const otp = yield* actionOtp(owner.accessToken, owner.email)
        expectSuccess(yield* remove(owner.accessToken, second.id, otp), { apiObject: "Beneficiary" })
        expect((yield* list(owner.accessToken)).map((x) => [x.id, x.isDefault])).toEqual([[first.id, true]])
      }))

    it.effect("removing the last one leaves an empty list; a new save becomes the default", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("ben-del-last")
        const only = yield* saved(owner.accessToken, accountNumber())
        expectSuccess(yield* remove(owner.accessToken, only.id, yield* actionOtp(owner.accessToken, owner.email)), {
          apiObject: "Beneficiary"
        })
        expect(yield* list(owner.accessToken)).toEqual([])
        const again = yield* saved(owner.accessToken, only.accountNumber)
        expect(again.isDefault).toBe(true)
        expect(again.id).not.toBe(only.id)
      }))

    it.effect("validation: missing or malformed otpPinId/otpCode, malformed id → 400; no token → 401", () =>
      Effect.gen(function*() {
        const owner = yield* verifiedAccount("ben-del-shape")
        const only = yield* saved(owner.accessToken, accountNumber())
        expectValidation(yield* remove(owner.accessToken, only.id, {}), { fields: ["otpPinId", "otpCode"], apiObject: "Beneficiary" })
        // otpPinId is opaque: a malformed one is an invalid code, not a validation error
        expect(expectFailure(yield* remove(owner.accessToken, only.id, { otpPinId: "x", otpCode: "123456" }), 401, BAD_OTP, "Beneficiary").code).toBe("OTP_INVALID")
        expectValidation(yield* remove(owner.accessToken, only.id, { otpPinId: randomUUID(), otpCode: "12345" }), {
          fields: ["otpCode"],
          apiObject: "Beneficiary"
        })
        expectValidation(yield* remove(owner.accessToken, "nope", { otpPinId: randomUUID(), otpCode: "123456" }), {
          apiObject: "Beneficiary"
        })
        expectFailure(yield* remove(undefined, only.id, { otpPinId: randomUUID(), otpCode: "123456" }), 401, "Authentication required", "Beneficiary")
        expect(yield* list(owner.accessToken)).toHaveLength(1)
      }))
  })
})
