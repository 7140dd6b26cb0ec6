/**
 * Closing and deleting an account while a movement is not final, on the real stack (SQL + the
 * sandbox bank through the real adapter, issue 36 round 3):
 * - a transfer the bank answered "pending" (0002, 0005) holds close-account and delete-account
 *   back (400 TRANSACTION_IN_PROGRESS, the spec's "a transaction in progress") until reconciliation
 *   settles it, even though the saga already put the account back;
 * - the erasure never deletes movement rows: a retained movement of an erased customer is still
 *   reconciled to its final state;
 * - a reversal (or a deposit) that lands on a closed or frozen account raises a staff alert;
 * - close-account racing an admin freeze: one of them wins, never both.
 */
import { AccountRepo, Banking, CoreBanking, DeletionId, Lifecycle, TransactionId, Transfers } from "@app/domain"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option } from "effect"
import { randomUUID } from "node:crypto"
import { adminServer, rootToken } from "./support/AdminFixtures.js"
import { actionOtp, bankCustomer, inboundTransfer } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, post } from "./support/Fixtures.js"
import { alertKindsOf, atTheBank, booksBalance, CLOSE, DELETE, customerStatus, deleteAccount, due, sweepRow } from "./support/LifecycleFixtures.js"
import { deposit } from "./support/PlanFixtures.js"
import { outbox } from "./support/TestServer.js"

const CUSTOMER = "Customer"
const TRANSFER = "/api/v1/transactions/transfer"
const FUND = 300_000
const AMOUNT = 10_000

/** A banked customer with `fund` kobo and a default saved beneficiary (where a closure sweeps to). */
const savedCustomer = (tag: string, fund = FUND) =>
  Effect.gen(function*() {
    const c = yield* bankCustomer(tag)
    yield* deposit(c.accessToken, fund)
    expectSuccess(
      yield* post("/api/v1/beneficiaries", { accountNumber: "0123450001", bankCode: "000013", bankName: "GTBank" }, c.accessToken),
      { status: 201, apiObject: "Beneficiary" }
    )
    return c
  })

/** A manual transfer of AMOUNT to a sandbox account ending `last4` (0002, 0005: the bank answers pending). */
const transferTo = (token: string, last4: string) =>
  post(TRANSFER, {
    destinationAccountNumber: `012345${last4}`,
    destinationBankCode: "000013",
    destinationBankName: "GTBank",
    destinationAccountName: `SANDBOX ACCOUNT ${last4}`,
    amountKobo: AMOUNT,
    idempotencyKey: randomUUID()
  }, token)

const pendingTransfer = (token: string, last4: string) =>
  Effect.map(transferTo(token, last4), (reply) => {
    const t = expectSuccess(reply, { apiObject: "Transaction" })
    expect(t.status).toBe("pending")
    return t.id as string
  })

const movementRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; reversalState: string; restored: boolean }>`
      SELECT status, reversal_state, restored FROM transactions WHERE id = ${id}`).pipe(Effect.orDie)

/** Reconciliation passes (each with the requery due) until the movement is final; its status. */
const reconcile = (id: string) =>
  Effect.gen(function*() {
    for (let pass = 0; pass < 8 && (yield* movementRow(id))[0]?.status === "pending"; pass++) {
      yield* due(TransactionId.make(id))
      yield* Transfers.processDue()
    }
    return (yield* movementRow(id))[0]?.status
  })

