/**
 * A manual transfer cannot spend an active plan's committed pot (issue 36 round 3), on the real stack:
 * it may use only the withdrawable balance less the plan's reserve (`Plans.reservedFor`, what the
 * Extra Cash quote shows as reservedKobo); the 400 INSUFFICIENT_BALANCE says what is available; two
 * requests at once cannot spend it between them; the next payout still finds its money.
 */
import { CoreBanking, Plans } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { bankWith, startTransfer } from "./support/BankFaults.js"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, post } from "./support/Fixtures.js"
import { atTheBank, booksBalance } from "./support/LifecycleFixtures.js"
import { balanceOf, deposit, DISBURSEMENT, EXTRA_CASH_QUOTE, getPlan, makeDue, nipFee, planCustomer } from "./support/PlanFixtures.js"
import { TestServer } from "./support/TestServer.js"

const TRANSFER = "/api/v1/transactions/transfer"
const TX = "Transaction"
/** The numbers: ₦8,000 in the wallet under a 7 × ₦1,000 plan. */
const FUND = 800_000
const RESERVED = 7n * (100_000n + 1_075n) // 707,525
const FREE = BigInt(FUND) - RESERVED // 92,475

const transfer = (token: string, amountKobo: number | bigint) =>
  post(TRANSFER, {
    destinationAccountNumber: "0123450001",
    destinationBankCode: "000013",
    destinationBankName: "GTBank",
    destinationAccountName: "SANDBOX ACCOUNT 0001",
    amountKobo: Number(amountKobo),
    idempotencyKey: randomUUID()
  }, token)

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("manual transfers and the plan's reserve", (it) => {
  describe("only the balance above the plan's reserve can be sent", () => {
    it.effect("790,000 against a reserve of 707,525 is 400 INSUFFICIENT_BALANCE with availableKobo; the most that fits goes; the next payout is paid", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("reserve", { fundKobo: FUND })
        const quote = expectSuccess(yield* get(EXTRA_CASH_QUOTE, c.accessToken), { apiObject: DISBURSEMENT })
        expect(quote).toMatchObject({ vaultBalanceKobo: String(FUND), reservedKobo: String(RESERVED), maxWithdrawalKobo: "87885" })

        const refused = expectFailure(yield* transfer(c.accessToken, 790_000), 400, "Insufficient balance", TX)
        expect(refused).toEqual({
          code: "INSUFFICIENT_BALANCE",
          requiredKobo: String(790_000n + nipFee(790_000n)),
          availableKobo: String(FREE)
        })
        expect((yield* atTheBank(c.accountNumber)).debits).toBe(0)

        // the most a transfer can send: the free balance less its NIP fee
        const most = FREE - 1_075n
        expect(expectSuccess(yield* transfer(c.accessToken, most), { apiObject: TX }).status).toBe("confirmed")
        expect(yield* balanceOf(c.accessToken)).toBe(RESERVED)
        const none = expectFailure(yield* transfer(c.accessToken, 1), 400, "Insufficient balance", TX)
        expect(none.availableKobo).toBe("0")

        // the pot is whole: the next payout is paid and the plan stays active
        yield* makeDue(c.plan.id)
        expect((yield* Plans.processDuePayouts()).paid).toBe(1)
        expect((yield* getPlan(c.accessToken)).status).toBe("active")
        yield* booksBalance
      }))

    it.effect("without a plan the whole withdrawable balance can be sent (availableKobo is the balance)", () =>
      Effect.gen(function*() {
        const c = yield* bankCustomer("reserve-none")
        yield* deposit(c.accessToken, FUND)
        const short = expectFailure(yield* transfer(c.accessToken, FUND), 400, "Insufficient balance", TX)
        expect(short.availableKobo).toBe(String(FUND))
        expect(expectSuccess(yield* transfer(c.accessToken, FUND - 2_688), { apiObject: TX }).status).toBe("confirmed")
        yield* booksBalance
      }))
  })

  describe("the check cannot be raced", () => {
    it.effect("two transfers at once, each within the free balance but not together: one goes, the other is refused; the reserve stays", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("reserve-race", { fundKobo: FUND })
        const each = 60_000 // 61,075 with its fee; two of them exceed 92,475
        const replies = yield* Effect.all([transfer(c.accessToken, each), transfer(c.accessToken, each)], { concurrency: 2 })
        const ok = replies.filter((r) => r.status === 200)
        expect(ok).toHaveLength(1)
        for (const refused of replies.filter((r) => r.status !== 200)) {
          expect(refused.status).toBe(400)
          expect(["MOVEMENT_IN_FLIGHT", "INSUFFICIENT_BALANCE", "TRANSFER_FAILED"]).toContain(refused.body.error.code)
        }
        expect(yield* balanceOf(c.accessToken)).toBeGreaterThanOrEqual(RESERVED)
        yield* booksBalance
      }))

    it.effect("a request whose check read the balance before another movement took it: the saga checks the reserve again and nothing leaves the pot", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("reserve-stale", { fundKobo: FUND })
        // the balance read by the request's check is the one before a movement that finished since
        // (what a request racing another one sees): ₦1,000,000 more than the wallet holds now
        let reads = 0
        const stale = yield* bankWith((real) => ({
          account: (accountNumber: string) =>
            Effect.map(real.account(accountNumber), (s) =>
              ++reads === 1 ? { ...s, withdrawableBalanceKobo: s.withdrawableBalanceKobo + 1_000_000n } : s)
        }))
        const attempt = yield* startTransfer(c.id, "0123450001", 500_000n).pipe(
          Effect.provideService(CoreBanking, stale),
          Effect.either
        )
        expect(Either.isLeft(attempt)).toBe(true)
        expect(yield* balanceOf(c.accessToken)).toBe(BigInt(FUND))
        expect((yield* atTheBank(c.accountNumber)).debits).toBe(0)
        yield* booksBalance
      }))
  })
})
