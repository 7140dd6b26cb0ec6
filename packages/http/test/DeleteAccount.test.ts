/**
 * POST /api/v1/customers/delete-account end to end, on the real stack: deletion of an account with
 * no bank account or a closed one, the close-first path (closing → deleted, in the request or by
 * the closure job), every refusal, a deletion that fails part-way (rolled back, staff alerted),
 * and a re-registration with the freed email, phone and BVN that sees nothing of the old account.
 */
import { Alerts, CustomerId, Lifecycle, TransactionId, Transfers } from "@app/domain"
import { CoreBanking } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { AppConfig } from "@app/adapters"
import { readRetained } from "@app/adapters/lifecycle/AccountErasureSql"
import { OutboxQueue } from "@app/adapters/notifications/OutboxQueueSql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { actionOtp, bvnBody, createAccount, get, inboundTransfer, pollUntil, verifyBvn, webhook } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, expireOtps, login, me, post, register, verifiedAccount } from "./support/Fixtures.js"
import { lastCode, outbox } from "./support/TestServer.js"
import { atTheBank, booksBalance, closeAccount, customerStatus, DELETE, deleteAccount, due, reconcileSweep, sweepRow } from "./support/LifecycleFixtures.js"
import { deposit, planCustomer } from "./support/PlanFixtures.js"
import { TestServer } from "./support/TestServer.js"

const CUSTOMER = "Customer"
const YEAR_MS = 365 * 24 * 3600_000

/** A customer with a phone, a verified BVN (both known), a bank account, `fund` kobo and a default beneficiary. */
const fullCustomer = (tag: string, fund: number, destination = "0123450001") =>
  Effect.gen(function*() {
    const c = yield* verifiedAccount(tag, { withPhone: true })
    const kyc = bvnBody({ phone: c.phone!.national })
    expectSuccess(yield* verifyBvn(kyc, c.accessToken), { message: "BVN verified." })
    const created = expectSuccess(yield* createAccount(c.accessToken), { status: 201, apiObject: CUSTOMER })
    if (fund > 0) yield* deposit(c.accessToken, fund)
    expectSuccess(
      yield* post("/api/v1/beneficiaries", { accountNumber: destination, bankCode: "000013", bankName: "GTBank" }, c.accessToken),
      { status: 201, apiObject: "Beneficiary" }
    )
    return { ...c, bvn: kyc.bvn as string, accountNumber: created.accountNumber as string }
  })

/** The messages in notification_outbox addressed to `recipient`. */
const outboxRows = (recipient: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; kind: string; status: string }>`
      SELECT id, kind, status FROM notification_outbox WHERE recipient = ${recipient} ORDER BY created_at, id`).pipe(Effect.orDie)

const expectDeleted = (result: any) => {
  expect(result.status).toBe("deleted")
  const retainUntil = Date.parse(result.retainUntil)
  expect(retainUntil - Date.now()).toBeGreaterThan(5 * YEAR_MS - 2 * 24 * 3600_000)
  expect(retainUntil - Date.now()).toBeLessThan(5 * YEAR_MS + 3 * 24 * 3600_000)
}

