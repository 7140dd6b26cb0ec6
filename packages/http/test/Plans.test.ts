/**
 * Disbursement plans end to end: the fee quote, creating and editing a plan (POST), the OTP-gated
 * edit (PATCH, with a code from either OTP request endpoint), reading it (GET, /customers/me),
 * authentication of every endpoint and the OpenAPI document. Money movements (payouts, Borrow,
 * Extra Cash) are in PlansMoney.test.ts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { actionOtp, bankCustomer, get } from "./support/BankingFixtures.js"
import {
  api,
  expectFailure,
  expectSuccess,
  expectValidation,
  expireOtps,
  me,
  otherCode,
  post,
  UUID_PATTERN,
  verifiedAccount
} from "./support/Fixtures.js"
import {
  BORROW,
  BORROW_QUOTE,
  deposit,
  DISBURSEMENT,
  EXTRA_CASH,
  EXTRA_CASH_QUOTE,
  getPlan,
  HISTORY,
  nipFee,
  PLAN,
  planBody,
  patchPlan,
  savePlan,
  upsert
} from "./support/PlanFixtures.js"
import { lastCode, TestServer } from "./support/TestServer.js"

const QUOTE = `${PLAN}/quote`
const BAD_OTP = "Invalid or expired OTP"
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const PLAN_KEYS = [
  "active",
  "amount",
  "borrowCount",
  "createdAt",
  "customerId",
  "cyclesPaid",
  "cyclesTotal",
  "durationDays",
  "frequency",
  "fundingNeededKobo",
  "id",
  "nextDueAt",
  "scheduledTime",
  "scheduledTimezone",
  "status",
  "totalAmountKobo",
  "updatedAt",
  "weekDay",
  "withdrawalAccountName",
  "withdrawalAccountNumber",
  "withdrawalBankCode",
  "withdrawalBankName",
  "withdrawalBlocked"
]

/** A fresh action OTP from POST /customers/otp/request (the alias). */
const customerOtp = (token: string, email: string) =>
  Effect.gen(function*() {
    const { pinId } = expectSuccess(yield* post("/api/v1/customers/otp/request", undefined, token), { apiObject: "Customer" })
    expect(pinId).toMatch(UUID_PATTERN)
    return { otpPinId: pinId as string, otpCode: lastCode(email, "action_confirmation") }
  })

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("disbursement plans", (it) => {
  describe("authentication", () => {
    it.effect("every endpoint is 401 'Authentication required' without a token, with apiObject Disbursement", () =>
      Effect.gen(function*() {
        const calls = [
          api("GET", `${QUOTE}?amountKobo=5000`),
          api("POST", PLAN, planBody()),
          api("PATCH", PLAN, { ...planBody(), otpPinId: randomUUID(), otpCode: "123456" }),
          api("GET", PLAN),
          api("GET", HISTORY),
          api("GET", BORROW_QUOTE),
          api("POST", BORROW, { idempotencyKey: randomUUID() }),
          api("GET", EXTRA_CASH_QUOTE),
          api("POST", EXTRA_CASH, { amountKobo: 1000, idempotencyKey: randomUUID() })
        ]
        for (const call of calls) expectFailure(yield* call, 401, "Authentication required", DISBURSEMENT)
        expectFailure(yield* api("GET", PLAN, undefined, "not-a-token"), 401, "Authentication required", DISBURSEMENT)
        expectFailure(yield* post("/api/v1/customers/otp/request"), 401, "Authentication required", "Customer")
      }))
  })

  describe("GET /disbursements/plan/quote", () => {
    it.effect("the NIP fee with VAT of each tier, as decimal strings; totalFeesKobo sums both", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("pq")
        const quote = (amount: string) => get(`${QUOTE}?amountKobo=${amount}`, c.accessToken)
        const small = expectSuccess(yield* quote("500000"), { apiObject: DISBURSEMENT })
        expect(small).toEqual({
          amountKobo: "500000",
          depositFee: { feeKobo: "1075", description: expect.any(String) },
          disbursementFee: { feeKobo: "1075", description: expect.any(String) },
          totalFeesKobo: "2150"
        })
        expect(small.depositFee.description).toMatch(/not charged by us/)
        const middle = expectSuccess(yield* quote("500001"), { apiObject: DISBURSEMENT })
        expect(middle.disbursementFee.feeKobo).toBe("2688")
        expect(middle.totalFeesKobo).toBe("5376")
        const large = expectSuccess(yield* quote("5000001"), { apiObject: DISBURSEMENT })
        expect(large.disbursementFee.feeKobo).toBe("5375")
        expect(large.totalFeesKobo).toBe("10750")
      }))

    it.effect("amountKobo is required and a positive whole number of kobo", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("pq-bad")
        expectValidation(yield* get(QUOTE, c.accessToken), { fields: ["amountKobo"], apiObject: DISBURSEMENT })
        for (const bad of ["abc", "0", "-5", "1.5", "0x10", ""]) {
          expectValidation(yield* get(`${QUOTE}?amountKobo=${bad}`, c.accessToken), {
            fields: ["amountKobo"],
            apiObject: DISBURSEMENT
          })
        }
      }))
  })

  describe("POST /disbursements/plan", () => {
    it.effect("GET is 404 before any plan; POST creates it awaiting funds; funded, POST again activates it", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-new")
        expectFailure(yield* get(PLAN, c.accessToken), 404, "No disbursement plan found", DISBURSEMENT)

        const body = planBody({ scheduledTime: "23:30" })
        const reply = yield* savePlan(c.accessToken, body)
        const plan = expectSuccess(reply, { apiObject: DISBURSEMENT })
        expect(Object.keys(plan).sort()).toEqual(PLAN_KEYS)
        expect(plan).toMatchObject({
          customerId: c.customerId,
          amount: "100000",
          totalAmountKobo: "700000",
          durationDays: 7,
          frequency: "daily",
          weekDay: null,
          nextDueAt: null,
          withdrawalAccountNumber: "0123450001",
          withdrawalBankCode: "000013",
          withdrawalBankName: "Guaranty Trust Bank (GTBank)",
          withdrawalAccountName: "SANDBOX ACCOUNT 0001",
          scheduledTime: "23:30",
          scheduledTimezone: "UTC",
          withdrawalBlocked: false,
          borrowCount: 0,
          active: false,
          status: "awaiting_funds",
          cyclesTotal: 7,
          cyclesPaid: 0,
          fundingNeededKobo: String(700_000n + 7n * nipFee(100_000n))
        })
        expect(plan.createdAt).toMatch(ISO)
        expect(plan.updatedAt).toMatch(ISO)
        expect(expectSuccess(yield* get(PLAN, c.accessToken), { apiObject: DISBURSEMENT })).toEqual(plan)

        // the pot alone does not cover the plan: each payout also debits its NIP fee
        yield* deposit(c.accessToken, 700_000)
        expect(yield* upsert(c.accessToken, body)).toMatchObject({ id: plan.id, active: false, status: "awaiting_funds" })
        // the pot and its fees: the next POST (an upsert of the same plan) activates it
        yield* deposit(c.accessToken, 7 * Number(nipFee(100_000n)))
        const active = yield* upsert(c.accessToken, body)
        expect(active).toMatchObject({ id: plan.id, active: true, status: "active", cyclesPaid: 0 })
        expect(active.nextDueAt).toMatch(ISO)
        expect(Date.parse(active.nextDueAt)).toBeGreaterThan(Date.now())
        expect(active.nextDueAt.slice(11, 16)).toBe("23:30")
        expect(Date.parse(active.nextDueAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000)
        expect(yield* getPlan(c.accessToken)).toEqual(active)
      }))

    it.effect("a pot the wallet does not cover stays awaiting funds; the amount keeps the remainder for the last instalment", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-short")
        yield* deposit(c.accessToken, 700_000)
        const plan = yield* upsert(c.accessToken, planBody({ totalAmountKobo: 700_006 }))
        expect(plan).toMatchObject({ active: false, status: "awaiting_funds", amount: "100000", totalAmountKobo: "700006" })
      }))

    it.effect("weekly and monthly plans: week day, time zone and time are kept; weekDay is null unless weekly", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-weekly")
        const weekly = yield* upsert(
          c.accessToken,
          planBody({
            frequency: "weekly",
            durationDays: 28,
            weekDay: "friday",
            totalAmountKobo: 400_000,
            scheduledTime: "07:15",
            scheduledTimezone: "Africa/Lagos",
            withdrawalAccountName: "Ada Obi"
          })
        )
        expect(weekly).toMatchObject({
          frequency: "weekly",
          weekDay: "friday",
          cyclesTotal: 4,
          amount: "100000",
          scheduledTime: "07:15",
          scheduledTimezone: "Africa/Lagos",
          withdrawalAccountName: "Ada Obi"
        })
        // an edit to monthly: weekDay sent along is ignored (null), null optional fields count as absent
        const monthly = yield* upsert(
          c.accessToken,
          planBody({ frequency: "monthly", durationDays: 90, weekDay: "friday", withdrawalAccountName: null, scheduledTimezone: null })
        )
        expect(monthly).toMatchObject({
          id: weekly.id,
          frequency: "monthly",
          weekDay: null,
          cyclesTotal: 3,
          amount: "233333",
          scheduledTimezone: "UTC",
          withdrawalAccountName: "SANDBOX ACCOUNT 0001"
        })
      }))

    it.effect("validation: every missing or malformed field is named", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-val")
        expectValidation(yield* savePlan(c.accessToken, {}), {
          fields: ["totalAmountKobo", "durationDays", "frequency", "withdrawalAccountNumber", "withdrawalBankCode"],
          apiObject: DISBURSEMENT
        })
        const error = expectValidation(
          yield* savePlan(
            c.accessToken,
            planBody({
              totalAmountKobo: 10.5,
              durationDays: 1.5,
              frequency: "yearly",
              weekDay: "funday",
              withdrawalAccountNumber: "123",
              withdrawalBankCode: "x",
              scheduledTime: 900
            })
          ),
          {
            fields: [
              "totalAmountKobo",
              "durationDays",
              "frequency",
              "weekDay",
              "withdrawalAccountNumber",
              "withdrawalBankCode",
              "scheduledTime"
            ],
            apiObject: DISBURSEMENT
          }
        )
        expect(error.fieldErrors.frequency).toEqual(["frequency must be one of: daily, weekly, monthly"])
        expectValidation(yield* savePlan(c.accessToken, planBody({ totalAmountKobo: 0 })), {
          fields: ["totalAmountKobo"],
          apiObject: DISBURSEMENT
        })
        expectValidation(yield* savePlan(c.accessToken, planBody({ totalAmountKobo: "700000" })), {
          fields: ["totalAmountKobo"],
          apiObject: DISBURSEMENT
        })
        expectValidation(yield* savePlan(c.accessToken, planBody({ durationDays: 0 })), {
          fields: ["durationDays"],
          apiObject: DISBURSEMENT
        })
        expectValidation(yield* savePlan(c.accessToken, null), { form: true, apiObject: DISBURSEMENT })
        expectFailure(yield* get(PLAN, c.accessToken), 404, "No disbursement plan found", DISBURSEMENT)
      }))

    it.effect("the terms' rules: week day of weekly plans, whole cycles, a real time and zone — all at once, by field", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-terms")
        const rule = (patch: Record<string, unknown>, fields: ReadonlyArray<string>) =>
          Effect.gen(function*() {
            const error = expectValidation(yield* savePlan(c.accessToken, planBody(patch)), { fields, apiObject: DISBURSEMENT })
            expect(Object.keys(error.fieldErrors).sort()).toEqual([...fields].sort())
            expect(error.formErrors).toEqual([])
            return error.fieldErrors
          })
        expect((yield* rule({ frequency: "weekly", durationDays: 14 }, ["weekDay"])).weekDay).toEqual([
          "weekDay is required for a weekly plan"
        ])
        yield* rule({ frequency: "weekly", weekDay: "monday", durationDays: 6 }, ["durationDays"])
        yield* rule({ frequency: "monthly", durationDays: 29 }, ["durationDays"])
        yield* rule({ durationDays: 3651 }, ["durationDays"])
        yield* rule({ scheduledTimezone: "Mars/Olympus_Mons" }, ["scheduledTimezone"])
        yield* rule({ scheduledTime: "25:00" }, ["scheduledTime"])
        yield* rule({ scheduledTime: "9:00" }, ["scheduledTime"])
        yield* rule({ totalAmountKobo: 600, durationDays: 7 }, ["totalAmountKobo"])
        yield* rule({ totalAmountKobo: 10_000_000_001 }, ["totalAmountKobo"])
        yield* rule(
          { frequency: "weekly", durationDays: 6, scheduledTime: "24:00", scheduledTimezone: "Nowhere" },
          ["weekDay", "durationDays", "scheduledTime", "scheduledTimezone"]
        )
        expectFailure(yield* get(PLAN, c.accessToken), 404, "No disbursement plan found", DISBURSEMENT)
      }))

    it.effect("the withdrawal account must exist at the bank; a customer needs a bank account", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-dest")
        expectFailure(
          yield* savePlan(c.accessToken, planBody({ withdrawalAccountNumber: "9991234567" })),
          400,
          "Account not found at that bank",
          DISBURSEMENT
        )
        expectFailure(
          yield* savePlan(c.accessToken, planBody({ withdrawalBankCode: "123456" })),
          400,
          "Invalid bank code",
          DISBURSEMENT
        )
        expectFailure(yield* get(PLAN, c.accessToken), 404, "No disbursement plan found", DISBURSEMENT)
        const noBank = yield* verifiedAccount("plan-nobank")
        expectFailure(yield* savePlan(noBank.accessToken, planBody()), 400, "No bank account found", DISBURSEMENT)
      }))

    it.effect("editing the destination or the time of an active plan keeps it active, on its schedule", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("plan-edit")
        yield* deposit(c.accessToken, 2_000_000)
        const first = yield* upsert(c.accessToken, planBody({ scheduledTime: "22:00" }))
        expect(first.active).toBe(true)
        // a new destination by POST needs the OTP, as PATCH does (PlanDestination.test.ts)
        const moved = yield* upsert(
          c.accessToken,
          {
            ...planBody({ scheduledTime: "22:45", withdrawalAccountNumber: "0123459876", withdrawalAccountName: "Chidi Okeke" }),
            ...(yield* actionOtp(c.accessToken, c.email))
          }
        )
        expect(moved).toMatchObject({
          id: first.id,
          active: true,
          scheduledTime: "22:45",
          withdrawalAccountNumber: "0123459876",
          withdrawalAccountName: "Chidi Okeke",
          cyclesTotal: 7,
          cyclesPaid: 0
        })
        expect(Date.parse(moved.nextDueAt) - Date.parse(first.nextDueAt)).toBe(45 * 60_000)
        // a bigger pot than the wallet holds: the new schedule waits for funds
        const bigger = yield* upsert(c.accessToken, planBody({ totalAmountKobo: 3_000_000, withdrawalAccountNumber: "0123459876" }))
        expect(bigger).toMatchObject({ id: first.id, active: false, status: "awaiting_funds", nextDueAt: null, amount: "428571" })
      }))
  })

  describe("PATCH /disbursements/plan (OTP-gated)", () => {
    it.effect("404 without a plan; a wrong code is 401, changes nothing and spends the code; a fresh code edits, once", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("patch")
        const none = yield* actionOtp(c.accessToken, c.email)
        expectFailure(yield* patchPlan(c.accessToken, { ...planBody(), ...none }), 404, "No disbursement plan found", DISBURSEMENT)

        const plan = yield* upsert(c.accessToken, planBody({ scheduledTime: "20:00" }))
        const otp = yield* actionOtp(c.accessToken, c.email)
        const edit = planBody({ scheduledTime: "21:15", withdrawalAccountName: "Ada Obi" })
        expectFailure(
          yield* patchPlan(c.accessToken, { ...edit, otpPinId: otp.otpPinId, otpCode: otherCode(otp.otpCode) }),
          401,
          BAD_OTP,
          DISBURSEMENT
        )
        expectFailure(yield* patchPlan(c.accessToken, { ...edit, otpPinId: randomUUID(), otpCode: otp.otpCode }), 401, BAD_OTP, DISBURSEMENT)
        expect((yield* getPlan(c.accessToken)).scheduledTime).toBe("20:00")
        // the wrong guess spent it: the right code is refused too, and a new one comes without waiting
        expectFailure(yield* patchPlan(c.accessToken, { ...edit, ...otp }), 401, BAD_OTP, DISBURSEMENT)
        const fresh = yield* actionOtp(c.accessToken, c.email)

        const patched = expectSuccess(yield* patchPlan(c.accessToken, { ...edit, ...fresh }), {
          apiObject: DISBURSEMENT,
          message: "Disbursement plan updated."
        })
        expect(patched).toMatchObject({ id: plan.id, scheduledTime: "21:15", withdrawalAccountName: "Ada Obi" })
        expect(yield* getPlan(c.accessToken)).toEqual(patched)

        // spent: the same code again is refused
        expectFailure(yield* patchPlan(c.accessToken, { ...planBody({ scheduledTime: "05:00" }), ...fresh }), 401, BAD_OTP, DISBURSEMENT)
        expect((yield* getPlan(c.accessToken)).scheduledTime).toBe("21:15")
      }))

    it.effect("a code from POST /customers/otp/request (the alias) works too; an expired code is 401", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("patch-alias")
        yield* upsert(c.accessToken, planBody())
        const otp = yield* customerOtp(c.accessToken, c.email)
        const patched = expectSuccess(
          yield* patchPlan(c.accessToken, { ...planBody({ totalAmountKobo: 1_400_000, scheduledTime: "06:30" }), ...otp }),
          { apiObject: DISBURSEMENT }
        )
        expect(patched).toMatchObject({ totalAmountKobo: "1400000", amount: "200000", scheduledTime: "06:30", active: false })

        const old = yield* customerOtp(c.accessToken, c.email)
        yield* expireOtps(c.id)
        expectFailure(yield* patchPlan(c.accessToken, { ...planBody(), ...old }), 401, BAD_OTP, DISBURSEMENT)
        // the alias and /auth/otp/request hand out the same kind of code: either passes the gate
        const viaAuth = yield* actionOtp(c.accessToken, c.email)
        expect(expectSuccess(yield* patchPlan(c.accessToken, { ...planBody({ durationDays: 14 }), ...viaAuth }), { apiObject: DISBURSEMENT }))
          .toMatchObject({ durationDays: 14, cyclesTotal: 14, amount: "50000" })
      }))

    // the wallet is read after the edit commits: on PGlite (one connection) a read inside the
    // transaction would wait on itself until the provider call timed out
    it.effect("a new schedule the wallet covers is active at once, as with POST", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("patch-funded")
        yield* deposit(c.accessToken, 2_000_000)
        const plan = yield* upsert(c.accessToken, planBody())
        expect(plan.active).toBe(true)
        const otp = yield* actionOtp(c.accessToken, c.email)
        const started = Date.now()
        const patched = expectSuccess(yield* patchPlan(c.accessToken, { ...planBody({ totalAmountKobo: 1_400_000 }), ...otp }), {
          apiObject: DISBURSEMENT
        })
        expect(patched).toMatchObject({ id: plan.id, totalAmountKobo: "1400000", amount: "200000", active: true, status: "active" })
        expect(Date.now() - started).toBeLessThan(5_000)
      }))

    it.effect("validation: otpPinId and otpCode are required; the plan terms as for POST; invalid terms do not spend the code, a refused edit does", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("patch-val")
        yield* upsert(c.accessToken, planBody())
        expectValidation(yield* patchPlan(c.accessToken, planBody()), { fields: ["otpPinId", "otpCode"], apiObject: DISBURSEMENT })
        expectValidation(yield* patchPlan(c.accessToken, { ...planBody(), otpPinId: "x", otpCode: "12345" }), {
          fields: ["otpCode"],
          apiObject: DISBURSEMENT
        })
        const otp = yield* actionOtp(c.accessToken, c.email)
        expectValidation(yield* patchPlan(c.accessToken, { ...planBody({ frequency: "weekly" }), ...otp }), {
          fields: ["weekDay"],
          apiObject: DISBURSEMENT
        })
        expectFailure(
          yield* patchPlan(c.accessToken, { ...planBody({ withdrawalAccountNumber: "9990000001" }), ...otp }),
          400,
          "Account not found at that bank",
          DISBURSEMENT
        )
        expectFailure(yield* patchPlan(c.accessToken, { ...planBody({ durationDays: 35 }), ...otp }), 401, BAD_OTP, DISBURSEMENT)
        const fresh = yield* actionOtp(c.accessToken, c.email)
        expectSuccess(yield* patchPlan(c.accessToken, { ...planBody({ durationDays: 35 }), ...fresh }), { apiObject: DISBURSEMENT })
      }))
  })

  describe("POST /customers/otp/request (alias of /auth/otp/request)", () => {
    it.effect("emails a code and returns its pinId, with apiObject Customer", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("alias")
        const reply = yield* post("/api/v1/customers/otp/request", undefined, c.accessToken)
        const result = expectSuccess(reply, { apiObject: "Customer" })
        expect(Object.keys(result)).toEqual(["pinId"])
        expect(lastCode(c.email, "action_confirmation")).toMatch(/^\d{6}$/)
      }))
  })

  describe("GET /customers/me", () => {
    it.effect("disbursementPlan is null without a plan, then the plan object", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("me-plan")
        expect(expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" }).disbursementPlan).toBeNull()
        const plan = yield* upsert(c.accessToken, planBody())
        const profile = expectSuccess(yield* me(c.accessToken), { apiObject: "Customer" })
        // what the wallet lacks is told on the plan endpoints only
        const { fundingNeededKobo, ...shown } = plan
        expect(fundingNeededKobo).toBe(String(700_000n + 7n * nipFee(100_000n)))
        expect(profile.disbursementPlan).toEqual(shown)
        const noBank = yield* verifiedAccount("me-noplan")
        expect(expectSuccess(yield* me(noBank.accessToken), { apiObject: "Customer" })).toHaveProperty("disbursementPlan", null)
      }))
  })

  describe("OpenAPI", () => {
    it.effect("lists every plan endpoint as bearer-secured, with its error statuses", () =>
      Effect.gen(function*() {
        const doc = (yield* api("GET", "/api/v1/openapi.json")).body
        const endpoints: ReadonlyArray<readonly [string, string]> = [
          ["get", `${PLAN}/quote`],
          ["post", PLAN],
          ["patch", PLAN],
          ["get", PLAN],
          ["get", HISTORY],
          ["get", BORROW_QUOTE],
          ["post", BORROW],
          ["get", EXTRA_CASH_QUOTE],
          ["post", EXTRA_CASH],
          ["post", "/api/v1/customers/otp/request"]
        ]
        for (const [method, path] of endpoints) {
          const operation = doc.paths?.[path]?.[method]
          expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined()
          expect((operation.security ?? []).some((s: object) => Object.keys(s).length > 0), `${path} secured`).toBe(true)
          for (const status of ["200", "400", "401", "404", "500"]) {
            expect(operation.responses, `${method.toUpperCase()} ${path} documents ${status}`).toHaveProperty([status])
          }
        }
        expect(doc.paths[PLAN].patch.requestBody.content["application/json"].schema).toBeDefined()
      }))
  })
})
