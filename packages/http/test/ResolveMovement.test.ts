/**
 * "Resolve movement" end to end, on the real stack (SQL + the sandbox bank through the real adapter,
 * staff through the admin API): the bank refuses a movement's transfer and then its reversal
 * (sandbox destination 0007), so the saga parks it for an operator; staff credit the money back by
 * hand or learn from the bank that it was delivered, and record that. The closure, the deletion or
 * the plan waiting on it then goes on by itself: the customer is usable again (or closed, deleted),
 * the books balance, and the next payout is made exactly once. Attackers: a lower role, the
 * requester approving their own four-eyes request, a second resolution, a movement still driven by
 * the saga, a deposit.
 */
import { CoreBanking, CustomerId, Lifecycle, Plans, TransactionId, Transfers, referenceFor } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminServer, member, type Member } from "./support/AdminFixtures.js"
import { actionOtp, bankCustomer, get } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post } from "./support/Fixtures.js"
import { alertKindsOf, atTheBank, booksBalance, closeAccount, customerStatus, deleteAccount, sweepRow } from "./support/LifecycleFixtures.js"
import { balanceOf, deposit, DISBURSEMENT, getPlan, makeDue, nipFee, patchPlan, planCustomer } from "./support/PlanFixtures.js"
import { outbox } from "./support/TestServer.js"

const ADMIN = "Admin"
const CUSTOMER = "Customer"
const TRANSFER = "/api/v1/transactions/transfer"
/** the sandbox's test data: the transfer fails, and then the bank refuses to reverse its debit */
const REFUSES_REVERSAL = "0123450007"
const NOTE = "Bank ops (ticket 4411) confirmed; manual credit ref MC-0001"

const resolve = (transactionId: TransactionId, body: unknown, token: string) =>
  post(`/api/v1/admin/transactions/${transactionId}/resolve`, body, token)

const transferBody = (destinationAccountNumber = "0123450001", amountKobo = 10_000) => ({
  destinationAccountNumber,
  destinationBankCode: "000013",
  destinationBankName: "GTBank",
  destinationAccountName: `SANDBOX ACCOUNT ${destinationAccountNumber.slice(-4)}`,
  amountKobo,
  idempotencyKey: randomUUID()
})

const mails = (to: string, kind: string) => outbox().filter((m) => m.to === to && m.kind === kind)

/** A banked customer with a saved (default) beneficiary and `fund` kobo deposited. */
const savedCustomer = (tag: string, fund: number, destination: string) =>
  Effect.gen(function*() {
    const c = yield* bankCustomer(tag)
    yield* deposit(c.accessToken, fund)
    expectSuccess(
      yield* post("/api/v1/beneficiaries", { accountNumber: destination, bankCode: "000013", bankName: "GTBank" }, c.accessToken),
      { status: 201, apiObject: "Beneficiary" }
    )
    return c
  })

interface Row {
  readonly id: string
  readonly status: string
  readonly transferState: string
  readonly reversalState: string
  readonly restored: boolean
  readonly amountKobo: string
  readonly feeKobo: string
}

const movements = (customerId: CustomerId, purpose: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<Row>`
      SELECT id, status, transfer_state, reversal_state, restored, amount_kobo, fee_kobo FROM transactions
      WHERE customer_id = ${customerId} AND purpose = ${purpose} ORDER BY created_at, id`).pipe(Effect.orDie)

/** What staff do at the bank for `credited_back`: the customer's amount + fee credited by hand, under a reference of their own. */
const creditByHand = (accountNumber: string, row: Row) =>
  Effect.flatMap(CoreBanking, (bank) =>
    bank.credit({
      accountNumber,
      amountKobo: BigInt(row.amountKobo) + BigInt(row.feeKobo),
      reference: referenceFor("M", randomUUID()),
      narration: "Manual reversal by bank operations"
    })).pipe(Effect.orDie)

const expectParked = (row: Row | undefined) =>
  expect(row).toMatchObject({ status: "pending", transferState: "failed", reversalState: "refused", restored: true })

