/**
 * POST /api/v1/customers/close-account end to end, on the real stack (SQL + the sandbox bank through
 * the real adapter): the sweep is a movement of the transfer saga, the closure finishes when it is
 * confirmed (at once, or by the closure job after reconciliation), and the books balance after
 * every test.
 */
import { Banking, CoreBanking, Lifecycle, Plans, TransactionId, Transfers } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { randomUUID } from "node:crypto"
import { onFirstCall } from "./support/BankFaults.js"
import { actionOtp, bankCustomer, get, inboundTransfer } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, expireOtps, me, post, verifiedAccount } from "./support/Fixtures.js"
import {
  alertKindsOf,
  atTheBank,
  booksBalance,
  CLOSE,
  closeAccount,
  customerStatus,
  due,
  reconcileSweep,
  sweepOf,
  sweepRow
} from "./support/LifecycleFixtures.js"
import { balanceOf, deposit, getPlan, makeDue, nipFee, planCustomer } from "./support/PlanFixtures.js"
import { outbox, TestServer } from "./support/TestServer.js"

const CUSTOMER = "Customer"
const TRANSFER = "/api/v1/transactions/transfer"

const transferBody = () => ({
  destinationAccountNumber: "0123450001",
  destinationBankCode: "000013",
  destinationBankName: "GTBank",
  destinationAccountName: "SANDBOX ACCOUNT 0001",
  amountKobo: 10_000,
  idempotencyKey: randomUUID()
})

const mails = (to: string, kind: string) => outbox().filter((m) => m.to === to && m.kind === kind)

