/**
 * The BankOne adapter (`@app/adapters/corebanking/bankone`) against the sandbox bank speaking
 * BankOne's dialect (`src/bankone/Front.ts`), over real HTTP, through the CoreBanking port only:
 * the same bank and rules as the generic front (PND, liens, freeze, settlement, reference
 * de-duplication, requery, conservation), the test routes unchanged, and the adapter's quirks
 * end to end (naira liens and balances, kobo postings, TSQ from the journal, the TSQ interval).
 */
import { developmentBankOneSettings } from "@app/adapters/corebanking/bankone/BankOneConfig"
import { makeBankOneCoreBanking } from "@app/adapters/corebanking/bankone/BankOneCoreBanking"
import { memoryJournal } from "@app/adapters/corebanking/bankone/BankOneJournal"
import { CoreBanking, type CoreBankingError, type OpenAccountInput, TestFunding } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { conservation, ledger, SandboxBankInMemory, type SandboxOptions, SandboxServer, sandboxServerLayer } from "../src/index.js"
import { ref, TOKEN } from "./support/SandboxTest.js"

const BANKONE_TOKEN = "bankone-test-token-0123456789abcdef0123"
const settings = developmentBankOneSettings({ token: Redacted.make(BANKONE_TOKEN), tsqIntervalMs: 0 })

const adapter = (overrides: { token?: string; tsqIntervalMs?: number } = {}) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const { coreBanking, testFunding } = yield* makeBankOneCoreBanking({
        baseUrl: sandbox.baseUrl,
        settings: {
          ...settings,
          ...(overrides.token === undefined ? {} : { token: Redacted.make(overrides.token) }),
          ...(overrides.tsqIntervalMs === undefined ? {} : { tsqIntervalMs: overrides.tsqIntervalMs })
        },
        testToken: Redacted.make(TOKEN),
        timeoutMs: 800,
        retryBaseDelayMs: 10,
        journal: memoryJournal()
      })
      return Context.make(CoreBanking, coreBanking).pipe(Context.add(TestFunding, testFunding))
    })
  )

const sandboxOptions: SandboxOptions = {
  port: 0,
  token: TOKEN,
  latencyMs: 0,
  webhook: Option.none(),
  slowTransferDelayMs: 3_000,
  dialect: "bankone",
  bankoneToken: BANKONE_TOKEN,
  bankoneInstitutionCode: settings.institutionCode
}

const TestLayer = adapter().pipe(
  Layer.provideMerge(sandboxServerLayer(sandboxOptions)),
  Layer.provideMerge(SandboxBankInMemory),
  Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Error))
)

const customer = (reference: string): OpenAccountInput => ({
  reference,
  firstName: "Ada",
  lastName: "Obi",
  otherNames: null,
  phone: "08030000000",
  email: "ada@example.com",
  dateOfBirth: "1990-01-01",
  gender: "female"
})

const failure = <A, R>(effect: Effect.Effect<A, CoreBankingError, R>) => Effect.flip(effect)

const conserved = Effect.gen(function*() {
  const check = yield* Effect.orDie(conservation)
  expect(check.problems).toEqual([])
  return check.ledger
})

const funded = (amount: bigint) =>
  Effect.gen(function*() {
    const cb = yield* CoreBanking
    const { accountNumber } = yield* cb.openAccount(customer(ref("A")))
    yield* (yield* TestFunding).deposit({ accountNumber, amountKobo: amount })
    yield* cb.deactivatePnd(accountNumber)
    return accountNumber
  })

const transferTo = (destination: string, amountKobo: bigint, reference = ref("T")) =>
  Effect.gen(function*() {
    const cb = yield* CoreBanking
    const enquiry = yield* cb.nameEnquiry({ accountNumber: destination, bankCode: "000013" })
    return yield* cb.transfer({
      reference,
      amountKobo,
      destinationAccountNumber: destination,
      destinationBankCode: "000013",
      destinationAccountName: enquiry.accountName,
      nameEnquirySessionId: enquiry.sessionId,
      narration: "payout"
    })
  })

