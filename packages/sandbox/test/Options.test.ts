/**
 * The sandbox's options over real HTTP: strict duplicates (`duplicateReferences: "reject"`: a
 * repeated debit, credit, transfer or lien placement answers "94" and changes nothing, while a
 * requery still tells the first outcome) and the expiry of NIP name-enquiry sessions
 * (`nameEnquirySessionTtlMs`, default 30 minutes, compared with the clock's now).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { SandboxServer, sandboxServerLayer } from "../src/index.js"
import {
  ageSession,
  concurrentCodes,
  credit,
  debit,
  details,
  expectCode,
  expectConserved,
  fundedAccount,
  fundSettlement,
  get,
  ledger,
  nameEnquiry,
  post,
  ref,
  requery,
  sandboxTest,
  statusOf,
  TOKEN,
  transfer
} from "./support/SandboxTest.js"

const MINUTE = 60_000

/** A transfer quoting this session id (no name enquiry of its own). */
const transferWith = (sessionId: string, reference: string, destinationAccountNumber = "0123456789", amount = 1_000) =>
  post("/nip/transfers", {
    transactionReference: reference,
    amount,
    destinationAccountNumber,
    destinationBankCode: "000013",
    destinationAccountName: `SANDBOX ACCOUNT ${destinationAccountNumber.slice(-4)}`,
    nameEnquirySessionId: sessionId,
    narration: "payout"
  })

const sessionFor = (accountNumber = "0123456789") =>
  Effect.map(nameEnquiry(accountNumber, "000013"), (reply) => expectCode(reply, "00").sessionId as string)

const expectDuplicate = (reply: { readonly status: number; readonly body: any }, reference: string) => {
  expectCode(reply, "94")
  expect(reply.body.responseMessage).toContain(reference)
}

layer(sandboxTest({ duplicateReferences: "reject" }), { excludeTestServices: true, timeout: "60 seconds" })(
  "sandbox strict duplicates",
  (it) => {
    describe("duplicateReferences: reject", () => {
      it.effect("a repeated debit or credit answers 94 and changes nothing; requery still tells the first outcome", () =>
        Effect.gen(function*() {
          const accountNumber = yield* fundedAccount(10_000)
          const reference = ref("D")
          expectCode(yield* debit(accountNumber, 4_000, reference), "00")
          expectDuplicate(yield* debit(accountNumber, 4_000, reference), reference)
          expect((yield* details(accountNumber)).ledgerBalance).toBe(6_000)
          expect(yield* statusOf(reference)).toBe("Successful")
          const { transactions } = expectCode(yield* get(`/accounts/${accountNumber}/transactions`), "00")
          expect(transactions.filter((t: { reference: string }) => t.reference === reference)).toHaveLength(1)
          // a refusal is the reference's outcome too: repeated, it is 94, and requery says Failed
          const refused = ref("D")
          expectCode(yield* debit(accountNumber, 50_000, refused), "51")
          expectDuplicate(yield* debit(accountNumber, 50_000, refused), refused)
          expect(yield* statusOf(refused)).toBe("Failed")
          // credits alike
          const reversal = ref("K")
          expectCode(yield* credit(accountNumber, 1_000, reversal), "00")
          expectDuplicate(yield* credit(accountNumber, 1_000, reversal), reversal)
          expect((yield* details(accountNumber)).ledgerBalance).toBe(7_000)
          expect(yield* statusOf(reversal)).toBe("Successful")
          // reused for another request: 94 as in the default mode
          expectCode(yield* debit(accountNumber, 1, reference), "94")
          yield* expectConserved
        }))

      it.effect("concurrent repeats of one debit: one is applied and answered 00, the others 94", () =>
        Effect.gen(function*() {
          const accountNumber = yield* fundedAccount(10_000)
          const reference = ref("D")
          expect(yield* concurrentCodes(8, () => debit(accountNumber, 3_000, reference))).toEqual({ "00": 1, "94": 7 })
          expect((yield* details(accountNumber)).ledgerBalance).toBe(7_000)
          yield* expectConserved
        }))

      it.effect("a repeated transfer answers 94 and pays out once; requery is unaffected; a 26 claims nothing", () =>
        Effect.gen(function*() {
          yield* fundSettlement(50_000)
          const before = yield* ledger
          const reference = ref("T")
          // a malformed request (a session of another destination) is not a transaction
          expectCode(yield* transferWith(yield* sessionFor("0123456788"), reference), "26")
          expectCode(yield* transfer("0123456789", 20_000, reference), "00")
          expectDuplicate(yield* transfer("0123456789", 20_000, reference), reference)
          expect((yield* ledger).paidOut - before.paidOut).toBe(20_000)
          expect(yield* statusOf(reference)).toBe("Successful")
          // a pending one: the repeat is 94, and requery still moves it to its final answer
          const pending = ref("T")
          expectCode(yield* transfer("1234560002", 10_000, pending), "09")
          expectDuplicate(yield* transfer("1234560002", 10_000, pending), pending)
          expect(yield* statusOf(pending)).toBe("Pending")
          expect(yield* statusOf(pending)).toBe("Successful")
          expect((yield* ledger).paidOut - before.paidOut).toBe(30_000)
          yield* expectConserved
        }))

      it.effect("a repeated lien placement answers 94: the lien is placed once", () =>
        Effect.gen(function*() {
          const accountNumber = yield* fundedAccount(10_000)
          const lien = { reference: ref("L"), amount: 4_000, reason: "plan" }
          expectCode(yield* post(`/accounts/${accountNumber}/liens`, lien), "00")
          expectDuplicate(yield* post(`/accounts/${accountNumber}/liens`, lien), lien.reference)
          const account = yield* details(accountNumber)
          expect(account.liens).toEqual([{ reference: lien.reference, amount: 4_000 }])
          expect(account.withdrawableBalance).toBe(6_000)
        }))
    })
  }
)