const auditOf = (transactionId: TransactionId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ actorId: string; beforeJson: string | null; afterJson: string | null }>`
      SELECT actor_id, before_json, after_json FROM audit_log WHERE action = 'movement.resolve' AND target_id = ${transactionId}`).pipe(
      Effect.orDie,
      Effect.map((rows) =>
        rows.map((r) => ({
          actorId: r.actorId,
          before: r.beforeJson === null ? null : JSON.parse(r.beforeJson),
          after: r.afterJson === null ? null : JSON.parse(r.afterJson)
        }))
      )
    )

/** The plan's payouts that reached the bank and were confirmed. */
const confirmedPayouts = (customerId: CustomerId) =>
  Effect.map(movements(customerId, "disbursement"), (rows) => rows.filter((r) => r.status === "confirmed"))

/** A PATCH of the plan to a good withdrawal account, behind the OTP gate. */
const moveDestination = (c: { readonly accessToken: string; readonly email: string; readonly body: Record<string, unknown> }) =>
  Effect.gen(function*() {
    const otp = yield* actionOtp(c.accessToken, c.email)
    return yield* patchPlan(c.accessToken, { ...c.body, withdrawalAccountNumber: "0123450001", ...otp })
  })

layer(adminServer(), { excludeTestServices: true, timeout: "180 seconds" })("resolve movement", (it) => {
  let admin: Member
  let support: Member
  let officer: Member
  const staff = Effect.gen(function*() {
    if (admin === undefined) {
      admin = yield* member("admin")
      support = yield* member("support")
      officer = yield* member("officer")
    }
    return { admin, support, officer }
  })

  it.effect("a closure whose sweep and its reversal the bank refused: stuck closing until staff credit it back by hand and resolve; then the account is active again", () =>
    Effect.gen(function*() {
      const { admin, officer, support } = yield* staff
      const c = yield* savedCustomer("rm-close", 300_000, REFUSES_REVERSAL)
      expect(expectSuccess(yield* closeAccount(c), { apiObject: CUSTOMER }).status).toBe("pending")
      const [sweep] = yield* sweepRow(c.customerId)
      const [row] = yield* movements(c.customerId, "early_withdrawal")
      expectParked(row)
      expect(yield* alertKindsOf(c.customerId)).toContain("reversal_refused")
      // what the customer lived with: closing, every money endpoint refused, and the jobs change nothing
      yield* Transfers.processDue()
      yield* Lifecycle.processClosures()
      expect(yield* customerStatus(c.id)).toBe("closing")
      const refused = expectFailure(yield* post(TRANSFER, transferBody(), c.accessToken), 400, "Your account is not active", "Transaction")
      expect(refused.code).toBe("ACCOUNT_NOT_ACTIVE")
      // a lower role cannot resolve it, and bad input is a 400 naming the fields
      for (const who of [support, officer]) {
        const denied = expectFailure(yield* resolve(TransactionId.make(sweep!.id), { outcome: "credited_back", note: NOTE }, who.token), 403, "Your role does not allow this", ADMIN)
        expect(denied).toEqual({ code: "PERMISSION_DENIED", permission: "transactions:resolve" })
      }
      expectValidation(yield* resolve(TransactionId.make(sweep!.id), { outcome: "refunded", note: "  " }, admin.token), { fields: ["outcome", "note"], apiObject: ADMIN })
      expectFailure(yield* resolve(TransactionId.make(randomUUID()), { outcome: "credited_back", note: NOTE }, admin.token), 404, "Transaction not found", ADMIN)
      expect(yield* movements(c.customerId, "early_withdrawal")).toEqual([row])

      // staff credit the money back at the bank, then record it
      const before = yield* atTheBank(c.accountNumber)
      expect(before.account.ledgerBalanceKobo).toBe(300_000n - BigInt(sweep!.amountKobo) - BigInt(sweep!.feeKobo))
      yield* creditByHand(c.accountNumber, row!)
      const resolved = expectSuccess(yield* resolve(TransactionId.make(sweep!.id), { outcome: "credited_back", note: NOTE }, admin.token), {
        apiObject: ADMIN,
        message: "Movement resolved."
      })
      expect(resolved).toMatchObject({
        transaction: { id: sweep!.id, status: "failed" },
        resolution: { outcome: "credited_back", note: NOTE, requestedBy: admin.id, resolvedBy: admin.id },
        closureStatus: "failed",
        planState: null
      })
      expect(yield* customerStatus(c.id)).toBe("active")
      expect(mails(c.email, "account_closure_failed")).toHaveLength(1)
      expect(mails(c.email, "transfer_failed")).toHaveLength(1)
      expect(yield* alertKindsOf(c.customerId)).not.toContain("reversal_refused")
      const [audit] = yield* auditOf(TransactionId.make(sweep!.id))
      expect(audit).toMatchObject({
        actorId: admin.id,
        before: { status: "pending", transferState: "failed", reversalState: "refused" },
        after: { status: "failed", outcome: "credited_back", note: NOTE, requestedBy: admin.id }
      })
      // twice: refused, nothing changes
      const again = expectFailure(yield* resolve(TransactionId.make(sweep!.id), { outcome: "delivered", note: NOTE }, admin.token), 409, /already final/, ADMIN)
      expect(again).toMatchObject({ code: "MOVEMENT_NOT_AWAITING_OPERATOR", reason: "final", transactionStatus: "failed" })
      // the customer is whole and usable: money moves again
      expect(yield* balanceOf(c.accessToken)).toBe(300_000n)
      expectSuccess(yield* post(TRANSFER, transferBody(), c.accessToken), { apiObject: "Transaction" })
      expect(yield* balanceOf(c.accessToken)).toBe(300_000n - 10_000n - nipFee(10_000n))
      yield* booksBalance
    }))

  it.effect("a deletion waiting on such a sweep: resolved `delivered`, the closure finishes and the customer is deleted", () =>
    Effect.gen(function*() {
      const { admin } = yield* staff
      const c = yield* savedCustomer("rm-delete", 300_000, REFUSES_REVERSAL)
      expect(expectSuccess(yield* deleteAccount(c, { idempotencyKey: randomUUID() }), { apiObject: CUSTOMER })).toMatchObject({ status: "closing" })
      const [row] = yield* movements(c.customerId, "early_withdrawal")
      expectParked(row)
      const resolved = expectSuccess(yield* resolve(TransactionId.make(row!.id), { outcome: "delivered", note: NOTE }, admin.token), { apiObject: ADMIN })
      expect(resolved).toMatchObject({ transaction: { id: row!.id, status: "confirmed" }, closureStatus: "closed" })
      expect(yield* customerStatus(c.id)).toBe("deleted")
      const bank = yield* atTheBank(c.accountNumber)
      expect(bank.account.frozen).toBe(true)
      // the resolution is kept after the customer's transactions went to the retention store
      const sql = yield* SqlClient.SqlClient
      const kept = yield* sql`SELECT outcome FROM movement_resolutions WHERE transaction_id = ${row!.id}`
      expect(kept).toEqual([{ outcome: "delivered" }])
      yield* booksBalance
    }))

  it.effect("a payout whose transfer and reversal were refused blocks the plan (PATCH 400, nothing paid twice); resolved `delivered`, the next cycle is paid exactly once", () =>
    Effect.gen(function*() {
      const { admin, support } = yield* staff
      const c = yield* planCustomer("rm-payout", { body: { withdrawalAccountNumber: REFUSES_REVERSAL } })
      const funded = yield* balanceOf(c.accessToken)
      yield* makeDue(c.plan.id)
      yield* Plans.processDuePayouts()
      const [stuck] = yield* movements(c.customerId, "disbursement")
      expectParked(stuck)
      const amount = BigInt(stuck!.amountKobo)
      expect(yield* balanceOf(c.accessToken)).toBe(funded - amount - nipFee(amount))
      const blocked = expectFailure(yield* moveDestination(c), 400, /in progress/, DISBURSEMENT)
      expect(blocked.code).toBe("PAYOUT_IN_PROGRESS")
      // the job runs again, due or not: the cycle is not paid a second time
      yield* makeDue(c.plan.id)
      yield* Plans.processDuePayouts()
      yield* Transfers.processDue()
      expect(yield* movements(c.customerId, "disbursement")).toHaveLength(1)
      expectFailure(yield* resolve(TransactionId.make(stuck!.id), { outcome: "delivered", note: NOTE }, support.token), 403, "Your role does not allow this", ADMIN)

      const resolved = expectSuccess(yield* resolve(TransactionId.make(stuck!.id), { outcome: "delivered", note: NOTE }, admin.token), { apiObject: ADMIN })
      expect(resolved).toMatchObject({ transaction: { id: stuck!.id, status: "confirmed" }, planState: "active", closureStatus: null })
      expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(1)
      expect(mails(c.email, "disbursement_failed")).toHaveLength(0)
      // the customer fixes the destination; the next cycle falls due and is paid once
      expectSuccess(yield* moveDestination(c), { apiObject: DISBURSEMENT })
      yield* makeDue(c.plan.id)
      yield* Plans.processDuePayouts()
      yield* Plans.processDuePayouts()
      const paid = yield* confirmedPayouts(c.customerId)
      expect(paid.map((p) => p.id)).toHaveLength(2)
      expect(yield* movements(c.customerId, "disbursement")).toHaveLength(2)
      expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(2)
      expect(yield* balanceOf(c.accessToken)).toBe(funded - 2n * (amount + nipFee(amount)))
      yield* booksBalance
    }))

  it.effect("two operators resolving a parked manual transfer at once, with opposite outcomes: one wins, the other is 409; one record, one audit row", () =>
    Effect.gen(function*() {
      const { admin } = yield* staff
      const other = yield* member("superadmin")
      const c = yield* bankCustomer("rm-race")
      yield* deposit(c.accessToken, 200_000)
      const sent = expectSuccess(yield* post(TRANSFER, transferBody(REFUSES_REVERSAL, 50_000), c.accessToken), { apiObject: "Transaction" })
      expect(sent.status).toBe("pending")
      const [row] = yield* movements(c.customerId, "manual_transfer")
      expectParked(row)
      const [a, b] = yield* Effect.all([
        resolve(TransactionId.make(row!.id), { outcome: "credited_back", note: NOTE }, admin.token),
        resolve(TransactionId.make(row!.id), { outcome: "delivered", note: NOTE }, other.token)
      ], { concurrency: 2 })
      expect([a.status, b.status].sort()).toEqual([200, 409])
      const winner = a.status === 200 ? "credited_back" : "delivered"
      const loser = a.status === 200 ? b : a
      expect(loser.body.error).toMatchObject({ code: "MOVEMENT_NOT_AWAITING_OPERATOR", reason: "final" })
      const sql = yield* SqlClient.SqlClient
      const records = yield* sql<{ outcome: string }>`SELECT outcome FROM movement_resolutions WHERE transaction_id = ${row!.id}`
      expect(records).toEqual([{ outcome: winner }])
      expect(yield* auditOf(TransactionId.make(row!.id))).toHaveLength(1)
      const [after] = yield* movements(c.customerId, "manual_transfer")
      expect(after!.status).toBe(winner === "credited_back" ? "failed" : "confirmed")
      expect(mails(c.email, "transfer_failed")).toHaveLength(winner === "credited_back" ? 1 : 0)
      yield* booksBalance
    }))

  it.effect("only a parked movement: one the saga still drives (pending at the bank) and a deposit are refused, nothing changes", () =>
    Effect.gen(function*() {
      const { admin } = yield* staff
      const c = yield* bankCustomer("rm-refusals")
      yield* deposit(c.accessToken, 100_000)
      const [funding] = yield* movements(c.customerId, "deposit")
      const pending = expectSuccess(yield* post(TRANSFER, transferBody("0123450002"), c.accessToken), { apiObject: "Transaction" })
      expect(pending.status).toBe("pending")
      const driven = expectFailure(yield* resolve(pending.id, { outcome: "delivered", note: NOTE }, admin.token), 409, /still being driven/, ADMIN)
      expect(driven).toMatchObject({ code: "MOVEMENT_NOT_AWAITING_OPERATOR", reason: "in_progress", transactionStatus: "pending" })
      const notMovement = expectFailure(yield* resolve(TransactionId.make(funding!.id), { outcome: "credited_back", note: NOTE }, admin.token), 409, /not a money movement/, ADMIN)
      expect(notMovement).toMatchObject({ code: "MOVEMENT_NOT_AWAITING_OPERATOR", reason: "not_a_movement" })
      const [row] = yield* movements(c.customerId, "manual_transfer")
      expect(row).toMatchObject({ status: "pending", transferState: "pending" })
      expect(yield* auditOf(pending.id)).toEqual([])
      // reconciliation still finishes it as usual
      const history = expectSuccess(yield* get(`/api/v1/transactions/${pending.id}`, c.accessToken), { apiObject: "Transaction" })
      expect(history.status).toBe("pending")
    }))
})

