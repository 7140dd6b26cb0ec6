/**
 * The bank's journal: a sandbox stopped and started again on the same journal keeps its accounts,
 * balances, liens, freezes, references and their answers, pending transfers and name-enquiry
 * sessions; a torn last line (a crash in the middle of a write) is ignored and cut off, the lines
 * before it kept; a damaged line elsewhere stops the start; one bank per journal.
 */
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Logger, LogLevel, Option } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import {
  conservation,
  JOURNAL_FILE,
  JournalError,
  openBank,
  SandboxBank,
  sandboxBankLayer,
  sandboxLayer,
  SandboxServer
} from "../src/index.js"
import {
  credit,
  debit,
  deposit,
  details,
  expectCode,
  fundSettlement,
  get,
  ledger,
  nameEnquiry,
  openAccount,
  post,
  ref,
  requery,
  setPnd,
  statusOf,
  TOKEN,
  transfer
} from "./support/SandboxTest.js"

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-journal-"))

/** Runs `effect` against a sandbox journaled in `dir`, started for it and stopped after it. */
const onSandbox = (dir: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.scoped(
    Effect.flatMap(
      Layer.build(
        sandboxLayer({ port: 0, token: TOKEN, latencyMs: 0, webhook: Option.none(), journal: path.join(dir, JOURNAL_FILE) })
      ),
      (context) => Effect.provide(effect, context)
    )
  )

const journalLines = (dir: string) => fs.readFileSync(path.join(dir, JOURNAL_FILE), "utf8").split("\n").filter((l) => l !== "")

const expectBooksBalanced = Effect.gen(function*() {
  const check = yield* conservation
  expect(check.problems).toEqual([])
  return check.ledger
})

layer(Layer.merge(FetchHttpClient.layer, Logger.minimumLogLevel(LogLevel.Error)), { timeout: "60 seconds" })("sandbox journal", (it) => {
  describe("restart", () => {
    it.effect("keeps accounts, balances, liens, freezes and pending transfers; a repeated reference answers its first outcome", () =>
      Effect.gen(function*() {
        const dir = tempDir()
        const debitRef = ref("D")
        const refusedRef = ref("D")
        const creditRef = ref("K")
        const pendingRef = ref("T")
        const failingRef = ref("T")
        const before = yield* onSandbox(dir)(Effect.gen(function*() {
          const { accountNumber } = yield* openAccount(ref("C"), { firstName: "Ngozi", lastName: "Eze" })
          yield* deposit(accountNumber, 100_000)
          yield* setPnd(accountNumber, false)
          expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "HOLD", amount: 30_000, reason: "plan" }), "00")
          expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "GONE", amount: 1_000, reason: "x" }), "00")
          expectCode(yield* post(`/accounts/${accountNumber}/liens/GONE/remove`), "00")
          const first = yield* debit(accountNumber, 20_000, debitRef)
          expectCode(first, "00")
          const refused = yield* debit(accountNumber, 1_000_000, refusedRef)
          expectCode(refused, "51")
          expectCode(yield* credit(accountNumber, 5_000, creditRef), "00")
          yield* fundSettlement(50_000)
          expectCode(yield* transfer("1234560002", 10_000, pendingRef), "09")
          expect(yield* statusOf(pendingRef)).toBe("Pending")
          expectCode(yield* transfer("1234560005", 10_000, failingRef), "09")
          for (let i = 0; i < 3; i++) expect(yield* statusOf(failingRef)).toBe("Pending")
          const enquiry = expectCode(yield* nameEnquiry("0123456781", "000013"), "00")
          const other = yield* openAccount()
          const { freezeReference } = expectCode(yield* post(`/accounts/${other.accountNumber}/freeze`, { reason: "review" }), "00")
          return {
            accountNumber,
            other: other.accountNumber,
            freezeReference,
            enquiry,
            first: first.body,
            refused: refused.body,
            account: yield* details(accountNumber),
            history: expectCode(yield* get(`/accounts/${accountNumber}/transactions`), "00"),
            totals: yield* expectBooksBalanced
          }
        }))

        yield* onSandbox(dir)(Effect.gen(function*() {
          // the same state
          expect(yield* details(before.accountNumber)).toEqual(before.account)
          expect(before.account).toMatchObject({
            accountName: "EZE NGOZI",
            ledgerBalance: 85_000,
            withdrawableBalance: 55_000,
            pndActive: false,
            liens: [{ reference: "HOLD", amount: 30_000 }]
          })
          expect(expectCode(yield* get(`/accounts/${before.accountNumber}/transactions`), "00")).toEqual(before.history)
          expect(yield* ledger).toEqual(before.totals)
          expect(yield* expectBooksBalanced).toEqual(before.totals)
          // references answer their first outcome, and nothing moves
          expect((yield* debit(before.accountNumber, 20_000, debitRef)).body).toEqual(before.first)
          expect((yield* debit(before.accountNumber, 1_000_000, refusedRef)).body).toEqual(before.refused)
          expectCode(yield* credit(before.accountNumber, 5_000, creditRef), "00")
          expectCode(yield* debit(before.accountNumber, 1, debitRef), "94")
          expect(yield* statusOf(debitRef)).toBe("Successful")
          expect(yield* statusOf(refusedRef)).toBe("Failed")
          expect((yield* details(before.accountNumber)).ledgerBalance).toBe(85_000)
          // spent lien references stay spent; liens still hold
          expectCode(yield* post(`/accounts/${before.accountNumber}/liens`, { reference: "GONE", amount: 1_000, reason: "x" }), "94")
          expectCode(yield* debit(before.accountNumber, 55_001), "51")
          // pending transfers carry on where they were: 0002's 2nd requery, 0005's 4th
          expect(yield* statusOf(pendingRef)).toBe("Successful")
          expect(yield* statusOf(failingRef)).toBe("Failed")
          // the freeze and its reference
          expect((yield* details(before.other)).frozen).toBe(true)
          expectCode(yield* post(`/accounts/${before.other}/unfreeze`, { freezeReference: before.freezeReference }), "00")
          // the name enquiry's session may still be quoted
          expectCode(
            yield* post("/nip/transfers", {
              transactionReference: ref("T"),
              amount: 1_000,
              destinationAccountNumber: "0123456781",
              destinationBankCode: "000013",
              destinationAccountName: before.enquiry.accountName,
              nameEnquirySessionId: before.enquiry.sessionId,
              narration: "payout"
            }),
            "00"
          )
          // numbering carries on: a new account and a new deposit get new numbers
          const next = yield* openAccount()
          expect([before.accountNumber, before.other]).not.toContain(next.accountNumber)
          const reference = yield* deposit(next.accountNumber, 1_000)
          const history = before.history.transactions as ReadonlyArray<{ reference: string }>
          expect(history.map((t) => t.reference)).not.toContain(reference)
          yield* expectBooksBalanced
        }))
        fs.rmSync(dir, { recursive: true, force: true })
      }))

    it.effect("journals events, not requests: reads and refused-before-stored requests write nothing", () =>
      Effect.gen(function*() {
        const dir = tempDir()
        yield* onSandbox(dir)(Effect.gen(function*() {
          const { accountNumber } = yield* openAccount()
          const lines = journalLines(dir).length
          yield* details(accountNumber)
          yield* get(`/accounts/${accountNumber}/transactions`)
          yield* get("/banks")
          yield* ledger
          expectCode(yield* post("/transactions/debit", { accountNumber, amount: 0, retrievalReference: "X", narration: "" }), "26")
          expectCode(yield* requery(ref("Q")), "25")
          yield* setPnd(accountNumber, true) // already active: no change
          expect(journalLines(dir).length).toBe(lines)
          yield* setPnd(accountNumber, false)
          expect(journalLines(dir).length).toBe(lines + 1)
          expect(JSON.parse(journalLines(dir).at(-1)!)).toEqual({ e: "pnd", n: accountNumber, on: false })
        }))
        fs.rmSync(dir, { recursive: true, force: true })
      }))
  })

  describe("a crash in the middle of a write", () => {
    it.effect("a torn last line is ignored and cut off; the lines before it are kept, and appends go on cleanly", () =>
      Effect.gen(function*() {
        const dir = tempDir()
        const file = path.join(dir, JOURNAL_FILE)
        const { accountNumber } = yield* onSandbox(dir)(Effect.gen(function*() {
          const opened = yield* openAccount()
          yield* deposit(opened.accountNumber, 7_000)
          return opened
        }))
        const complete = fs.readFileSync(file, "utf8")
        // the first bytes of a deposit line, as a process killed mid-write leaves them
        const torn = JSON.stringify({ e: "deposit", ref: "NIP999999999", n: accountNumber, amt: "5000", at: Date.now() }).slice(0, 37)
        fs.appendFileSync(file, torn)
        yield* onSandbox(dir)(Effect.gen(function*() {
          expect((yield* details(accountNumber)).ledgerBalance).toBe(7_000)
          expect(fs.readFileSync(file, "utf8")).toBe(complete)
          yield* deposit(accountNumber, 1_000)
          yield* expectBooksBalanced
        }))
        // the next start reads every line, the new one included
        expect(fs.readFileSync(file, "utf8").startsWith(complete)).toBe(true)
        yield* onSandbox(dir)(Effect.gen(function*() {
          expect((yield* details(accountNumber)).ledgerBalance).toBe(8_000)
          yield* expectBooksBalanced
        }))
        fs.rmSync(dir, { recursive: true, force: true })
      }))

    it.effect("a last line that is complete but not JSON is torn too; a damaged line before the last stops the start", () =>
      Effect.gen(function*() {
        const dir = tempDir()
        const file = path.join(dir, JOURNAL_FILE)
        yield* onSandbox(dir)(Effect.asVoid(openAccount()))
        const complete = fs.readFileSync(file, "utf8")
        fs.appendFileSync(file, "{\"e\":\"dep\n")
        const reopened = openBank({ journal: file })
        expect(reopened.state.accounts.size).toBe(1)
        expect(reopened.tornBytes).toBe(10)
        reopened.state.journal!.close()
        expect(fs.readFileSync(file, "utf8")).toBe(complete)

        const lines = complete.split("\n")
        fs.writeFileSync(file, [lines[0], "{not json", ...lines.slice(1)].join("\n"))
        const exit = yield* Effect.exit(Layer.build(sandboxBankLayer({ journal: file })).pipe(Effect.scoped))
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit)) expect(String(exit.cause)).toMatch(/line 2: not a JSON event/)
        // an event that does not fit the state (a deposit to an account never opened) stops it too
        fs.writeFileSync(file, `${lines[0]}\n${JSON.stringify({ e: "deposit", ref: "NIP1", n: "1000000014", amt: "1", at: 0 })}\n`)
        expect(() => openBank({ journal: file })).toThrow(/line 2: no account 1000000014/)
        fs.rmSync(dir, { recursive: true, force: true })
      }))
  })

  describe("one bank per journal", () => {
    it.effect("a second bank on an open journal is refused; a lock left by a dead process is taken over", () =>
      Effect.gen(function*() {
        const dir = tempDir()
        const file = path.join(dir, JOURNAL_FILE)
        const first = openBank({ journal: file })
        expect(() => openBank({ journal: file })).toThrow(JournalError)
        // another live process holds it
        first.state.journal!.close()
        fs.writeFileSync(`${file}.lock`, `${process.ppid}\n`)
        expect(() => openBank({ journal: file })).toThrow(/in use by process/)
        // a process that is gone
        fs.writeFileSync(`${file}.lock`, "2147483646\n")
        const taken = openBank({ journal: file })
        expect(fs.readFileSync(`${file}.lock`, "utf8").trim()).toBe(String(process.pid))
        taken.state.journal!.close()
        expect(fs.existsSync(`${file}.lock`)).toBe(false)
        fs.rmSync(dir, { recursive: true, force: true })
      }))

    it.effect("in memory only, nothing is written; the bank is the same for every server over it", () =>
      Effect.gen(function*() {
        const dir = tempDir()
        const bank = yield* SandboxBank
        expect(bank.journal).toBeUndefined()
        const server = yield* SandboxServer
        expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
        yield* openAccount()
        expect(fs.readdirSync(dir)).toEqual([])
        fs.rmSync(dir, { recursive: true, force: true })
      }).pipe(
        Effect.provide(sandboxLayer({ port: 0, token: TOKEN, latencyMs: 0, webhook: Option.none() })),
        Effect.scoped
      ))
  })
})