/** A banked customer with a saved (default) beneficiary and `fund` kobo deposited. */
const savedCustomer = (tag: string, fund: number, destination = "0123450001") =>
  Effect.gen(function*() {
    const c = yield* bankCustomer(tag)
    if (fund > 0) yield* deposit(c.accessToken, fund)
    expectSuccess(
      yield* post("/api/v1/beneficiaries", { accountNumber: destination, bankCode: "000013", bankName: "GTBank" }, c.accessToken),
      { status: 201, apiObject: "Beneficiary" }
    )
    return c
  })

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("close-account", (it) => {
  describe("a confirmed sweep closes the account at once", () => {
    it.effect("with a plan: the whole balance less the NIP fee goes to the plan's account; frozen, plan closed, closed, statement; the key replays", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("close-plan")
        const balance = yield* balanceOf(c.accessToken)
        const key = randomUUID()
        const result = expectSuccess(yield* closeAccount(c, { idempotencyKey: key }), { apiObject: CUSTOMER })
        const amount = sweepOf(balance)
        expect(result).toEqual({ status: "confirmed", amountWithdrawnKobo: String(amount) })
        // only the 4% penalty is waived: the NIP fee was debited with the amount
        const [row] = yield* sweepRow(c.customerId)
        expect(row).toMatchObject({ status: "confirmed", amountKobo: String(amount), feeKobo: String(nipFee(amount)) })
        const bank = yield* atTheBank(c.accountNumber)
        expect(bank.account.frozen).toBe(true)
        expect(bank.account.ledgerBalanceKobo).toBe(balance - amount - nipFee(amount))
        expect(bank.debits).toBe(1)
        expect(yield* customerStatus(c.id)).toBe("closed")
        expect((yield* getPlan(c.accessToken)).status).toBe("closed")
        expect(mails(c.email, "account_closed")).toHaveLength(1)
        // the freeze reference is kept, as for a PIN freeze
        const sql = yield* SqlClient.SqlClient
        const freezes = yield* sql`SELECT freeze_reference FROM provider_freezes WHERE customer_id = ${c.customerId}`
        expect(freezes).toHaveLength(1)
        // the same key answers the same (no new code needed), however the OTP fields look
        const again = yield* post(CLOSE, { idempotencyKey: key, otpPinId: "spent", otpCode: "000000" }, c.accessToken)
        expect(expectSuccess(again, { apiObject: CUSTOMER })).toEqual(result)
        // a due payout never runs for the ended plan
        yield* makeDue(c.plan.id)
        expect((yield* Plans.processDuePayouts()).paid).toBe(0)
        expect(yield* Lifecycle.processClosures()).toBe(0)
        expect((yield* atTheBank(c.accountNumber)).debits).toBe(1)
        yield* booksBalance
      }))

    it.effect("without a plan: to the default saved beneficiary", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("close-benef", 300_000, "0123450001")
        const result = expectSuccess(yield* closeAccount(c), { apiObject: CUSTOMER })
        expect(result).toEqual({ status: "confirmed", amountWithdrawnKobo: String(300_000n - 1_075n) })
        expect((yield* atTheBank(c.accountNumber)).account.ledgerBalanceKobo).toBe(0n)
        expect(yield* customerStatus(c.id)).toBe("closed")
        yield* booksBalance
      }))

    it.effect("a double tap (the same request twice at once): one closure, never a 500", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("close-twins", 1_000)
        const body = { idempotencyKey: randomUUID(), ...(yield* actionOtp(c.accessToken, c.email)) }
        const replies = yield* Effect.all([post(CLOSE, body, c.accessToken), post(CLOSE, body, c.accessToken)], { concurrency: 2 })
        // the first to present the code spends it: the other gets the stored answer, or 400 CLOSE_OTP_INVALID if it
        // came before it was stored
        expect(replies.map((r) => r.status).sort()).toEqual(replies.some((r) => r.status === 400) ? [200, 400] : [200, 200])
        for (const refused of replies.filter((r) => r.status === 400)) {
          expect(expectFailure(refused, 400, "Invalid or expired OTP", CUSTOMER).code).toBe("CLOSE_OTP_INVALID")
        }
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT id FROM account_closures WHERE customer_id = ${c.customerId}`).toHaveLength(1)
        expect(yield* customerStatus(c.id)).toBe("closed")
        expect(expectSuccess(yield* post(CLOSE, body, c.accessToken), { apiObject: CUSTOMER })).toEqual({ status: "confirmed", amountWithdrawnKobo: "0" })
        yield* booksBalance
      }))

    it.effect("a balance that cannot cover the fee: nothing is sent, the closure proceeds (amount 0)", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("close-dust", 1_000)
        const result = expectSuccess(yield* closeAccount(c), { apiObject: CUSTOMER })
        expect(result).toEqual({ status: "confirmed", amountWithdrawnKobo: "0" })
        expect(yield* sweepRow(c.customerId)).toEqual([])
        const bank = yield* atTheBank(c.accountNumber)
        expect(bank).toMatchObject({ debits: 0, account: { frozen: true, ledgerBalanceKobo: 1_000n } })
        expect(yield* customerStatus(c.id)).toBe("closed")
        expect(mails(c.email, "account_closed")).toHaveLength(1)
        yield* booksBalance
      }))
  })

  describe("what a closed customer can still do", () => {
    it.effect("sign in and read the profile and history; every money endpoint is 400 ACCOUNT_NOT_ACTIVE; a deposit is recorded and staff alerted", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("close-after", 200_000)
        expectSuccess(yield* closeAccount(c), { apiObject: CUSTOMER })
        const login = expectSuccess(yield* post("/api/v1/auth/login", { email: c.email, password: c.password }))
        const profile = expectSuccess(yield* me(login.accessToken), { apiObject: CUSTOMER })
        expect(profile.customerStatus).toBe("closed")
        expectSuccess(yield* get("/api/v1/transactions", c.accessToken), { apiObject: "Transaction" })
        const refused = expectFailure(yield* post(TRANSFER, transferBody(), c.accessToken), 400, "Your account is not active", "Transaction")
        expect(refused).toMatchObject({ code: "ACCOUNT_NOT_ACTIVE", customerStatus: "closed" })
        expectFailure(yield* post("/api/v1/disbursements/plan/borrow", { idempotencyKey: randomUUID() }, c.accessToken), 400, "Your account is not active", "Disbursement")
        expectFailure(yield* post("/api/v1/disbursements/plan/extra-cash", { amountKobo: 100, idempotencyKey: randomUUID() }, c.accessToken), 400, "Your account is not active", "Disbursement")
        const second = expectFailure(yield* closeAccount(c), 400, "Your account is not active", CUSTOMER)
        expect(second.code).toBe("ACCOUNT_NOT_ACTIVE")
        // money sent to the frozen account is not lost: on the ledger, and staff refund it
        yield* inboundTransfer(c.accountNumber, 50_000n)
        yield* Banking.syncDeposits(c.id)
        const sql = yield* SqlClient.SqlClient
        const deposits = yield* sql`SELECT amount_kobo FROM transactions WHERE customer_id = ${c.customerId} AND purpose = 'deposit'`
        expect(deposits.map((d: any) => d.amountKobo)).toContain("50000")
        expect(yield* alertKindsOf(c.customerId)).toContain("closed_account_deposit")
        yield* booksBalance
      }))
  })

  describe("a pending sweep (0002) finishes by the closure job once reconciliation confirms it", () => {
    it.effect("closing in between: no other movement, no payout; then closed", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("close-pending", { body: { withdrawalAccountNumber: "0123450002" } })
        const balance = yield* balanceOf(c.accessToken)
        const key = randomUUID()
        const result = expectSuccess(yield* closeAccount(c, { idempotencyKey: key }), { apiObject: CUSTOMER })
        expect(result).toEqual({ status: "pending", amountWithdrawnKobo: String(sweepOf(balance)) })
        expect(yield* customerStatus(c.id)).toBe("closing")
        expect((yield* atTheBank(c.accountNumber)).account.frozen).toBe(false)
        // while closing: no other movement, no payout
        expectFailure(yield* post(TRANSFER, transferBody(), c.accessToken), 400, "Your account is not active", "Transaction")
        yield* makeDue(c.plan.id)
        expect((yield* Plans.processDuePayouts()).paid).toBe(0)
        // nothing to finish yet
        expect(yield* Lifecycle.processClosures()).toBe(0)
        const [row] = yield* sweepRow(c.customerId)
        for (let pass = 0; pass < 3; pass++) {
          yield* due(TransactionId.make(row!.id))
          yield* Transfers.processDue()
        }
        expect((yield* sweepRow(c.customerId))[0]!.status).toBe("confirmed")
        // two scheduler processes at once: the closure is finished by one of them, once
        const [one, two] = yield* Effect.all([Lifecycle.processClosures(), Lifecycle.processClosures()], { concurrency: 2 })
        expect(one + two).toBe(1)
        expect(yield* customerStatus(c.id)).toBe("closed")
        expect((yield* atTheBank(c.accountNumber)).account.frozen).toBe(true)
        expect((yield* getPlan(c.accessToken)).status).toBe("closed")
        expect(mails(c.email, "account_closed")).toHaveLength(1)
        // the key now answers confirmed
        expect(expectSuccess(yield* closeAccount(c, { idempotencyKey: key }), { apiObject: CUSTOMER }).status).toBe("confirmed")
        yield* booksBalance
      }))
  })

  it.effect("a failed sweep (0003) is reversed: 400, the account stays active, and the customer is told", () =>
    Effect.gen(function*() {
      const c = yield* savedCustomer("close-failed", 300_000, "0123450003")
      const failed = expectFailure(yield* closeAccount(c), 400, /^Transfer failed/, CUSTOMER)
      expect(failed.code).toBe("TRANSFER_FAILED")
      expect(yield* customerStatus(c.id)).toBe("active")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account).toMatchObject({ frozen: false, ledgerBalanceKobo: 300_000n })
      expect(mails(c.email, "account_closure_failed")).toHaveLength(1)
      // still a customer: money moves again
      expectSuccess(yield* post(TRANSFER, transferBody(), c.accessToken), { apiObject: "Transaction" })
      yield* booksBalance
    }))

  it.effect("a pending sweep that fails at reconciliation (0005): reversed, the account is active again and the customer is told", () =>
    Effect.gen(function*() {
      const c = yield* savedCustomer("close-late-fail", 300_000, "0123450005")
      const key = randomUUID()
      const result = expectSuccess(yield* closeAccount(c, { idempotencyKey: key }), { apiObject: CUSTOMER })
      expect(result).toEqual({ status: "pending", amountWithdrawnKobo: String(sweepOf(300_000n)) })
      expect(yield* customerStatus(c.id)).toBe("closing")
      expect(yield* reconcileSweep(c.customerId)).toBe("failed")
      // the closure job sees the failed sweep: the account is active again, not frozen, nothing lost
      expect(yield* Lifecycle.processClosures()).toBe(1)
      expect(yield* customerStatus(c.id)).toBe("active")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account).toMatchObject({ frozen: false, ledgerBalanceKobo: 300_000n })
      expect(mails(c.email, "account_closure_failed")).toHaveLength(1)
      expect(mails(c.email, "account_closed")).toEqual([])
      // the key answers the failure (no new code needed); money moves again
      const replay = yield* post(CLOSE, { idempotencyKey: key, otpPinId: "spent", otpCode: "000000" }, c.accessToken)
      expect(expectFailure(replay, 400, /^Transfer failed/, CUSTOMER).code).toBe("TRANSFER_FAILED")
      expectSuccess(yield* post(TRANSFER, transferBody(), c.accessToken), { apiObject: "Transaction" })
      expect(yield* Lifecycle.processClosures()).toBe(0)
      yield* booksBalance
    }))

  describe("refusals", () => {
    it.effect("not active (no bank account), no destination, OTP invalid or expired (400), a movement in flight, a key used elsewhere, validation", () =>
      Effect.gen(function*() {
        const fresh = yield* verifiedAccount("close-unbanked")
        const notActive = expectFailure(yield* closeAccount(fresh), 400, "Your account is not active", CUSTOMER)
        expect(notActive).toMatchObject({ code: "ACCOUNT_NOT_ACTIVE", customerStatus: "verified" })

        const lonely = yield* bankCustomer("close-nodest")
        yield* deposit(lonely.accessToken, 100_000)
        expect(expectFailure(yield* closeAccount(lonely), 400, /No destination bank account/, CUSTOMER).code).toBe("NO_DESTINATION_ACCOUNT")

        const c = yield* savedCustomer("close-refusals", 300_000)
        const otp = yield* actionOtp(c.accessToken, c.email)
        // the spec's close-account row: an invalid or expired OTP is 400 (CLOSE_OTP_INVALID), nothing moves
        const wrong = yield* post(CLOSE, { idempotencyKey: randomUUID(), otpPinId: otp.otpPinId, otpCode: otp.otpCode === "000000" ? "111111" : "000000" }, c.accessToken)
        expect(expectFailure(wrong, 400, "Invalid or expired OTP", CUSTOMER).code).toBe("CLOSE_OTP_INVALID")
        const late = yield* actionOtp(c.accessToken, c.email)
        yield* expireOtps(c.id)
        const expired = yield* post(CLOSE, { idempotencyKey: randomUUID(), ...late }, c.accessToken)
        expect(expectFailure(expired, 400, "Invalid or expired OTP", CUSTOMER).code).toBe("CLOSE_OTP_INVALID")
        // spent by that try: not good for a second one either
        const again = yield* post(CLOSE, { idempotencyKey: randomUUID(), ...late }, c.accessToken)
        expect(expectFailure(again, 400, "Invalid or expired OTP", CUSTOMER).code).toBe("CLOSE_OTP_INVALID")
        expect(yield* customerStatus(c.id)).toBe("active")
        expect(yield* sweepRow(c.customerId)).toEqual([])

        // a key a transfer used: 409 (keys are looked up before the code, which is not needed for it)
        const transfer = transferBody()
        expectSuccess(yield* post(TRANSFER, transfer, c.accessToken), { apiObject: "Transaction" })
        const conflict = yield* post(CLOSE, { idempotencyKey: transfer.idempotencyKey, otpPinId: "x", otpCode: "123456" }, c.accessToken)
        expect(expectFailure(conflict, 409, /already used/, CUSTOMER).code).toBe("IDEMPOTENCY_CONFLICT")

        // a movement in flight (its driver died mid-way, lease still live)
        const stuck = yield* onFirstCall("debit", () => Effect.interrupt)
        const exit = yield* Transfers.startManualTransfer(c.id, {
          destinationAccountNumber: "0123450001",
          destinationBankCode: "000013",
          destinationBankName: "GTBank",
          destinationAccountName: "SANDBOX ACCOUNT 0001",
          amountKobo: 10_000n,
          idempotencyKey: randomUUID()
        }).pipe(Effect.provideService(CoreBanking, stuck), Effect.exit)
        expect(Exit.isInterrupted(exit)).toBe(true)
        const kept = yield* actionOtp(c.accessToken, c.email)
        expect(expectFailure(yield* post(CLOSE, { ...kept, idempotencyKey: randomUUID() }, c.accessToken), 400, /A transaction is in progress/, CUSTOMER).code).toBe("TRANSACTION_IN_PROGRESS")
        expect(yield* customerStatus(c.id)).toBe("active")
        // recovery finishes that movement; closing then works
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE transactions SET lease_until = ${new Date(Date.now() - 1000)} WHERE customer_id = ${c.customerId} AND lease_until IS NOT NULL`
        yield* Transfers.processDue()
        // the refusal came before the OTP gate: the same code closes now
        expect(expectSuccess(yield* post(CLOSE, { ...kept, idempotencyKey: randomUUID() }, c.accessToken), { apiObject: CUSTOMER }).status).toBe("confirmed")

        expectValidation(yield* post(CLOSE, { idempotencyKey: "", otpCode: "12" }, c.accessToken), {
          fields: ["idempotencyKey", "otpPinId", "otpCode"],
          apiObject: CUSTOMER
        })
        expectFailure(yield* post(CLOSE, { idempotencyKey: randomUUID(), otpPinId: "x", otpCode: "123456" }), 401, "Authentication required", CUSTOMER)
        yield* booksBalance
      }))
  })

  it.effect("a crash during the sweep (after the debit applied): recovery and the closure job finish it; swept exactly once", () =>
    Effect.gen(function*() {
      const c = yield* savedCustomer("close-crash", 500_000)
      const otp = yield* actionOtp(c.accessToken, c.email)
      const crashing = yield* onFirstCall("debit", (call) => Effect.zipRight(call, Effect.interrupt))
      const exit = yield* Lifecycle.closeAccount(c.id, { idempotencyKey: randomUUID(), ...otp }).pipe(
        Effect.provideService(CoreBanking, crashing),
        Effect.exit
      )
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* customerStatus(c.id)).toBe("closing")
      const [row] = yield* sweepRow(c.customerId)
      expect(row!.status).toBe("pending")
      yield* due(TransactionId.make(row!.id))
      yield* Transfers.processDue()
      expect((yield* sweepRow(c.customerId))[0]!.status).toBe("confirmed")
      expect(yield* Lifecycle.processClosures()).toBe(1)
      expect(yield* customerStatus(c.id)).toBe("closed")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.debits).toBe(1)
      expect(bank.account).toMatchObject({ frozen: true, ledgerBalanceKobo: 0n, pndActive: true, liens: [] })
      expect(mails(c.email, "account_closed")).toHaveLength(1)
      yield* booksBalance
    }))
})