layer(adminServer({ adminFourEyes: true }), { excludeTestServices: true, timeout: "180 seconds" })("resolve movement under four-eyes", (it) => {
  it.effect("a payout resolved `credited_back`: filed (202), the requester cannot approve it, a second admin does; retried and paid exactly once", () =>
    Effect.gen(function*() {
      const asking = yield* member("admin")
      const second = yield* member("admin")
      const support = yield* member("support")
      const c = yield* planCustomer("rm-four-eyes", { body: { withdrawalAccountNumber: REFUSES_REVERSAL } })
      const funded = yield* balanceOf(c.accessToken)
      yield* makeDue(c.plan.id)
      yield* Plans.processDuePayouts()
      const [stuck] = yield* movements(c.customerId, "disbursement")
      expectParked(stuck)
      const filed = expectSuccess(yield* resolve(TransactionId.make(stuck!.id), { outcome: "credited_back", note: NOTE }, asking.token), {
        status: 202,
        apiObject: ADMIN,
        message: "Resolution filed for a second member's approval."
      }).pendingApproval
      expect(filed).toMatchObject({
        status: "pending",
        requestedBy: asking.id,
        action: { _tag: "movement.resolve", transactionId: stuck!.id, outcome: "credited_back", note: NOTE }
      })
      // nothing applied yet
      expect((yield* movements(c.customerId, "disbursement"))[0]).toEqual(stuck)
      const own = expectFailure(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, asking.token), 403, /second member/, ADMIN)
      expect(own.code).toBe("OWN_APPROVAL")
      // a role without the permission neither files nor decides it
      expectFailure(yield* resolve(TransactionId.make(stuck!.id), { outcome: "credited_back", note: NOTE }, support.token), 403, "Your role does not allow this", ADMIN)
      expectFailure(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, support.token), 404, /No approval/, ADMIN)
      expect((yield* movements(c.customerId, "disbursement"))[0]).toEqual(stuck)

      yield* creditByHand(c.accountNumber, stuck!)
      const approved = expectSuccess(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, second.token), {
        apiObject: ADMIN,
        message: "Approved and applied."
      })
      expect(approved.result).toMatchObject({
        transaction: { id: stuck!.id, status: "failed" },
        resolution: { outcome: "credited_back", requestedBy: asking.id, resolvedBy: second.id },
        planState: "active"
      })
      expect(mails(c.email, "disbursement_failed")).toHaveLength(1)
      expect(yield* balanceOf(c.accessToken)).toBe(funded)
      const decided = expectFailure(yield* post(`/api/v1/admin/approvals/${filed.id}/approve`, undefined, second.token), 409, /already decided/, ADMIN)
      expect(decided.code).toBe("APPROVAL_DECIDED")
      // a second request for the settled movement is refused at once
      expectFailure(yield* resolve(TransactionId.make(stuck!.id), { outcome: "delivered", note: NOTE }, second.token), 409, /already final/, ADMIN)

      // the failed attempt is retried once the customer fixes the destination: cycle 1 paid, once
      const otp = yield* actionOtp(c.accessToken, c.email)
      expectSuccess(yield* patchPlan(c.accessToken, { ...c.body, withdrawalAccountNumber: "0123450001", ...otp }), { apiObject: DISBURSEMENT })
      yield* makeDue(c.plan.id)
      yield* Plans.processDuePayouts()
      yield* Plans.processDuePayouts()
      const rows = yield* movements(c.customerId, "disbursement")
      expect(rows.map((r) => r.status)).toEqual(["failed", "confirmed"])
      expect((yield* getPlan(c.accessToken)).cyclesPaid).toBe(1)
      const amount = BigInt(stuck!.amountKobo)
      expect(yield* balanceOf(c.accessToken)).toBe(funded - amount - nipFee(amount))
      yield* booksBalance
    }))
})