layer(sandboxTest(), { excludeTestServices: true, timeout: "60 seconds" })("sandbox name-enquiry sessions", (it) => {
  describe("nameEnquirySessionTtlMs", () => {
    it.effect("a session older than 30 minutes is refused 26 (expired), nothing stored; a fresh one under the same reference pays", () =>
      Effect.gen(function*() {
        yield* fundSettlement(5_000)
        const before = yield* ledger
        const reference = ref("T")
        const stale = yield* sessionFor()
        yield* ageSession(stale, 31 * MINUTE)
        const reply = yield* transferWith(stale, reference)
        expectCode(reply, "26")
        expect(reply.body.responseMessage).toMatch(/expired.*30 minutes/)
        expectCode(yield* requery(reference), "25")
        expect(yield* ledger).toEqual(before)
        expectCode(yield* transferWith(yield* sessionFor(), reference), "00")
        expect(yield* statusOf(reference)).toBe("Successful")
        expect((yield* ledger).paidOut - before.paidOut).toBe(1_000)
        yield* expectConserved
      }))

    it.effect("a 29-minute-old session is accepted; once applied, a repeat answers its first outcome even after expiry", () =>
      Effect.gen(function*() {
        yield* fundSettlement(5_000)
        const reference = ref("T")
        const session = yield* sessionFor()
        yield* ageSession(session, 29 * MINUTE)
        expectCode(yield* transferWith(session, reference), "00")
        yield* ageSession(session, 31 * MINUTE)
        expectCode(yield* transferWith(session, reference), "00")
        expect(yield* statusOf(reference)).toBe("Successful")
      }))

    it.effect("the TTL is an option (a second sandbox over the same bank with 2 minutes)", () =>
      Effect.gen(function*() {
        const short = yield* Layer.build(
          sandboxServerLayer({ port: 0, token: TOKEN, latencyMs: 0, webhook: Option.none(), nameEnquirySessionTtlMs: 2 * MINUTE })
        ).pipe(Effect.map(Context.get(SandboxServer)))
        yield* fundSettlement(5_000)
        const reference = ref("T")
        const session = yield* sessionFor()
        yield* ageSession(session, 3 * MINUTE)
        const reply = yield* Effect.provideService(transferWith(session, reference), SandboxServer, short)
        expectCode(reply, "26")
        expect(reply.body.responseMessage).toMatch(/expired.*2 minutes/)
        // the default sandbox (30 minutes) accepts the same session
        expectCode(yield* transferWith(session, reference), "00")
      }).pipe(Effect.scoped))
  })
})
