/**
 * The NIP fee changed by staff in the middle of a plan (docs/decisions/nip-fee-raised-mid-plan.md),
 * end to end: a plan is funded for its pot and the fees of its payouts as they stood when it was
 * activated. A fee raised later is borne by the service for that plan: every payout is still made,
 * in full, with the fee the plan was funded for, and the wallet ends at zero. A fee lowered later
 * is passed on. A plan activated after the change pays the new fee.
 */
import { PlanId, Plans } from "@app/domain"
import { conservation } from "@app/sandbox"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminServer, rootToken } from "./support/AdminFixtures.js"
import { get } from "./support/BankingFixtures.js"
import { api, expectSuccess } from "./support/Fixtures.js"
import { balanceOf, DISBURSEMENT, EXTRA_CASH_QUOTE, getPlan, HISTORY, makeDue, nipFee, planCustomer, upsert } from "./support/PlanFixtures.js"
import { outbox } from "./support/TestServer.js"

const FEE = nipFee(100_000n) // ₦10 + VAT, the default for payouts up to ₦5,000

const booksBalance = Effect.map(conservation, (check) => expect(check.problems).toEqual([]))

const history = (token: string) => Effect.map(get(HISTORY, token), (r) => expectSuccess(r, { apiObject: DISBURSEMENT }) as Array<any>)

/** Staff set one flat NIP fee for every amount (plus 7.5% VAT), as the back office does. */
const setFlatFee = (feeKobo: number) =>
  Effect.gen(function*() {
    const value = { tiers: [{ upToKobo: null, feeKobo }], vatBasisPoints: 750 }
    expectSuccess(yield* api("PATCH", "/api/v1/admin/settings/fees.nip", { value }, yield* rootToken), { apiObject: "Admin" })
  })

const resetFees = Effect.gen(function*() {
  const value = {
    tiers: [{ upToKobo: 500_000, feeKobo: 1_000 }, { upToKobo: 5_000_000, feeKobo: 2_500 }, { upToKobo: null, feeKobo: 5_000 }],
    vatBasisPoints: 750
  }
  expectSuccess(yield* api("PATCH", "/api/v1/admin/settings/fees.nip", { value }, yield* rootToken), { apiObject: "Admin" })
})

const payNext = (planId: PlanId) =>
  Effect.gen(function*() {
    yield* makeDue(planId)
    return yield* Plans.processDuePayouts()
  })

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("the NIP fee changed mid-plan", (it) => {
  describe("raised", () => {
    it.effect("a plan funded exactly for its pot and fees pays every cycle in full; the raise is not charged to it", () =>
      Effect.gen(function*() {
        // ₦3,000 over 3 days, funded with the pot and its three fees, nothing more
        const c = yield* planCustomer("fee-raised", { body: { totalAmountKobo: 300_000, durationDays: 3 }, fundKobo: 300_000 + 3 * Number(FEE) })
        expect((yield* payNext(c.plan.id)).paid).toBe(1)
        // staff double the fee: ₦20 + VAT
        yield* setFlatFee(2_000)
        for (let cycle = 1; cycle < 3; cycle++) {
          const run = yield* payNext(c.plan.id)
          expect(run, `cycle ${cycle}`).toEqual({ plans: 1, paid: 1, failed: 0 })
        }
        const rows = yield* history(c.accessToken)
        expect(rows.map((r) => [r.amountKobo, r.feeKobo, r.status])).toEqual(Array(3).fill(["100000", String(FEE), "confirmed"]))
        expect(yield* getPlan(c.accessToken)).toMatchObject({ status: "completed", cyclesPaid: 3 })
        expect(outbox().filter((m) => m.to === c.email && m.kind === "plan_depleted")).toEqual([])
        expect(yield* balanceOf(c.accessToken)).toBe(0n)
        yield* booksBalance

        // a plan activated under the new fee pays (and reserves) the new fee
        const newFee = 2_000n + 150n
        yield* api("POST", "/api/v1/transactions/deposit/test", { amountKobo: 200_000 + 2 * Number(newFee) }, c.accessToken)
        const next = yield* upsert(c.accessToken, { ...c.body, totalAmountKobo: 200_000, durationDays: 2 })
        expect(next).toMatchObject({ status: "active", fundingNeededKobo: "0" })
        const quote = expectSuccess(yield* get(EXTRA_CASH_QUOTE, c.accessToken), { apiObject: DISBURSEMENT })
        expect(quote.reservedKobo).toBe(String(200_000n + 2n * newFee))
        expect((yield* payNext(next.id)).paid).toBe(1)
        expect((yield* history(c.accessToken))[0]).toMatchObject({ amountKobo: "100000", feeKobo: String(newFee), status: "confirmed" })
        yield* booksBalance
      }).pipe(Effect.ensuring(resetFees.pipe(Effect.orDie))))

    it.effect("a Borrow after the raise is charged the fee the plan was funded for, and the reserve stays what the payouts will take", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("fee-raised-borrow", { body: { totalAmountKobo: 300_000, durationDays: 3 }, fundKobo: 300_000 + 3 * Number(FEE) })
        yield* setFlatFee(2_000)
        const quote = expectSuccess(yield* get(EXTRA_CASH_QUOTE, c.accessToken), { apiObject: DISBURSEMENT })
        expect(quote).toMatchObject({ reservedKobo: String(300_000n + 3n * FEE), maxWithdrawalKobo: "0" })
        const borrowed = expectSuccess(
          yield* api("POST", "/api/v1/disbursements/plan/borrow", { idempotencyKey: crypto.randomUUID() }, c.accessToken),
          { apiObject: DISBURSEMENT }
        )
        expect(borrowed).toMatchObject({ status: "confirmed", amountKobo: "100000", feeKobo: String(FEE) })
        for (let cycle = 1; cycle < 3; cycle++) expect((yield* payNext(c.plan.id)).paid).toBe(1)
        expect(yield* getPlan(c.accessToken)).toMatchObject({ status: "completed" })
        expect(yield* balanceOf(c.accessToken)).toBe(0n)
        yield* booksBalance
      }).pipe(Effect.ensuring(resetFees.pipe(Effect.orDie))))
  })

  describe("lowered", () => {
    it.effect("the lower fee is passed on to the plan's payouts", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("fee-lowered", { body: { totalAmountKobo: 200_000, durationDays: 2 }, fundKobo: 200_000 + 2 * Number(FEE) })
        yield* setFlatFee(500)
        for (let cycle = 0; cycle < 2; cycle++) expect((yield* payNext(c.plan.id)).paid).toBe(1)
        const rows = yield* history(c.accessToken)
        expect(rows.map((r) => r.feeKobo)).toEqual(["538", "538"])
        expect(yield* balanceOf(c.accessToken)).toBe(2n * (FEE - 538n))
        yield* booksBalance
      }).pipe(Effect.ensuring(resetFees.pipe(Effect.orDie))))
  })
})