layer(adminServer(), { excludeTestServices: true, timeout: "120 seconds" })("closing with a movement not final", (it) => {
  describe("a transfer pending at the bank holds close and delete back", () => {
    it.effect("close-account and delete-account (with a key) answer 400 TRANSACTION_IN_PROGRESS while it is pending; nothing moves; once it settles, closing works", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("pend-close")
        const id = yield* pendingTransfer(c.accessToken, "0002")
        // the saga has put the account back: only the bank's answer is outstanding
        expect((yield* movementRow(id))[0]).toMatchObject({ status: "pending", restored: true })

        // both refuse before the OTP gate: the code stays good for when the movement has settled
        const otp = yield* actionOtp(c.accessToken, c.email)
        const deleting = expectFailure(yield* post(DELETE, { ...otp, idempotencyKey: randomUUID() }, c.accessToken), 400, /A transaction is in progress/, CUSTOMER)
        expect(deleting.code).toBe("TRANSACTION_IN_PROGRESS")
        const closing = expectFailure(yield* post(CLOSE, { ...otp, idempotencyKey: randomUUID() }, c.accessToken), 400, /A transaction is in progress/, CUSTOMER)
        expect(closing.code).toBe("TRANSACTION_IN_PROGRESS")
        expect(yield* customerStatus(c.id)).toBe("active")
        expect(yield* sweepRow(c.customerId)).toEqual([])
        expect((yield* atTheBank(c.accountNumber)).account.frozen).toBe(false)
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT id FROM account_closures WHERE customer_id = ${c.customerId}`).toEqual([])
        expect(yield* sql`SELECT id FROM deletion_records WHERE customer_id = ${c.customerId}`).toEqual([])

        expect(yield* reconcile(id)).toBe("confirmed")
        // the same code, not spent by the refusals
        expect(expectSuccess(yield* post(CLOSE, { ...otp, idempotencyKey: randomUUID() }, c.accessToken), { apiObject: CUSTOMER }).status).toBe("confirmed")
        expect(yield* customerStatus(c.id)).toBe("closed")
        yield* booksBalance
      }))

    it.effect("a pending transfer that fails at reconciliation (0005) is reversed into the still-active account; the customer can close afterwards", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("pend-fail")
        const id = yield* pendingTransfer(c.accessToken, "0005")
        const otp = yield* actionOtp(c.accessToken, c.email)
        expect(expectFailure(yield* post(CLOSE, { ...otp, idempotencyKey: randomUUID() }, c.accessToken), 400, /A transaction is in progress/, CUSTOMER).code).toBe("TRANSACTION_IN_PROGRESS")
        expect(yield* reconcile(id)).toBe("failed")
        expect((yield* atTheBank(c.accountNumber)).account.ledgerBalanceKobo).toBe(BigInt(FUND))
        // an active, unfrozen account: no alert
        expect(yield* alertKindsOf(c.customerId)).not.toContain("frozen_account_credit")
        expect(expectSuccess(yield* post(CLOSE, { ...otp, idempotencyKey: randomUUID() }, c.accessToken), { apiObject: CUSTOMER }).status).toBe("confirmed")
        yield* booksBalance
      }))
  })

  describe("a reversal that lands on a frozen or closed account", () => {
    it.effect("staff froze the customer while a 0005 transfer was pending: reconciliation reverses it into the frozen account and staff are alerted", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("pend-frozen")
        const id = yield* pendingTransfer(c.accessToken, "0005")
        const frozen = expectSuccess(
          yield* post(`/api/v1/admin/customers/${c.customerId}/freeze`, { reason: "suspicious activity" }, yield* rootToken),
          { apiObject: "Admin" }
        )
        expect(frozen).toMatchObject({ customerStatus: "suspended", providerFreeze: "frozen" })
        expect(yield* reconcile(id)).toBe("failed")
        expect((yield* movementRow(id))[0]!.reversalState).toBe("applied")
        expect((yield* atTheBank(c.accountNumber)).account).toMatchObject({ frozen: true, ledgerBalanceKobo: BigInt(FUND) })
        expect(yield* alertKindsOf(c.customerId)).toContain("frozen_account_credit")
        // any credit: a deposit that reaches the suspended customer is one more alert
        yield* inboundTransfer(c.accountNumber, 50_000n)
        yield* Banking.syncDeposits(c.id)
        expect((yield* alertKindsOf(c.customerId)).filter((k) => k === "frozen_account_credit")).toHaveLength(2)
        yield* booksBalance
      }))

    it.effect("erasure keeps movement rows: a deletion made with a movement pending (as before this fix) leaves it to reconciliation, which reverses it into the closed account and alerts staff", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("pend-erased")
        const id = yield* pendingTransfer(c.accessToken, "0005")
        // the state an earlier version left behind: closed (frozen at the bank) with a transfer pending
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE customers SET customer_status = 'closed' WHERE id = ${c.customerId}`
        yield* Effect.orDie((yield* CoreBanking).freeze({ accountNumber: c.accountNumber, reason: "Account closed by the customer" }))
        // delete-account of a closed customer with a movement not final: refused too
        const refused = expectFailure(yield* deleteAccount(c), 400, /A transaction is in progress/, CUSTOMER)
        expect(refused.code).toBe("TRANSACTION_IN_PROGRESS")
        expect(yield* customerStatus(c.id)).toBe("closed")

        // so is the deletion itself, whoever asks for it
        const found = Option.getOrThrow(yield* (yield* AccountRepo).findById(c.id))
        expect((yield* Effect.flip(Lifecycle.deleteNow(found, "web")))._tag).toBe("MovementInFlight")
        // the erasure itself, as an earlier version ran it with the movement pending
        const erasure = yield* Lifecycle.AccountErasure
        yield* sql.withTransaction(erasure.erase({
          customerId: c.customerId,
          accountId: c.id,
          deletionId: DeletionId.make(randomUUID()),
          retainUntil: Lifecycle.retainUntilFrom(new Date()),
          now: new Date(),
          coreAccountDigest: null
        })).pipe(Effect.orDie)
        expect(yield* customerStatus(c.id)).toBe("deleted")
        const kept = yield* sql<{ id: string }>`SELECT id FROM transactions WHERE customer_id = ${c.customerId} ORDER BY created_at`
        expect(kept.map((r) => r.id)).toContain(id)
        expect(kept).toHaveLength(2) // the deposit and the transfer

        expect(yield* reconcile(id)).toBe("failed")
        expect((yield* movementRow(id))[0]!.reversalState).toBe("applied")
        expect((yield* atTheBank(c.accountNumber)).account).toMatchObject({ frozen: true, ledgerBalanceKobo: BigInt(FUND) })
        expect(yield* alertKindsOf(c.customerId)).toContain("frozen_account_credit")
        // nothing is mailed to the erased customer's tombstone address
        expect(outbox().filter((m) => m.to === `deleted-${c.id}@deleted.invalid`)).toEqual([])
        yield* booksBalance
      }))
  })

  describe("close-account racing an admin freeze", () => {
    it.effect("a freeze committed between close-account's status read and its transition: the closure is refused, the customer stays suspended, nothing is swept", () =>
      Effect.gen(function*() {
        const c = yield* savedCustomer("race-freeze")
        const token = yield* rootToken
        const otp = yield* actionOtp(c.accessToken, c.email)
        const closures = yield* Lifecycle.ClosureRepo
        const reached = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        // the closure's insert comes after the in-transaction status read and before the transition:
        // there, the freeze is let in (on PostgreSQL it commits on another connection; PGlite has one
        // connection, so the freeze waits and the two run one after the other)
        const hooked = Lifecycle.ClosureRepo.of({
          ...closures,
          insert: (closure) =>
            Effect.zipRight(
              Effect.zipRight(Deferred.succeed(reached, undefined), Deferred.await(release).pipe(Effect.timeout("3 seconds"), Effect.ignore)),
              closures.insert(closure)
            )
        })
        const closing = yield* Lifecycle.closeAccount(c.id, { idempotencyKey: randomUUID(), ...otp }).pipe(
          Effect.provideService(Lifecycle.ClosureRepo, hooked),
          Effect.either,
          Effect.fork
        )
        yield* Deferred.await(reached)
        const freezing = yield* post(`/api/v1/admin/customers/${c.customerId}/freeze`, { reason: "race" }, token).pipe(Effect.fork)
        // the freeze's answer, if it can commit while the closure holds its transaction open
        const early = yield* Fiber.join(freezing).pipe(Effect.timeout("2 seconds"), Effect.option)
        yield* Deferred.succeed(release, undefined)
        const closed = yield* Fiber.join(closing)
        const froze = Option.isSome(early) ? early.value : yield* Fiber.join(freezing)

        const status = yield* customerStatus(c.id)
        const sweep = yield* sweepRow(c.customerId)
        if (froze.status === 200) {
          // the freeze won: the closure must have been refused, nothing swept, the customer suspended
          expect(closed._tag).toBe("Left")
          expect(status).toBe("suspended")
          expect(sweep).toEqual([])
          expect((yield* atTheBank(c.accountNumber)).account.ledgerBalanceKobo).toBe(BigInt(FUND))
        } else {
          // the closure won: the freeze is refused on the status the customer has now
          expect(closed._tag).toBe("Right")
          expect(status).toBe("closed")
          expect(froze.status).toBe(409)
        }
        yield* booksBalance
      }))
  })
})