layer(TestLayer, { excludeTestServices: true, timeout: "60 seconds" })("BankOne adapter against the sandbox's BankOne dialect", (it) => {
  describe("accounts", () => {
    it.effect("an account opens once per tracking reference, starts under PND, and is found by its reference", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const reference = ref("A")
        const first = yield* cb.openAccount(customer(reference))
        expect(first.accountNumber).toMatch(/^\d{10}$/)
        expect(first.accountName).toBe("OBI ADA")
        expect(yield* cb.openAccount(customer(reference))).toEqual(first)
        expect(yield* cb.findAccountByReference(reference)).toEqual(Option.some(first))
        expect(yield* cb.findAccountByReference(ref("A"))).toEqual(Option.none())
        expect(yield* cb.account(first.accountNumber)).toEqual({
          accountNumber: first.accountNumber,
          accountName: "OBI ADA",
          ledgerBalanceKobo: 0n,
          withdrawableBalanceKobo: 0n,
          pndActive: true,
          frozen: false,
          liens: []
        })
      }))

    it.effect("an unknown account is refused 07", () =>
      Effect.gen(function*() {
        const error = yield* failure(Effect.flatMap(CoreBanking, (cb) => cb.account("0000000000")))
        expect(error._tag).toBe("ProviderRefused")
        expect((error as { code: string }).code).toBe("07")
      }))
  })

  describe("money", () => {
    it.effect("a deposit, a naira lien and a kobo debit: balances in kobo exactly, the lien found by its reference", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const account = yield* funded(1_000_051n)
        const lien = ref("L")
        yield* cb.placeLien({ accountNumber: account, reference: lien, amountKobo: 250_050n })
        const held = yield* cb.account(account)
        expect(held.ledgerBalanceKobo).toBe(1_000_051n)
        expect(held.withdrawableBalanceKobo).toBe(750_001n)
        expect(held.liens).toEqual([{ reference: lien, amountKobo: 250_050n }])
        // a lien of L: no debit may bring the balance below it
        const tooMuch = yield* failure(cb.debit({ accountNumber: account, amountKobo: 750_002n, reference: ref("D"), narration: "x" }))
        expect(tooMuch._tag).toBe("ProviderRefused")
        expect((tooMuch as { code: string }).code).toBe("51")
        const debit = ref("D")
        yield* cb.debit({ accountNumber: account, amountKobo: 750_001n, reference: debit, narration: "save" })
        // the same reference again is not applied twice
        yield* cb.debit({ accountNumber: account, amountKobo: 750_001n, reference: debit, narration: "save" })
        expect(yield* cb.requery(debit)).toBe("successful")
        yield* cb.removeLien({ accountNumber: account, reference: lien })
        const after = yield* cb.account(account)
        expect(after.ledgerBalanceKobo).toBe(250_050n)
        expect(after.liens).toEqual([])
        const history = yield* cb.history(account)
        expect(history.map((h) => [h.channel, h.amountKobo])).toEqual([["core_debit", 750_001n], ["nip_inbound", 1_000_051n]])
        yield* conserved
      }))

    it.effect("PND and freeze refuse debits; unfreezing quotes the freeze's own reference", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const account = yield* funded(100_000n)
        yield* cb.activatePnd(account)
        expect((yield* cb.account(account)).pndActive).toBe(true)
        const pnd = yield* failure(cb.debit({ accountNumber: account, amountKobo: 1_000n, reference: ref("D"), narration: "x" }))
        expect((pnd as { code: string }).code).toBe("57")
        yield* cb.deactivatePnd(account)
        const { freezeReference } = yield* cb.freeze({ accountNumber: account, reason: "test" })
        expect(freezeReference).toHaveLength(12)
        expect((yield* cb.account(account)).frozen).toBe(true)
        const frozen = yield* failure(cb.debit({ accountNumber: account, amountKobo: 1_000n, reference: ref("D"), narration: "x" }))
        expect((frozen as { code: string }).code).toBe("57")
        yield* cb.unfreeze({ accountNumber: account, freezeReference })
        expect((yield* cb.account(account)).frozen).toBe(false)
      }))

    it.effect("a credit (reversal) comes back from settlement and is not a deposit", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const account = yield* funded(50_000n)
        yield* cb.debit({ accountNumber: account, amountKobo: 50_000n, reference: ref("D"), narration: "out" })
        const credit = ref("R")
        yield* cb.credit({ accountNumber: account, amountKobo: 20_000n, reference: credit, narration: "back" })
        expect(yield* cb.requery(credit)).toBe("successful")
        const history = yield* cb.history(account)
        expect(history.filter((h) => h.channel === "nip_inbound").map((h) => h.amountKobo)).toEqual([50_000n])
        expect(history.find((h) => h.reference === credit)?.channel).toBe("core_credit")
        yield* conserved
      }))
  })

  describe("transfers", () => {
    it.effect("name enquiry and transfer: successful, pending then successful (0002), failed (0003); requery from the journal", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const account = yield* funded(500_000n)
        yield* cb.debit({ accountNumber: account, amountKobo: 500_000n, reference: ref("D"), narration: "fund" })
        const paid = yield* ledger.pipe(Effect.orDie)
        const ok = ref("T")
        expect(yield* transferTo("0123450001", 100_000n, ok)).toBe("successful")
        expect(yield* cb.requery(ok)).toBe("successful")
        const slow = ref("T")
        expect(yield* transferTo("0123450002", 50_000n, slow)).toBe("pending")
        expect(yield* cb.requery(slow)).toBe("pending")
        expect(yield* cb.requery(slow)).toBe("successful")
        const refusedRef = ref("T")
        const refusal = yield* failure(transferTo("0123450003", 10_000n, refusedRef))
        expect(refusal._tag).toBe("ProviderRefused")
        expect(yield* cb.requery(refusedRef)).toBe("failed")
        // never sent: not_found without asking the bank
        expect(yield* cb.requery(ref("T"))).toBe("not_found")
        const books = yield* ledger.pipe(Effect.orDie)
        expect(books.paidOut - paid.paidOut).toBe(150_000)
        const unknown = yield* failure(cb.nameEnquiry({ accountNumber: "9990000001", bankCode: "000013" }))
        expect((unknown as { code: string }).code).toBe("07")
        yield* conserved
      }))
  })

  describe("reference data and configuration", () => {
    it.effect("BVN lookup (dates converted from BankOne's form), banks, and a wrong token is misconfiguration", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        expect(yield* cb.bvnLookup("11111111111")).toEqual(
          Option.some({ firstName: "Chidi", lastName: "Okeke", phone: expect.any(String), dateOfBirth: "1985-05-15" })
        )
        expect(yield* cb.bvnLookup("00000000000")).toEqual(Option.none())
        const banks = yield* cb.banks
        expect(banks).toContainEqual({ bankCode: "000013", bankName: expect.stringContaining("Guaranty") })
        const wrong = yield* failure(Effect.flatMap(CoreBanking, (other) => other.account("0000000000"))).pipe(
          Effect.provide(adapter({ token: "wrong-token-wrong-token-wrong-token-00" }))
        )
        expect(wrong._tag).toBe("ProviderMisconfigured")
      }))

    it.effect("the TSQ interval: a status query sooner than the interval after the posting is unknown, without asking the bank", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const account = yield* funded(10_000n)
        const debit = ref("D")
        yield* cb.debit({ accountNumber: account, amountKobo: 10_000n, reference: debit, narration: "x" })
        const early = yield* failure(cb.requery(debit))
        expect(early._tag).toBe("ProviderUnknownOutcome")
        expect((early as { detail: string }).detail).toContain("TSQ interval")
      }).pipe(Effect.provide(adapter({ tsqIntervalMs: 60_000 }))))
  })
})
