/**
 * The sandbox bank's non-money surface over real HTTP: authentication, malformed requests, account
 * opening, PND, liens, freezes, the BVN registry, name enquiry and the bank list.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { BANKS, isValidNuban, SANDBOX_BANK, SandboxBank } from "../src/index.js"
import {
  call,
  debit,
  deposit,
  details,
  expectCode,
  fundedAccount,
  get,
  nameEnquiry,
  openAccount,
  post,
  ref,
  sandboxTest,
  setPnd
} from "./support/SandboxTest.js"

layer(sandboxTest(), { excludeTestServices: true, timeout: "60 seconds" })("sandbox accounts", (it) => {
  describe("authentication and malformed requests", () => {
    it.effect("answers HTTP 401 without a bearer token or with a wrong one, on every route", () =>
      Effect.gen(function*() {
        for (const token of [null, "wrong-token", ""]) {
          for (const [method, path] of [["GET", "/banks"], ["POST", "/accounts"], ["GET", "/sandbox/ledger"]] as const) {
            const reply = yield* call(method, path, method === "POST" ? { token, body: {} } : { token })
            expect(reply.status, `${method} ${path} with ${token}`).toBe(401)
            expect(reply.body.responseCode).not.toBe("00")
          }
        }
        expect((yield* get("/banks")).status).toBe(200)
      }))

    it.effect("answers 26 to malformed JSON and to missing or ill-typed fields", () =>
      Effect.gen(function*() {
        expectCode(yield* call("POST", "/accounts", { raw: "{not json" }), "26")
        expectCode(yield* post("/accounts", { customerReference: "X" }), "26")
        expectCode(yield* post("/transactions/debit", { accountNumber: "1", amount: "100", retrievalReference: "A", narration: "" }), "26")
        expectCode(yield* post("/transactions/debit", { accountNumber: "1", amount: 1.5, retrievalReference: "A", narration: "" }), "26")
        expectCode(yield* post("/transactions/debit", { accountNumber: "1", amount: -5, retrievalReference: "A", narration: "" }), "26")
        expectCode(yield* post("/transactions/debit", { accountNumber: "1", amount: 0, retrievalReference: "A", narration: "" }), "26")
        expectCode(
          yield* post("/transactions/debit", { accountNumber: "1", amount: 5, retrievalReference: "ABCDEFGHIJKLM", narration: "" }),
          "26"
        )
        expectCode(yield* post("/sandbox/deposits", { accountNumber: "1234567890" }), "26")
        expectCode(yield* get("/nip/name-enquiry?accountNumber=0123456789"), "26")
        expectCode(yield* get("/bvn/123"), "26")
      }))

    it.effect("answers HTTP 404 to an unknown route", () =>
      Effect.gen(function*() {
        expect((yield* get("/no/such/route")).status).toBe(404)
      }))
  })

  describe("opening accounts", () => {
    it.effect("opens a NUBAN-like account with PND active, idempotently by customerReference", () =>
      Effect.gen(function*() {
        const reference = ref("C")
        const first = yield* openAccount(reference, { firstName: "Chidi", lastName: "Okeke" })
        expect(first.accountNumber).toMatch(/^\d{10}$/)
        expect(isValidNuban(first.accountNumber)).toBe(true)
        expect(first.customerReference).toBe(reference)
        expect(first.accountName).toBe("OKEKE CHIDI")
        const again = yield* openAccount(reference, { firstName: "Someone", lastName: "Else" })
        expect(again).toEqual(first)
        const other = yield* openAccount()
        expect(other.accountNumber).not.toBe(first.accountNumber)

        const account = yield* details(first.accountNumber)
        expect(account).toEqual({
          accountNumber: first.accountNumber,
          accountName: "OKEKE CHIDI",
          ledgerBalance: 0,
          withdrawableBalance: 0,
          pndActive: true,
          frozen: false,
          liens: []
        })
      }))

    it.effect("opens one account when the same reference arrives concurrently", () =>
      Effect.gen(function*() {
        const reference = ref("C")
        const opened = yield* Effect.all(Array.from({ length: 8 }, () => openAccount(reference)), { concurrency: "unbounded" })
        expect(new Set(opened.map((a) => a.accountNumber)).size).toBe(1)
        const bank = yield* SandboxBank
        expect([...bank.accounts.values()].filter((a) => a.customerReference === reference)).toHaveLength(1)
      }))

    it.effect("finds an account by customer reference, 25 when unknown", () =>
      Effect.gen(function*() {
        const opened = yield* openAccount()
        expect(expectCode(yield* get(`/accounts/by-reference/${opened.customerReference}`), "00")).toEqual(opened)
        expectCode(yield* get(`/accounts/by-reference/${ref("Z")}`), "25")
      }))

    it.effect("answers 07 for an unknown account on every account route", () =>
      Effect.gen(function*() {
        const unknown = "1999999999"
        expectCode(yield* get(`/accounts/${unknown}`), "07")
        expectCode(yield* get(`/accounts/${unknown}/transactions`), "07")
        expectCode(yield* post(`/accounts/${unknown}/pnd/activate`), "07")
        expectCode(yield* post(`/accounts/${unknown}/pnd/deactivate`), "07")
        expectCode(yield* post(`/accounts/${unknown}/liens`, { reference: "L1", amount: 100, reason: "x" }), "07")
        expectCode(yield* post(`/accounts/${unknown}/liens/L1/remove`), "07")
        expectCode(yield* post(`/accounts/${unknown}/freeze`, { reason: "x" }), "07")
        expectCode(yield* post(`/accounts/${unknown}/unfreeze`, { freezeReference: "F" }), "07")
        expectCode(yield* debit(unknown, 100), "07")
        expectCode(yield* post("/sandbox/deposits", { accountNumber: unknown, amountKobo: 100 }), "07")
      }))
  })

  describe("PND", () => {
    it.effect("blocks debits while active (57) and not after deactivation; toggles idempotently", () =>
      Effect.gen(function*() {
        const { accountNumber } = yield* openAccount()
        yield* deposit(accountNumber, 10_000)
        expectCode(yield* debit(accountNumber, 100), "57")
        yield* setPnd(accountNumber, false)
        yield* setPnd(accountNumber, false)
        expect((yield* details(accountNumber)).pndActive).toBe(false)
        expectCode(yield* debit(accountNumber, 100), "00")
        yield* setPnd(accountNumber, true)
        expect((yield* details(accountNumber)).pndActive).toBe(true)
        expectCode(yield* debit(accountNumber, 100), "57")
        expect((yield* details(accountNumber)).ledgerBalance).toBe(9_900)
      }))
  })

  describe("liens", () => {
    it.effect("a lien keeps the balance from going below it; 51 above balance − liens", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "L1", amount: 6_000, reason: "plan" }), "00")
        const account = yield* details(accountNumber)
        expect(account.ledgerBalance).toBe(10_000)
        expect(account.withdrawableBalance).toBe(4_000)
        expect(account.liens).toEqual([{ reference: "L1", amount: 6_000 }])
        expectCode(yield* debit(accountNumber, 4_001), "51")
        expectCode(yield* debit(accountNumber, 4_000), "00")
        expectCode(yield* debit(accountNumber, 1), "51")
        expect((yield* details(accountNumber)).ledgerBalance).toBe(6_000)
        // removing the lien frees the money
        expectCode(yield* post(`/accounts/${accountNumber}/liens/L1/remove`), "00")
        expectCode(yield* debit(accountNumber, 6_000), "00")
        expect((yield* details(accountNumber)).ledgerBalance).toBe(0)
      }))

    it.effect("liens add up, may exceed the balance, and are idempotent by reference", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(5_000)
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "A", amount: 3_000, reason: "x" }), "00")
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "B", amount: 4_000, reason: "y" }), "00")
        // the same lien again changes nothing; the same reference with another amount is a duplicate
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "A", amount: 3_000, reason: "x" }), "00")
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "A", amount: 1, reason: "x" }), "94")
        const account = yield* details(accountNumber)
        expect(account.withdrawableBalance).toBe(-2_000)
        expect(account.liens).toHaveLength(2)
        expectCode(yield* debit(accountNumber, 1), "51")
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "C", amount: 0, reason: "x" }), "26")
      }))

    it.effect("removing an unknown lien is 25; removing twice is harmless; a removed reference is not reused", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(1_000)
        expectCode(yield* post(`/accounts/${accountNumber}/liens/NOPE/remove`), "25")
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "L", amount: 500, reason: "x" }), "00")
        expectCode(yield* post(`/accounts/${accountNumber}/liens/L/remove`), "00")
        expectCode(yield* post(`/accounts/${accountNumber}/liens/L/remove`), "00")
        expect((yield* details(accountNumber)).liens).toEqual([])
        expectCode(yield* post(`/accounts/${accountNumber}/liens`, { reference: "L", amount: 500, reason: "x" }), "94")
        // a lien reference belongs to its account
        const other = yield* fundedAccount(0)
        expectCode(yield* post(`/accounts/${other}/liens/L/remove`), "25")
      }))
  })

  describe("freeze", () => {
    it.effect("a frozen account refuses debits (57); unfreezing needs the freeze reference", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000)
        const { freezeReference } = expectCode(yield* post(`/accounts/${accountNumber}/freeze`, { reason: "fraud review" }), "00")
        expect(freezeReference).toMatch(/^\S+$/)
        expect((yield* details(accountNumber)).frozen).toBe(true)
        expectCode(yield* debit(accountNumber, 100), "57")
        // freezing again answers the same freeze
        expect(expectCode(yield* post(`/accounts/${accountNumber}/freeze`, { reason: "again" }), "00")).toEqual({ freezeReference })
        expectCode(yield* post(`/accounts/${accountNumber}/unfreeze`, { freezeReference: "WRONG" }), "57")
        expectCode(yield* post(`/accounts/${accountNumber}/unfreeze`, {}), "26")
        expect((yield* details(accountNumber)).frozen).toBe(true)
        expectCode(yield* post(`/accounts/${accountNumber}/unfreeze`, { freezeReference }), "00")
        expect((yield* details(accountNumber)).frozen).toBe(false)
        // repeating the unfreeze that lifted it is harmless; another reference is not
        expectCode(yield* post(`/accounts/${accountNumber}/unfreeze`, { freezeReference }), "00")
        expectCode(yield* post(`/accounts/${accountNumber}/unfreeze`, { freezeReference: "WRONG" }), "57")
        expectCode(yield* debit(accountNumber, 100), "00")
        // a new freeze has a new reference
        const second = expectCode(yield* post(`/accounts/${accountNumber}/freeze`, { reason: "x" }), "00")
        expect(second.freezeReference).not.toBe(freezeReference)
        expectCode(yield* post(`/accounts/${accountNumber}/unfreeze`, { freezeReference }), "57")
      }))
  })

  describe("BVN registry", () => {
    it.effect("follows the test-data table", () =>
      Effect.gen(function*() {
        expect(expectCode(yield* get("/bvn/22212345678"), "00")).toEqual({
          bvn: "22212345678",
          firstName: "Ada",
          lastName: "Obi",
          phone: "08030000000",
          dateOfBirth: "1990-01-01"
        })
        expectCode(yield* get("/bvn/00000000000"), "25")
        expect(expectCode(yield* get("/bvn/11111111111"), "00")).toMatchObject({
          bvn: "11111111111",
          firstName: "Chidi",
          lastName: "Okeke",
          dateOfBirth: "1985-05-15"
        })
        expectCode(yield* get("/bvn/1234567890"), "26")
        expectCode(yield* get("/bvn/1234567890a"), "26")
      }))
  })

  describe("name enquiry and banks", () => {
    it.effect("lists the large commercial banks and microfinance banks with their NIP codes", () =>
      Effect.gen(function*() {
        const { banks } = expectCode(yield* get("/banks"), "00")
        const byCode = new Map<string, string>(banks.map((b: { code: string; name: string }) => [b.code, b.name]))
        for (
          const [code, name] of [
            ["000014", "Access"],
            ["000013", "Guaranty Trust"],
            ["000015", "Zenith"],
            ["000016", "First Bank"],
            ["000004", "United Bank for Africa"],
            ["000007", "Fidelity"],
            ["000003", "FCMB"],
            ["000018", "Union"],
            ["000012", "Stanbic"],
            ["000001", "Sterling"],
            ["000017", "Wema"],
            ["000010", "Ecobank"],
            ["000008", "Polaris"],
            ["000002", "Keystone"],
            ["000011", "Unity"],
            ["000027", "Globus"],
            ["000023", "Providus"],
            ["000006", "Jaiz"],
            ["090267", "Kuda"],
            ["090405", "Moniepoint"],
            ["100004", "OPay"],
            ["100033", "PalmPay"]
          ]
        ) {
          expect(byCode.get(code!), code).toContain(name)
        }
        expect(byCode.get(SANDBOX_BANK.code)).toBe(SANDBOX_BANK.name)
        expect(banks).toHaveLength(BANKS.length)
        expect(new Set(banks.map((b: { code: string }) => b.code)).size).toBe(banks.length)
        for (const b of banks) expect(b.code).toMatch(/^\d{6}$/)
      }))

    it.effect("finds any 10-digit account at a listed bank as SANDBOX ACCOUNT <last 4>", () =>
      Effect.gen(function*() {
        const found = expectCode(yield* nameEnquiry("0123456789", "000014"), "00")
        expect(found).toMatchObject({ accountName: "SANDBOX ACCOUNT 6789", accountNumber: "0123456789", bankCode: "000014" })
        expect(found.sessionId).toMatch(/^\d{30}$/)
        const again = expectCode(yield* nameEnquiry("0123456789", "000014"), "00")
        expect(again.sessionId).not.toBe(found.sessionId)
        expect(expectCode(yield* nameEnquiry("5550000002", "090405"), "00").accountName).toBe("SANDBOX ACCOUNT 0002")
      }))

    it.effect("answers 07 for numbers starting 999, unknown bank codes and malformed numbers", () =>
      Effect.gen(function*() {
        expectCode(yield* nameEnquiry("9991234567", "000014"), "07")
        expectCode(yield* nameEnquiry("0123456789", "123456"), "07")
        expectCode(yield* nameEnquiry("0123456789", "044"), "07")
        expectCode(yield* nameEnquiry("012345678", "000014"), "07")
        expectCode(yield* nameEnquiry("01234567890", "000014"), "07")
        expectCode(yield* nameEnquiry("01234s6789", "000014"), "07")
      }))

    it.effect("names the sandbox bank's own customers by their account name", () =>
      Effect.gen(function*() {
        const opened = yield* openAccount(ref("C"), { firstName: "Ngozi", lastName: "Eze" })
        expect(expectCode(yield* nameEnquiry(opened.accountNumber, SANDBOX_BANK.code), "00").accountName).toBe("EZE NGOZI")
      }))
  })
})
