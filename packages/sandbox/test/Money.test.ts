/**
 * Money movement over real HTTP: deposits and history, debits and credits, idempotent references,
 * requery, concurrency, NIP transfers per the test-data table, latency, and conservation.
 */
import { TransactionsData } from "@app/adapters/corebanking/Wire"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { SandboxServer, sandboxServerLayer } from "../src/index.js"
import {
  call,
  concurrentCodes,
  credit,
  debit,
  deposit,
  details,
  expectCode,
  expectConserved,
  fundedAccount,
  fundSettlement,
  get,
  ledger,
  nameEnquiry,
  openAccount,
  post,
  ref,
  requery,
  sandboxTest,
  statusOf,
  TOKEN,
  transfer
} from "./support/SandboxTest.js"

const SLOW_MS = 400

layer(sandboxTest({ slowTransferDelayMs: SLOW_MS }), { excludeTestServices: true, timeout: "60 seconds" })("sandbox money", (it) => {
  describe("deposits and history", () => {
    it.effect("a deposit credits the account as an inbound NIP transfer and grows deposits", () =>
      Effect.gen(function*() {
        const before = yield* ledger
        const { accountNumber } = yield* openAccount()
        const reference = yield* deposit(accountNumber, 250_000)
        expect(reference).toMatch(/^\S{1,30}$/)
        const account = yield* details(accountNumber)
        expect(account.ledgerBalance).toBe(250_000)
        expect(account.withdrawableBalance).toBe(250_000)
        const after = yield* ledger
        expect(after.deposits - before.deposits).toBe(250_000)
        expect(after.customerBalances - before.customerBalances).toBe(250_000)
        const { transactions } = expectCode(yield* get(`/accounts/${accountNumber}/transactions`), "00")
        expect(transactions).toHaveLength(1)
        expect(transactions[0]).toMatchObject({
          reference,
          type: "C",
          amount: 250_000,
          channel: "nip_inbound",
          counterpartyName: expect.any(String),
          counterpartyAccountNumber: expect.stringMatching(/^\d{10}$/),
          counterpartyBankCode: expect.stringMatching(/^\d{6}$/)
        })
        expect(yield* statusOf(reference)).toBe("Successful")
        // deposits are allowed while PND is active (PND stops debits only)
        expect(account.pndActive).toBe(true)
        yield* expectConserved
      }))

    it.effect("lists postings newest first with the wire fields", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        const d = ref("D")
        const k = ref("K")
        expectCode(yield* debit(accountNumber, 3_000, d), "00")
        expectCode(yield* credit(accountNumber, 1_000, k), "00")
        // a refused debit posts nothing
        expectCode(yield* debit(accountNumber, 1_000_000), "51")
        const data = expectCode(yield* get(`/accounts/${accountNumber}/transactions`), "00")
        const { transactions } = Schema.decodeUnknownSync(TransactionsData)(data)
        expect(transactions.map((t) => [t.type, t.amount, t.channel])).toEqual([
          ["C", 1_000, "core_credit"],
          ["D", 3_000, "core_debit"],
          ["C", 10_000, "nip_inbound"]
        ])
        expect(transactions[0]!.reference).toBe(k)
        expect(transactions[1]!.reference).toBe(d)
        expect(transactions[1]).toMatchObject({
          narration: "plan funding",
          counterpartyName: null,
          counterpartyAccountNumber: null,
          counterpartyBankCode: null
        })
        for (const t of transactions) expect(new Date(t.postedAt).toISOString()).toBe(t.postedAt)
        expect((yield* details(accountNumber)).ledgerBalance).toBe(8_000)
      }))
  })

  describe("debits and credits", () => {
    it.effect("a debit moves money to settlement; above the balance it is 51; the exact balance is fine", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(5_000)
        const before = yield* ledger
        expectCode(yield* debit(accountNumber, 5_001), "51")
        expectCode(yield* debit(accountNumber, 2_000), "00")
        expectCode(yield* debit(accountNumber, 3_000), "00")
        expectCode(yield* debit(accountNumber, 1), "51")
        const after = yield* ledger
        expect(after.settlement - before.settlement).toBe(5_000)
        expect(after.customerBalances - before.customerBalances).toBe(-5_000)
        expect(after.deposits).toBe(before.deposits)
        expect((yield* details(accountNumber)).ledgerBalance).toBe(0)
        yield* expectConserved
      }))

    it.effect("a credit (reversal) moves settlement to the customer, even while PND is active or frozen", () =>
      Effect.gen(function*() {
        yield* fundSettlement(7_000)
        const { accountNumber } = yield* openAccount()
        const before = yield* ledger
        expectCode(yield* credit(accountNumber, 4_000), "00")
        yield* post(`/accounts/${accountNumber}/freeze`, { reason: "x" })
        expectCode(yield* credit(accountNumber, 1_000), "00")
        const after = yield* ledger
        expect(after.settlement - before.settlement).toBe(-5_000)
        expect((yield* details(accountNumber)).ledgerBalance).toBe(5_000)
        expectCode(yield* credit("1999999999", 100), "07")
        yield* expectConserved
      }))

    it.effect("a credit the settlement account cannot cover is refused with 51", () =>
      Effect.gen(function*() {
        const { accountNumber } = yield* openAccount()
        const { settlement } = yield* ledger
        const reference = ref("K")
        expectCode(yield* credit(accountNumber, settlement + 1, reference), "51")
        expect((yield* details(accountNumber)).ledgerBalance).toBe(0)
        expect((yield* ledger).settlement).toBe(settlement)
        expect(yield* statusOf(reference)).toBe("Failed")
      }))
  })

  describe("references", () => {
    it.effect("a repeated debit is applied once and answers the same", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        const reference = ref("D")
        const first = yield* debit(accountNumber, 4_000, reference)
        const second = yield* debit(accountNumber, 4_000, reference)
        expectCode(first, "00")
        expect(second.body).toEqual(first.body)
        expect((yield* details(accountNumber)).ledgerBalance).toBe(6_000)
        const { transactions } = expectCode(yield* get(`/accounts/${accountNumber}/transactions`), "00")
        expect(transactions.filter((t: { reference: string }) => t.reference === reference)).toHaveLength(1)
      }))

    it.effect("a repeated refused debit answers its first outcome even when it would now succeed", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(1_000)
        const reference = ref("D")
        const first = yield* debit(accountNumber, 2_000, reference)
        expectCode(first, "51")
        yield* deposit(accountNumber, 5_000)
        expect((yield* debit(accountNumber, 2_000, reference)).body).toEqual(first.body)
        expect((yield* details(accountNumber)).ledgerBalance).toBe(6_000)
        expect(yield* statusOf(reference)).toBe("Failed")
      }))

    it.effect("a reference reused for a different request is 94 and changes nothing", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        const reference = ref("D")
        expectCode(yield* debit(accountNumber, 1_000, reference), "00")
        expectCode(yield* debit(accountNumber, 2_000, reference), "94")
        expectCode(yield* credit(accountNumber, 1_000, reference), "94")
        const other = yield* fundedAccount(10_000)
        expectCode(yield* debit(other, 1_000, reference), "94")
        expect((yield* details(accountNumber)).ledgerBalance).toBe(9_000)
        expect((yield* details(other)).ledgerBalance).toBe(10_000)
      }))

    it.effect("concurrent repeats of one reference apply once", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        const reference = ref("D")
        const replies = yield* Effect.all(Array.from({ length: 10 }, () => debit(accountNumber, 3_000, reference)), {
          concurrency: "unbounded"
        })
        for (const r of replies) expectCode(r, "00")
        expect((yield* details(accountNumber)).ledgerBalance).toBe(7_000)
      }))

    it.effect("requery answers the final outcome, 25 when unknown", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(1_000)
        const ok = ref("D")
        const refused = ref("D")
        expectCode(yield* debit(accountNumber, 500, ok), "00")
        expectCode(yield* debit(accountNumber, 5_000, refused), "51")
        expect(yield* statusOf(ok)).toBe("Successful")
        expect(yield* statusOf(refused)).toBe("Failed")
        expectCode(yield* requery(ref("Q")), "25")
      }))
  })

  describe("concurrency", () => {
    it.effect("20 concurrent debits against a balance that covers 5: exactly 5 succeed", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(5_000)
        expect(yield* concurrentCodes(20, () => debit(accountNumber, 1_000))).toEqual({ "00": 5, "51": 15 })
        expect((yield* details(accountNumber)).ledgerBalance).toBe(0)
        yield* expectConserved
      }))

    it.effect("concurrent debits with a lien, credits and deposits keep every rule", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "HOLD", amount: 4_000, reason: "x" }), "00")
        const work = [
          ...Array.from({ length: 10 }, () => debit(accountNumber, 1_000)),
          ...Array.from({ length: 3 }, () => Effect.as(deposit(accountNumber, 500), undefined)),
          ...Array.from({ length: 3 }, () => Effect.as(credit(accountNumber, 100), undefined))
        ]
        const replies = yield* Effect.all(work, { concurrency: "unbounded" })
        const debited = replies.filter((r) => r !== undefined && r.body.responseCode === "00").length
        const account = yield* details(accountNumber)
        expect(account.ledgerBalance).toBe(10_000 + 1_500 + 300 - debited * 1_000)
        expect(account.ledgerBalance).toBeGreaterThanOrEqual(4_000)
        expect(debited).toBeGreaterThanOrEqual(6)
        yield* expectConserved
      }))
  })

  describe("NIP transfers (test-data table)", () => {
    it.effect("any other destination succeeds at once: settlement pays out, once per reference", () =>
      Effect.gen(function*() {
        yield* fundSettlement(50_000)
        const before = yield* ledger
        const reference = ref("T")
        const first = yield* transfer("0123456789", 20_000, reference)
        expectCode(first, "00")
        const again = yield* transfer("0123456789", 20_000, reference)
        expect(again.body).toEqual(first.body)
        const after = yield* ledger
        expect(after.paidOut - before.paidOut).toBe(20_000)
        expect(after.settlement - before.settlement).toBe(-20_000)
        expect(yield* statusOf(reference)).toBe("Successful")
        // reused for another destination or amount: 94
        expectCode(yield* transfer("0123456788", 20_000, reference), "94")
        expectCode(yield* transfer("0123456789", 1, reference), "94")
        yield* expectConserved
      }))

    it.effect("0002 answers pending; the second requery and later answer Successful", () =>
      Effect.gen(function*() {
        yield* fundSettlement(10_000)
        const before = yield* ledger
        const reference = ref("T")
        expectCode(yield* transfer("1234560002", 10_000, reference), "09")
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        expect(yield* statusOf(reference)).toBe("Pending")
        expect(yield* statusOf(reference)).toBe("Successful")
        expect(yield* statusOf(reference)).toBe("Successful")
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        // the repeated call answers its first outcome and moves nothing
        expectCode(yield* transfer("1234560002", 10_000, reference), "09")
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        yield* expectConserved
      }))

    it.effect("0003 fails at once and no money leaves", () =>
      Effect.gen(function*() {
        yield* fundSettlement(10_000)
        const before = yield* ledger
        const reference = ref("T")
        const reply = yield* transfer("1234560003", 10_000, reference)
        expect(reply.status).toBe(200)
        expect(["00", "01", "09", "91", "97"]).not.toContain(reply.body.responseCode)
        expect(yield* ledger).toEqual(before)
        expect(yield* statusOf(reference)).toBe("Failed")
        expect((yield* transfer("1234560003", 10_000, reference)).body).toEqual(reply.body)
      }))

    it.effect("0007 fails as 0003, then the credit reversing it is refused (stored: repeated, requeried Failed); staff's own credit goes through", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        expectCode(yield* debit(accountNumber, 10_000), "00")
        const before = yield* ledger
        const transferRef = ref("T")
        const reply = yield* transfer("1234560007", 10_000, transferRef)
        expect(["00", "01", "09", "91", "97"]).not.toContain(reply.body.responseCode)
        expect(yield* statusOf(transferRef)).toBe("Failed")
        // the reversal: the same reference but its first letter
        const reversalRef = `R${transferRef.slice(1)}`
        const refusedReversal = yield* credit(accountNumber, 10_000, reversalRef)
        expectCode(refusedReversal, "57")
        expect((yield* credit(accountNumber, 10_000, reversalRef)).body).toEqual(refusedReversal.body)
        expect(yield* statusOf(reversalRef)).toBe("Failed")
        expect(yield* ledger).toEqual(before)
        // a 0003 transfer's reversal is not refused, nor is a credit under another reference
        const plain = ref("T")
        yield* transfer("1234560003", 10_000, plain)
        expect(yield* statusOf(plain)).toBe("Failed")
        expectCode(yield* credit(accountNumber, 5_000, `R${plain.slice(1)}`), "00")
        expectCode(yield* credit(accountNumber, 5_000, ref("K")), "00")
        yield* expectConserved
      }))

    it.effect("0004 answers only after the slow delay, but is applied at once (a requery says Successful)", () =>
      Effect.gen(function*() {
        yield* fundSettlement(10_000)
        const before = yield* ledger
        const reference = ref("T")
        const started = Date.now()
        const fiber = yield* Effect.fork(transfer("1234560004", 10_000, reference))
        yield* Effect.sleep(SLOW_MS / 2)
        expect(fiber.unsafePoll()).toBeNull()
        expect(yield* statusOf(reference)).toBe("Successful")
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        const reply = yield* fiber.await.pipe(Effect.flatten)
        expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_MS)
        expectCode(reply, "00")
        yield* expectConserved
      }))

    it.effect("0005 answers pending, stays pending for 3 requeries, then fails and the money returns", () =>
      Effect.gen(function*() {
        yield* fundSettlement(10_000)
        const before = yield* ledger
        const reference = ref("T")
        expectCode(yield* transfer("1234560005", 10_000, reference), "09")
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        for (let i = 0; i < 3; i++) expect(yield* statusOf(reference)).toBe("Pending")
        expect(yield* statusOf(reference)).toBe("Failed")
        expect(yield* ledger).toEqual(before)
        expect(yield* statusOf(reference)).toBe("Failed")
        expect(yield* ledger).toEqual(before)
        yield* expectConserved
      }))

    it.effect("0006 is applied (paid out, requery Successful) but the call answers 96 System malfunction", () =>
      Effect.gen(function*() {
        yield* fundSettlement(10_000)
        const before = yield* ledger
        const reference = ref("T")
        const reply = yield* transfer("1234560006", 10_000, reference)
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({ responseCode: "96", responseMessage: "System malfunction" })
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        expect((yield* ledger).settlement - before.settlement).toBe(-10_000)
        expect(yield* statusOf(reference)).toBe("Successful")
        // a repeat answers its first outcome and pays nothing more
        expectCode(yield* transfer("1234560006", 10_000, reference), "96")
        expect((yield* ledger).paidOut - before.paidOut).toBe(10_000)
        expect(yield* statusOf(reference)).toBe("Successful")
        yield* expectConserved
      }))

    it.effect("a transfer the settlement account cannot cover is refused with 51", () =>
      Effect.gen(function*() {
        const before = yield* ledger
        const reference = ref("T")
        expectCode(yield* transfer("0123456789", before.settlement + 1, reference), "51")
        expect(yield* ledger).toEqual(before)
        expect(yield* statusOf(reference)).toBe("Failed")
      }))

    it.effect("a transfer must quote the session of a name enquiry of its destination (26, reference stays free)", () =>
      Effect.gen(function*() {
        yield* fundSettlement(1_000)
        const enquiry = expectCode(yield* nameEnquiry("0123456789", "000014"), "00")
        const reference = ref("T")
        const body = {
          transactionReference: reference,
          amount: 1_000,
          destinationAccountNumber: "0123456789",
          destinationBankCode: "000014",
          destinationAccountName: enquiry.accountName,
          narration: "payout"
        }
        expectCode(yield* post("/nip/transfers", { ...body, nameEnquirySessionId: "000000000000000000000000000000" }), "26")
        expectCode(yield* post("/nip/transfers", { ...body, destinationBankCode: "000013", nameEnquirySessionId: enquiry.sessionId }), "26")
        expectCode(yield* post("/nip/transfers", { ...body, nameEnquirySessionId: enquiry.sessionId, amount: 0 }), "26")
        expectCode(yield* requery(reference), "25")
        expectCode(yield* post("/nip/transfers", { ...body, nameEnquirySessionId: enquiry.sessionId }), "00")
      }))
  })

  describe("latency and the ledger", () => {
    it.effect("latencyMs is added to every call (a second sandbox over the same bank)", () =>
      Effect.gen(function*() {
        const slow = yield* Layer.build(
          sandboxServerLayer({ port: 0, token: TOKEN, latencyMs: 250, webhook: Option.none() })
        ).pipe(Effect.map(Context.get(SandboxServer)))
        const fast = yield* SandboxServer
        expect(slow.baseUrl).not.toBe(fast.baseUrl)
        for (const path of ["/banks", "/sandbox/ledger", "/bvn/22222222222"]) {
          const started = Date.now()
          expectCode(yield* call("GET", path, { baseUrl: slow.baseUrl }), "00")
          expect(Date.now() - started).toBeGreaterThanOrEqual(240)
        }
        // the same state: an account opened on one is seen by the other
        const { accountNumber } = yield* openAccount()
        expectCode(yield* call("GET", `/accounts/${accountNumber}`, { baseUrl: slow.baseUrl }), "00")
      }).pipe(Effect.scoped))

    it.effect("GET /sandbox/ledger and conservation agree: customers + settlement + paidOut = deposits", () =>
      Effect.gen(function*() {
        const totals = yield* ledger
        expect(totals.customerBalances + totals.settlement + totals.paidOut).toBe(totals.deposits)
        expect(totals.deposits).toBeGreaterThan(0)
        expect(totals.paidOut).toBeGreaterThan(0)
        expect(yield* expectConserved).toEqual(totals)
      }))
  })
})