const rowsOf = (customerId: CustomerId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const count = (table: string) =>
      Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE customer_id = ${customerId}`, (r) => r[0]!.n)
    const deletion = yield* sql<{ id: string; status: string; counts: unknown; via: string | null }>`
      SELECT id, status, counts, via FROM deletion_records WHERE customer_id = ${customerId}`
    const retained = deletion.length === 0
      ? []
      : yield* sql<{ kind: string }>`SELECT kind FROM retained_records WHERE deletion_id = ${deletion[0]!.id}`
    return {
      transactions: yield* count("transactions"),
      beneficiaries: yield* count("beneficiaries"),
      deletion,
      retained: retained.map((r) => r.kind)
    }
  }).pipe(Effect.orDie)

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("delete-account", (it) => {
  it.effect("an account without a bank account: deleted at once; its token is refused right after; email and phone are free again", () =>
    Effect.gen(function*() {
      const c = yield* verifiedAccount("del-plain", { withPhone: true })
      const result = expectSuccess(yield* deleteAccount(c, { via: "web" }), { apiObject: CUSTOMER })
      expectDeleted(result)
      // the access token issued before is refused at once, and so is the refresh token
      expectFailure(yield* me(c.accessToken), 401, "Authentication required", CUSTOMER)
      expectFailure(yield* post("/api/v1/auth/refresh-token", { refreshToken: c.refreshToken }), 401, /./)
      expectFailure(yield* login({ email: c.email, password: c.password }), 401, /./)
      const sql = yield* SqlClient.SqlClient
      const [account] = yield* sql<{ email: string; phone: string | null; firstName: string | null; passwordHash: string | null }>`
        SELECT email, phone, first_name, password_hash FROM accounts WHERE id = ${c.id}`
      expect(account).toEqual({ email: `deleted-${c.id}@deleted.invalid`, phone: null, firstName: null, passwordHash: null })
      const rows = yield* rowsOf(c.customerId)
      expect(rows.deletion).toMatchObject([{ status: "pending_review", via: "web" }])
      expect(rows.retained).toEqual(["kyc"])
      // the same email and phone register again
      const again = expectSuccess(yield* post("/api/v1/auth/register", { email: c.email, password: "another-password-1", phone: c.phone!.national }), {
        status: 201
      })
      expect(again.id).not.toBe(c.id)
      // the old token does not reach delete-account either (the suspended-customer door lets no deleted one through)
      expectFailure(yield* post(DELETE, { otpPinId: randomUUID(), otpCode: "123456" }, c.accessToken), 401, "Authentication required", CUSTOMER)
      yield* booksBalance
    }))

  it.effect("money arriving for a deleted customer (their old account, frozen at the bank): the webhook records it and raises the critical frozen_account_credit alert", () =>
    Effect.gen(function*() {
      const c = yield* fullCustomer("del-credit", 200_000)
      expectSuccess(yield* closeAccount(c), { apiObject: CUSTOMER })
      expectDeleted(expectSuccess(yield* deleteAccount(c, { via: "web" }), { apiObject: CUSTOMER }))
      yield* inboundTransfer(c.accountNumber, 70_000n)
      expectSuccess(yield* webhook({ accountNumber: c.accountNumber }), { apiObject: "Webhook" })
      const forDeleted = Effect.map(Alerts.listOpen, (alerts) =>
        alerts.filter((a) => a.customerId === c.customerId && a.kind === "frozen_account_credit"))
      const alerts = yield* pollUntil(forDeleted, (found) => found.length > 0, 10_000)
      expect(alerts.map((a) => a.severity)).toEqual(["critical"])
      expect(alerts[0]!.message).toContain("₦700.00")
      expect(alerts[0]!.message).toContain("deleted")
      // on the tombstone's ledger (the transactions stay), once: a second notification adds nothing
      const sql = yield* SqlClient.SqlClient
      const deposits = () => sql`SELECT amount_kobo FROM transactions WHERE customer_id = ${c.customerId} AND purpose = 'deposit' AND amount_kobo = 70000`
      expect((yield* deposits()).length).toBe(1)
      expectSuccess(yield* webhook({ accountNumber: c.accountNumber }), { apiObject: "Webhook" })
      yield* Effect.sleep("500 millis")
      expect((yield* deposits()).length).toBe(1)
      expect((yield* forDeleted).length).toBe(1)
    }), 90_000)

  it.effect("a closed account: deleted, transactions and KYC retained (sealed), the outbox and the rest erased; a re-registration with the same email, phone and BVN starts from nothing", () =>
    Effect.gen(function*() {
      const c = yield* fullCustomer("del-closed", 300_000)
      expectSuccess(yield* closeAccount(c), { apiObject: CUSTOMER })
      expect(yield* customerStatus(c.id)).toBe("closed")
      const before = yield* rowsOf(c.customerId)
      expect(before.transactions).toBe(2) // the deposit and the sweep
      // a spending logged and a ticket opened before the deletion
      const today = new Date().toISOString().slice(0, 10)
      expectSuccess(yield* post("/api/v1/spendings", { amountKobo: 150_000, category: "food", date: today, description: "lunch with Ada" }, c.accessToken), {
        status: 201,
        apiObject: "Spending"
      })
      const ticket = expectSuccess(
        yield* post("/api/v1/support/tickets", { subject: "Close my account", message: "My name is Ada and I am leaving" }, c.accessToken),
        { status: 201, apiObject: "Support" }
      )
      const [stored] = yield* (yield* SqlClient.SqlClient)<{ phone: string; firstName: string; lastName: string }>`
        SELECT phone, first_name, last_name FROM accounts WHERE id = ${c.id}`
      // what the notifier queues when an email transport is configured (the test server has none, so it
      // queues nothing): the closure statement not delivered yet, and another message, one of them sent
      const queue = yield* OutboxQueue
      const message = (kind: string) => ({ channel: "email" as const, to: c.email, kind, subject: "About your account", text: `Dear ${c.email}` })
      yield* queue.enqueue(randomUUID(), message("account_closed"), new Date())
      yield* queue.enqueue(randomUUID(), message("support_reply"), new Date())
      const sentId = randomUUID()
      yield* queue.enqueue(sentId, message("plan_completed"), new Date())
      yield* queue.markSent(sentId, new Date())
      expect(yield* outboxRows(c.email)).toHaveLength(3)
      expectDeleted(expectSuccess(yield* deleteAccount(c, { via: "mobile" }), { apiObject: CUSTOMER }))
      const after = yield* rowsOf(c.customerId)
      // the transactions stay (the ledger is kept; a movement row is never deleted), with a sealed copy retained
      expect(after).toMatchObject({ transactions: 2, beneficiaries: 0 })
      expect(after.deletion[0]).toMatchObject({ status: "pending_review", via: "mobile" })
      const counts = typeof after.deletion[0]!.counts === "string" ? JSON.parse(after.deletion[0]!.counts) : after.deletion[0]!.counts
      expect(counts).toMatchObject({ transactions: 2, beneficiaries: 1, spendings: 1, tickets: 1 })
      // the spending log is erased; the ticket stays for review, closed, without what the customer wrote
      const db = yield* SqlClient.SqlClient
      expect((yield* db<{ n: number }>`SELECT count(*)::int AS n FROM spendings WHERE customer_id = ${c.customerId}`)[0]!.n).toBe(0)
      const [kept] = yield* db<{ subject: string; status: string }>`SELECT subject, status FROM support_tickets WHERE id = ${ticket.id}`
      expect(kept).toEqual({ subject: "[erased]", status: "closed" })
      const bodies = yield* db<{ body: string }>`SELECT body FROM support_ticket_messages WHERE ticket_id = ${ticket.id}`
      expect(bodies.map((b) => b.body)).toEqual(["[erased at account deletion]"])
      expect(after.retained.sort()).toEqual(["kyc", "outbox_hold", "transaction", "transaction"])
      expect(yield* customerStatus(c.id)).toBe("deleted")
      // the retention store: keyed by the deletion only, sealed; nothing personal in what is stored
      const sql = yield* SqlClient.SqlClient
      const deletionId = after.deletion[0]!.id
      const texts = yield* sql<{ kind: string; text: string }>`
        SELECT kind, payload::text AS text FROM retained_records WHERE deletion_id = ${deletionId} AND kind <> 'outbox_hold'`
      expect(texts).toHaveLength(3)
      for (const { text } of texts) {
        expect(Object.keys(JSON.parse(text)).sort()).toEqual(["alg", "ct", "iv", "tag", "v"])
        // JSON-quoted, as a clear payload would hold them (a quote never occurs in base64)
        for (const personal of [c.email, stored!.phone, c.phone!.national, `"${stored!.firstName}"`, `"${stored!.lastName}"`, c.customerId, c.accountNumber]) {
          expect(text).not.toContain(personal)
        }
      }
      // RETENTION_KEY gives them back
      const opened = yield* readRetained((yield* AppConfig).retentionKey, deletionId)
      expect(opened.map((r) => r.kind).sort()).toEqual(["kyc", "transaction", "transaction"])
      expect(opened.find((r) => r.kind === "kyc")!.record).toMatchObject({
        email: c.email,
        phone: stored!.phone,
        firstName: stored!.firstName,
        lastName: stored!.lastName,
        customerId: c.customerId,
        coreAccountNumber: c.accountNumber
      })
      expect(opened.filter((r) => r.kind === "transaction").map((r: any) => r.record.customer_id)).toEqual([c.customerId, c.customerId])
      // the outbox keeps only the pending closure statement, until it is sent
      const queued = yield* outboxRows(c.email)
      expect(queued.map((m) => [m.kind, m.status])).toEqual([["account_closed", "pending"]])
      yield* sql`UPDATE notification_outbox SET status = 'sent', sent_at = now() WHERE id = ${queued[0]!.id}`
      // kept until retainUntil; the daily purge removes them after (and the statement, sent meanwhile)
      yield* sql`UPDATE retained_records SET retain_until = now() - interval '1 minute' WHERE deletion_id = ${deletionId}`
      expect(yield* Lifecycle.purgeRetained).toBeGreaterThanOrEqual(3)
      expect((yield* rowsOf(c.customerId)).retained).toEqual([])
      expect(yield* outboxRows(c.email)).toEqual([])

      // the same person registers again with the freed email, phone and BVN
      const reg = expectSuccess(yield* post("/api/v1/auth/register", { email: c.email, password: "a-new-password-1", phone: c.phone!.national }), { status: 201 })
      expectSuccess(yield* post("/api/v1/auth/otp/email/send", { accountId: reg.id }))
      const tokens = expectSuccess(yield* post("/api/v1/auth/otp/email/verify", { accountId: reg.id, pin: lastCode(c.email, "email_verification") }))
      const token = tokens.accessToken as string
      expectSuccess(yield* verifyBvn(bvnBody({ bvn: c.bvn, phone: c.phone!.national }), token), { message: "BVN verified." })
      const fresh = expectSuccess(yield* me(token), { apiObject: CUSTOMER })
      expect(fresh.id).toBe(reg.id)
      expect(fresh.coreAccountNumber ?? null).toBeNull()
      expectSuccess(yield* createAccount(token), { status: 201, apiObject: CUSTOMER })
      const history = expectSuccess(yield* get("/api/v1/transactions", token), { apiObject: "Transaction" })
      expect(history.items ?? history).toHaveLength(0)
      expect(expectSuccess(yield* get("/api/v1/beneficiaries", token), { apiObject: "Beneficiary" })).toEqual([])
      expect(expectSuccess(yield* get("/api/v1/spendings", token), { apiObject: "Spending" }).total).toBe(0)
      expect(expectSuccess(yield* get("/api/v1/support/tickets", token), { apiObject: "Support" }).total).toBe(0)
      expect(expectSuccess(yield* get("/api/v1/customers/balance", token), { apiObject: CUSTOMER }).balanceKobo).toBe(0)
      yield* booksBalance
    }))

  describe("an account with a bank account", () => {
    it.effect("no key: 409 CLOSE_ACCOUNT_FIRST, nothing changes and the code is not spent: resent with a key, it deletes", () =>
      Effect.gen(function*() {
        const c = yield* fullCustomer("del-first", 100_000)
        const otp = yield* actionOtp(c.accessToken, c.email)
        const reply = yield* post(DELETE, otp, c.accessToken)
        const refused = expectFailure(reply, 409, /closed first/, CUSTOMER)
        // the code both ways: error.code, and data.code as the spec names it
        expect(refused.code).toBe("CLOSE_ACCOUNT_FIRST")
        expect(reply.body.error.code).toBe("CLOSE_ACCOUNT_FIRST")
        expect(reply.body.data.code).toBe("CLOSE_ACCOUNT_FIRST")
        expect(yield* customerStatus(c.id)).toBe("active")
        expectSuccess(yield* me(c.accessToken), { apiObject: CUSTOMER })
        // the spec's next step: the same request with an idempotencyKey, the same code
        expectDeleted(expectSuccess(yield* post(DELETE, { ...otp, idempotencyKey: randomUUID() }, c.accessToken), { apiObject: CUSTOMER }))
        expect(yield* customerStatus(c.id)).toBe("deleted")
        yield* booksBalance
      }))

    it.effect("with a key, a sweep confirmed at once: closed and deleted in the request", () =>
      Effect.gen(function*() {
        const c = yield* fullCustomer("del-now", 200_000)
        expectDeleted(expectSuccess(yield* deleteAccount(c, { idempotencyKey: randomUUID() }), { apiObject: CUSTOMER }))
        expect(yield* customerStatus(c.id)).toBe("deleted")
        const bank = yield* (yield* CoreBanking).account(c.accountNumber)
        expect(bank).toMatchObject({ frozen: true, ledgerBalanceKobo: 0n })
        expectFailure(yield* me(c.accessToken), 401, "Authentication required", CUSTOMER)
        yield* booksBalance
      }))

    it.effect("with a key, a pending sweep: 'closing'; once reconciled, the same call answers 'deleted'", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("del-retry", { body: { withdrawalAccountNumber: "0123450002" } })
        const key = randomUUID()
        expect(expectSuccess(yield* deleteAccount(c, { idempotencyKey: key }), { apiObject: CUSTOMER })).toEqual({ status: "closing" })
        expect(yield* customerStatus(c.id)).toBe("closing")
        // the same call again: still closing (no new code needed for a key seen before)
        const retry = { idempotencyKey: key, otpPinId: "used", otpCode: "000000" }
        expect(expectSuccess(yield* post(DELETE, retry, c.accessToken), { apiObject: CUSTOMER })).toEqual({ status: "closing" })
        const [row] = yield* sweepRow(c.customerId)
        for (let pass = 0; pass < 3 && (yield* sweepRow(c.customerId))[0]!.status === "pending"; pass++) {
          yield* due(TransactionId.make(row!.id))
          yield* Transfers.processDue()
        }
        expectDeleted(expectSuccess(yield* post(DELETE, retry, c.accessToken), { apiObject: CUSTOMER }))
        expect(yield* customerStatus(c.id)).toBe("deleted")
        yield* booksBalance
      }))

    it.effect("with a key, a pending sweep: the closure job finishes the deletion; the old token is refused", () =>
      Effect.gen(function*() {
        const c = yield* planCustomer("del-job", { body: { withdrawalAccountNumber: "0123450002" } })
        expect(expectSuccess(yield* deleteAccount(c, { idempotencyKey: randomUUID(), via: "mobile" }), { apiObject: CUSTOMER }))
          .toEqual({ status: "closing" })
        const [row] = yield* sweepRow(c.customerId)
        for (let pass = 0; pass < 3 && (yield* sweepRow(c.customerId))[0]!.status === "pending"; pass++) {
          yield* due(TransactionId.make(row!.id))
          yield* Transfers.processDue()
        }
        expect(yield* Lifecycle.processClosures()).toBe(1)
        expect(yield* customerStatus(c.id)).toBe("deleted")
        expect((yield* rowsOf(c.customerId)).deletion).toMatchObject([{ status: "pending_review", via: "mobile" }])
        expectFailure(yield* me(c.accessToken), 401, "Authentication required", CUSTOMER)
        yield* booksBalance
      }))

    it.effect("closing fails (no destination): 400, nothing changes", () =>
      Effect.gen(function*() {
        const c = yield* verifiedAccount("del-nodest")
        expectSuccess(yield* verifyBvn(bvnBody(), c.accessToken), { message: "BVN verified." })
        expectSuccess(yield* createAccount(c.accessToken), { status: 201, apiObject: CUSTOMER })
        yield* deposit(c.accessToken, 100_000)
        const refused = expectFailure(yield* deleteAccount(c, { idempotencyKey: randomUUID() }), 400, /No destination/, CUSTOMER)
        expect(refused.code).toBe("NO_DESTINATION_ACCOUNT")
        expect(yield* customerStatus(c.id)).toBe("active")
        yield* booksBalance
      }))

    it.effect("with a key, a pending sweep that fails at reconciliation (0005): 'closing', then reversed; active, told; not deleted", () =>
      Effect.gen(function*() {
        const c = yield* fullCustomer("del-late-fail", 300_000, "0123450005")
        const key = randomUUID()
        expect(expectSuccess(yield* deleteAccount(c, { idempotencyKey: key }), { apiObject: CUSTOMER })).toEqual({ status: "closing" })
        expect(yield* reconcileSweep(c.customerId)).toBe("failed")
        expect(yield* Lifecycle.processClosures()).toBe(1)
        expect(yield* customerStatus(c.id)).toBe("active")
        expect((yield* atTheBank(c.accountNumber)).account).toMatchObject({ frozen: false, ledgerBalanceKobo: 300_000n })
        expect(outbox().filter((m) => m.to === c.email && m.kind === "account_closure_failed")).toHaveLength(1)
        // the same call now answers the failed closing (400), and nothing was deleted
        const retry = yield* post(DELETE, { idempotencyKey: key, otpPinId: "used", otpCode: "000000" }, c.accessToken)
        expect(expectFailure(retry, 400, /^Transfer failed/, CUSTOMER).code).toBe("TRANSFER_FAILED")
        expect((yield* rowsOf(c.customerId)).deletion).toEqual([])
        expectSuccess(yield* me(c.accessToken), { apiObject: CUSTOMER })
        yield* booksBalance
      }))

    it.effect("frozen at the bank or suspended: 409 ACCOUNT_FROZEN; OTP invalid or expired: 401; validation: 400", () =>
      Effect.gen(function*() {
        const c = yield* fullCustomer("del-frozen", 100_000)
        yield* (yield* CoreBanking).freeze({ accountNumber: c.accountNumber, reason: "test: staff freeze" })
        const frozen = expectFailure(yield* deleteAccount(c, { idempotencyKey: randomUUID() }), 409, /frozen/, CUSTOMER)
        expect(frozen.code).toBe("ACCOUNT_FROZEN")
        // the OTP gate (reached by an account without a bank account: the 409s above come first)
        const v = yield* verifiedAccount("del-otp")
        const bad = yield* post(DELETE, { otpPinId: randomUUID(), otpCode: "123456" }, v.accessToken)
        expect(expectFailure(bad, 401, "Invalid or expired OTP", CUSTOMER).code).toBe("OTP_INVALID")
        // an expired code: 401 too (delete-account's row of the spec; close-account answers 400)
        const late = yield* actionOtp(v.accessToken, v.email)
        yield* expireOtps(v.id)
        expect(expectFailure(yield* post(DELETE, late, v.accessToken), 401, "Invalid or expired OTP", CUSTOMER).code).toBe("OTP_INVALID")
        expect(yield* customerStatus(v.id)).not.toBe("deleted")
        expectValidation(yield* post(DELETE, { otpCode: "1", via: "desktop", idempotencyKey: "" }, c.accessToken), {
          fields: ["otpPinId", "otpCode", "via", "idempotencyKey"],
          apiObject: CUSTOMER
        })
        expectFailure(yield* post(DELETE, { otpPinId: "x", otpCode: "123456" }), 401, "Authentication required", CUSTOMER)
        const sql = yield* SqlClient.SqlClient
        // suspended (by staff, or the PIN lock): this endpoint lets the customer through to the use case, which
        // answers 409 ACCOUNT_FROZEN before the OTP gate (a suspended customer cannot ask for a code)
        yield* sql`UPDATE customers SET customer_status = 'suspended' WHERE account_id = ${c.id}`
        const suspended = yield* post(DELETE, { otpPinId: randomUUID(), otpCode: "123456", idempotencyKey: randomUUID() }, c.accessToken)
        expect(expectFailure(suspended, 409, /frozen/, CUSTOMER).code).toBe("ACCOUNT_FROZEN")
        expect(expectFailure(yield* post(DELETE, { otpPinId: "x", otpCode: "123456" }, c.accessToken), 409, /frozen/, CUSTOMER).code)
          .toBe("ACCOUNT_FROZEN")
        expect(yield* customerStatus(c.id)).toBe("suspended")
        // every other endpoint still refuses them with 403
        expectFailure(yield* me(c.accessToken), 403, "Account suspended", CUSTOMER)
        const close = { idempotencyKey: randomUUID(), otpPinId: randomUUID(), otpCode: "123456" }
        expectFailure(yield* post("/api/v1/customers/close-account", close, c.accessToken), 403, "Account suspended", CUSTOMER)
        yield* booksBalance
      }))
  })

  it.effect("a deletion that fails part-way: 500, nothing changed, staff alerted; it succeeds when asked again", () =>
    Effect.gen(function*() {
      const c = yield* verifiedAccount("del-fails", { withPhone: true })
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`
        CREATE FUNCTION refuse_erasure() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION 'test: erasure refused'; END $$ LANGUAGE plpgsql`)
      yield* sql.unsafe(`CREATE TRIGGER refuse_erasure BEFORE DELETE ON one_time_codes FOR EACH ROW EXECUTE FUNCTION refuse_erasure()`)
      const failed = expectFailure(yield* deleteAccount(c), 500, /nothing was changed/, CUSTOMER)
      expect(failed.code).toBe("ACCOUNT_DELETION_FAILED")
      yield* sql.unsafe(`DROP TRIGGER refuse_erasure ON one_time_codes`)
      yield* sql.unsafe(`DROP FUNCTION refuse_erasure()`)
      expect(yield* customerStatus(c.id)).toBe("verified")
      const [account] = yield* sql<{ email: string }>`SELECT email FROM accounts WHERE id = ${c.id}`
      expect(account!.email).toBe(c.email)
      expect((yield* rowsOf(c.customerId)).deletion).toEqual([])
      const alerts = (yield* Alerts.listOpen).filter((a) => a.customerId === c.customerId).map((a) => a.kind)
      expect(alerts).toEqual(["account_deletion_failed"])
      expectSuccess(yield* me(c.accessToken), { apiObject: CUSTOMER })
      expectDeleted(expectSuccess(yield* deleteAccount(c), { apiObject: CUSTOMER }))
      yield* register("del-fails-other")
      yield* booksBalance
    }))
})
