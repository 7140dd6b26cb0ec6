/**
 * The real HTTP adapter (`@app/adapters/corebanking/HttpCoreBanking`, over undici) against the real
 * sandbox bank, over real HTTP on a loopback port, through the domain port only (`CoreBanking`,
 * `TestFunding`): account opening, balances and history, the debit rules (PND, liens, freeze,
 * deduplication), reversals, name enquiry, every transfer destination behaviour (including the slow
 * 0004 answer the adapter must give up on and the 0006 "96" answer to an applied transfer), expired
 * name-enquiry sessions, strict duplicates ("94" to every repeat: an unknown outcome, never a
 * refusal), requery, the BVN registry, the bank list and a wrong token. The sandbox's own books
 * (`ledger`, `conservation`) are read directly from its bank (in memory).
 */
import { AppConfigTest } from "@app/adapters/AppConfig"
import * as HttpCoreBanking from "@app/adapters/corebanking/HttpCoreBanking"
import {
  CoreBanking,
  type CoreBankingError,
  type NameEnquiryResult,
  type OpenAccountInput,
  ProviderMisconfigured,
  ProviderRefused,
  ProviderUnknownOutcome,
  TestFunding
} from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { coreBankingLayer } from "@app/adapters/corebanking/Provider"
import { BalanceMemo } from "@app/domain"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import {
  conservation,
  EmbeddedSandboxOnBank,
  ledger,
  SandboxBankInMemory,
  SANDBOX_BANK,
  type SandboxOptions,
  SandboxServer,
  sandboxServerLayer
} from "../src/index.js"
import { ageSession, ref, TOKEN } from "./support/SandboxTest.js"

/** How long the sandbox holds back the answer of a transfer to a destination ending 0004. */
const SLOW_TRANSFER_DELAY_MS = 3_000
/** The adapter's per-attempt timeout (CORE_BANKING_TIMEOUT_MS). */
const TIMEOUT_MS = 800
/** The adapter's attempts in all for calls that are safe to repeat (its default). */
const MAX_ATTEMPTS = 3
const RETRY_BASE_DELAY_MS = 10

const adapterLayer = (token: string) =>
  Layer.unwrapEffect(
    Effect.map(SandboxServer, (sandbox) =>
      HttpCoreBanking.layer({
        baseUrl: sandbox.baseUrl,
        token: Redacted.make(token),
        timeoutMs: TIMEOUT_MS,
        maxAttempts: MAX_ATTEMPTS,
        retryBaseDelayMs: RETRY_BASE_DELAY_MS
      }))
  )

const sandboxOptions: SandboxOptions = {
  port: 0,
  token: TOKEN,
  latencyMs: 0,
  webhook: Option.none(),
  slowTransferDelayMs: SLOW_TRANSFER_DELAY_MS
}

/** The sandbox (no webhook) on a random port over a fresh bank in memory, and the adapter pointed at it. */
const TestLayer = adapterLayer(TOKEN).pipe(
  Layer.provideMerge(sandboxServerLayer(sandboxOptions)),
  Layer.provideMerge(SandboxBankInMemory),
  // unknown outcomes and misconfiguration are logged as warnings by the adapter: expected here
  Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Error))
)

// -------------------------------------------------------------------------------------------------
// Helpers
// -------------------------------------------------------------------------------------------------

const customer = (reference: string, names: { firstName?: string; lastName?: string } = {}): OpenAccountInput => ({
  reference,
  firstName: names.firstName ?? "Ada",
  lastName: names.lastName ?? "Obi",
  otherNames: null,
  phone: "08030000000",
  email: "ada@example.com",
  dateOfBirth: "1990-01-01",
  gender: "female"
})

/** The call must fail with this error kind; returns the error. */
const failure = <A, R, Tag extends CoreBankingError["_tag"]>(effect: Effect.Effect<A, CoreBankingError, R>, tag: Tag) =>
  Effect.map(Effect.flip(effect), (error) => {
    expect(error._tag, JSON.stringify(error)).toBe(tag)
    return error as Extract<CoreBankingError, { _tag: Tag }>
  })

/** The call must be refused with this response code. */
const refused = <A, R>(effect: Effect.Effect<A, CoreBankingError, R>, code: string) =>
  Effect.map(failure(effect, "ProviderRefused"), (error) => {
    expect(error).toBeInstanceOf(ProviderRefused)
    expect(error.code, error.reason).toBe(code)
    expect(error.reason.length).toBeGreaterThan(0)
    return error
  })

const books = Effect.orDie(ledger)

/** Money was neither created nor lost, and every balance matches its postings. */
const conserved = Effect.gen(function*() {
  const check = yield* Effect.orDie(conservation)
  expect(check.problems).toEqual([])
  expect(check.ok).toBe(true)
  return check.ledger
})

const balances = (accountNumber: string) =>
  Effect.map(
    Effect.flatMap(CoreBanking, (cb) => cb.account(accountNumber)),
    (a) => ({ ledger: a.ledgerBalanceKobo, withdrawable: a.withdrawableBalanceKobo })
  )

/** A new account with `amount` deposited and PND lifted: it can be debited. */
const fundedAccount = (amount: bigint) =>
  Effect.gen(function*() {
    const cb = yield* CoreBanking
    const funding = yield* TestFunding
    const { accountNumber } = yield* cb.openAccount(customer(ref("A")))
    yield* funding.deposit({ accountNumber, amountKobo: amount })
    yield* cb.deactivatePnd(accountNumber)
    return accountNumber
  })

/** Moves `amount` into the bank's settlement account (deposit, then a customer debit), so transfers can pay out. */
const fundSettlement = (amount: bigint) =>
  Effect.gen(function*() {
    const cb = yield* CoreBanking
    const accountNumber = yield* fundedAccount(amount)
    yield* cb.debit({ accountNumber, amountKobo: amount, reference: ref("D"), narration: "fund settlement" })
  })

/** Runs `effect` with the adapter pointed at a second sandbox, with these options, over the same bank. */
const onSandbox = (options: Partial<SandboxOptions>) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, adapterLayer(TOKEN).pipe(Layer.provide(sandboxServerLayer({ ...sandboxOptions, ...options }))))

/** A transfer to the account of this name enquiry, quoting its session id. */
const transferQuoting = (enquiry: NameEnquiryResult & { accountNumber: string; bankCode: string }, amountKobo: bigint, reference: string) =>
  Effect.flatMap(CoreBanking, (cb) =>
    cb.transfer({
      reference,
      amountKobo,
      destinationAccountNumber: enquiry.accountNumber,
      destinationBankCode: enquiry.bankCode,
      destinationAccountName: enquiry.accountName,
      nameEnquirySessionId: enquiry.sessionId,
      narration: "payout"
    }))

/** A name enquiry, with the account and bank it was made for. */
const enquire = (accountNumber: string, bankCode = "000013") =>
  Effect.flatMap(CoreBanking, (cb) =>
    Effect.map(cb.nameEnquiry({ accountNumber, bankCode }), (result) => ({ ...result, accountNumber, bankCode })))

/** Name enquiry, then a transfer quoting its session id. */
const transferTo = (destinationAccountNumber: string, amountKobo: bigint, reference = ref("T"), bankCode = "000013") =>
  Effect.flatMap(enquire(destinationAccountNumber, bankCode), (enquiry) => transferQuoting(enquiry, amountKobo, reference))

// -------------------------------------------------------------------------------------------------
// Tests
// -------------------------------------------------------------------------------------------------

layer(TestLayer, { excludeTestServices: true, timeout: "60 seconds" })("HTTP adapter against the sandbox bank", (it) => {
  describe("accounts", () => {
    it.effect("openAccount is idempotent by reference; findAccountByReference finds it; a new account has PND active", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const reference = ref("A")
        const first = yield* cb.openAccount(customer(reference))
        expect(first.accountNumber).toMatch(/^[0-9]{10}$/)
        expect(first.accountName).toBe("OBI ADA")
        // the same reference (even with other names) answers the same account
        const again = yield* cb.openAccount(customer(reference, { firstName: "Bola", lastName: "Ade" }))
        expect(again).toEqual(first)
        const other = yield* cb.openAccount(customer(ref("A"), { firstName: "Bola", lastName: "Ade" }))
        expect(other.accountNumber).not.toBe(first.accountNumber)
        expect(other.accountName).toBe("ADE BOLA")

        expect(yield* cb.findAccountByReference(reference)).toEqual(Option.some(first))
        expect(yield* cb.findAccountByReference(ref("A"))).toEqual(Option.none())

        const snapshot = yield* cb.account(first.accountNumber)
        expect(snapshot).toEqual({
          accountNumber: first.accountNumber,
          accountName: "OBI ADA",
          ledgerBalanceKobo: 0n,
          withdrawableBalanceKobo: 0n,
          pndActive: true,
          frozen: false,
          liens: []
        })
        expect(yield* cb.history(first.accountNumber)).toEqual([])
        // an unknown account is "07", not a misconfiguration
        yield* refused(cb.account("0000000000"), "07")
        yield* conserved
      }))

    it.effect("a test deposit shows in both balances and in the history as an inbound NIP credit", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const funding = yield* TestFunding
        const before = yield* books
        const { accountNumber } = yield* cb.openAccount(customer(ref("A")))
        yield* funding.deposit({ accountNumber, amountKobo: 250_000n })
        expect(yield* balances(accountNumber)).toEqual({ ledger: 250_000n, withdrawable: 250_000n })
        const history = yield* cb.history(accountNumber)
        expect(history).toHaveLength(1)
        const [tx] = history
        expect(tx).toMatchObject({
          direction: "credit",
          amountKobo: 250_000n,
          channel: "nip_inbound",
          counterpartyName: "SANDBOX DEPOSITOR",
          counterpartyAccountNumber: "0123456789",
          counterpartyBankCode: "000013"
        })
        expect(tx!.reference.length).toBeGreaterThan(0)
        expect(tx!.postedAt).toBeInstanceOf(Date)
        expect(Math.abs(tx!.postedAt.getTime() - Date.now())).toBeLessThan(60_000)
        const after = yield* books
        expect(after.deposits - before.deposits).toBe(250_000)
        expect(after.customerBalances - before.customerBalances).toBe(250_000)
        // a deposit to an unknown account is refused and moves nothing
        yield* refused(funding.deposit({ accountNumber: "0000000000", amountKobo: 1n }), "07")
        expect((yield* books).deposits).toBe(after.deposits)
        yield* conserved
      }))
  })

  describe("debits, liens, freezes and reversals", () => {
    it.effect("enforce PND, deduplicate references, respect liens and freezes, and a credit restores money", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const funding = yield* TestFunding
        const { accountNumber } = yield* cb.openAccount(customer(ref("A")))
        yield* funding.deposit({ accountNumber, amountKobo: 100_000n })
        const debit = (amountKobo: bigint, reference = ref("D")) =>
          cb.debit({ accountNumber, amountKobo, reference, narration: "plan funding" })

        // PND active: refused, and the refusal is the reference's outcome for good
        const refusedRef = ref("D")
        yield* refused(debit(10_000n, refusedRef), "57")
        expect(yield* cb.requery(refusedRef)).toBe("failed")
        yield* cb.deactivatePnd(accountNumber)
        expect((yield* cb.account(accountNumber)).pndActive).toBe(false)
        yield* refused(debit(10_000n, refusedRef), "57")
        expect(yield* balances(accountNumber)).toEqual({ ledger: 100_000n, withdrawable: 100_000n })

        // PND lifted: applied once however often it is repeated
        const before = yield* books
        const once = ref("D")
        yield* debit(30_000n, once)
        yield* debit(30_000n, once)
        yield* debit(30_000n, once)
        expect(yield* balances(accountNumber)).toEqual({ ledger: 70_000n, withdrawable: 70_000n })
        expect((yield* books).settlement - before.settlement).toBe(30_000)
        expect(yield* cb.requery(once)).toBe("successful")
        const debits = (yield* cb.history(accountNumber)).filter((tx) => tx.direction === "debit")
        expect(debits).toHaveLength(1)
        expect(debits[0]).toMatchObject({ amountKobo: 30_000n, channel: "core_debit" })
        // the same reference for another amount is a duplicate ("94"): never a refusal, an unknown
        // outcome, and the requery tells the reference's first outcome
        expect((yield* failure(debit(30_001n, once), "ProviderUnknownOutcome")).detail).toContain("94")
        expect(yield* cb.requery(once)).toBe("successful")
        expect((yield* balances(accountNumber)).ledger).toBe(70_000n)

        // liens: withdrawable = ledger − liens; a debit above it is "51"
        const lien = ref("L")
        yield* cb.placeLien({ accountNumber, reference: lien, amountKobo: 50_000n })
        yield* cb.placeLien({ accountNumber, reference: lien, amountKobo: 50_000n }) // same again: no-op
        const liened = yield* cb.account(accountNumber)
        expect(liened.ledgerBalanceKobo).toBe(70_000n)
        expect(liened.withdrawableBalanceKobo).toBe(20_000n)
        expect(liened.liens).toEqual([{ reference: lien, amountKobo: 50_000n }])
        yield* refused(debit(20_001n), "51")
        yield* refused(debit(70_000n), "51")
        yield* debit(5_000n)
        expect(yield* balances(accountNumber)).toEqual({ ledger: 65_000n, withdrawable: 15_000n })
        yield* cb.removeLien({ accountNumber, reference: lien })
        yield* cb.removeLien({ accountNumber, reference: lien }) // removing twice: no-op
        expect(yield* cb.account(accountNumber)).toMatchObject({
          ledgerBalanceKobo: 65_000n,
          withdrawableBalanceKobo: 65_000n,
          liens: []
        })
        yield* refused(cb.removeLien({ accountNumber, reference: ref("L") }), "25")
        yield* refused(debit(65_001n), "51")

        // freeze: debits refused; only the account's own freeze reference lifts it
        const { freezeReference } = yield* cb.freeze({ accountNumber, reason: "fraud review" })
        expect(freezeReference.length).toBeGreaterThan(0)
        expect((yield* cb.account(accountNumber)).frozen).toBe(true)
        yield* refused(debit(1_000n), "57")
        yield* refused(cb.unfreeze({ accountNumber, freezeReference: `${freezeReference}X` }), "57")
        expect((yield* cb.account(accountNumber)).frozen).toBe(true)
        yield* cb.unfreeze({ accountNumber, freezeReference })
        expect((yield* cb.account(accountNumber)).frozen).toBe(false)
        const last = ref("D")
        yield* debit(15_000n, last)
        expect(yield* balances(accountNumber)).toEqual({ ledger: 50_000n, withdrawable: 50_000n })

        // a reversal (credit) brings the money back from settlement, once
        const settlementBefore = (yield* books).settlement
        const reversal = ref("K")
        yield* cb.credit({ accountNumber, amountKobo: 15_000n, reference: reversal, narration: "reversal" })
        yield* cb.credit({ accountNumber, amountKobo: 15_000n, reference: reversal, narration: "reversal" })
        expect(yield* balances(accountNumber)).toEqual({ ledger: 65_000n, withdrawable: 65_000n })
        expect((yield* books).settlement).toBe(settlementBefore - 15_000)
        const credits = (yield* cb.history(accountNumber)).filter((tx) => tx.channel === "core_credit")
        expect(credits).toHaveLength(1)
        expect(credits[0]).toMatchObject({ direction: "credit", amountKobo: 15_000n })

        // a credit is accepted on a frozen account with PND active (a reversal must always land)
        yield* cb.activatePnd(accountNumber)
        yield* cb.freeze({ accountNumber, reason: "again" })
        yield* cb.credit({ accountNumber, amountKobo: 1_000n, reference: ref("K"), narration: "reversal" })
        expect(yield* cb.account(accountNumber)).toMatchObject({ ledgerBalanceKobo: 66_000n, pndActive: true, frozen: true })
        yield* conserved
      }))
  })

  describe("name enquiry", () => {
    it.effect("names any 10-digit account at a listed bank SANDBOX ACCOUNT <last4>, a 999… account is \"07\"", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const found = yield* cb.nameEnquiry({ accountNumber: "0123456789", bankCode: "000013" })
        expect(found.accountName).toBe("SANDBOX ACCOUNT 6789")
        expect(found.sessionId).toMatch(/^[0-9]{30}$/)
        const again = yield* cb.nameEnquiry({ accountNumber: "0123456789", bankCode: "000013" })
        expect(again.sessionId).not.toBe(found.sessionId)
        expect((yield* cb.nameEnquiry({ accountNumber: "2233440000", bankCode: "090267" })).accountName).toBe(
          "SANDBOX ACCOUNT 0000"
        )
        yield* refused(cb.nameEnquiry({ accountNumber: "9991234567", bankCode: "000013" }), "07")
        yield* refused(cb.nameEnquiry({ accountNumber: "0123456789", bankCode: "123456" }), "07")
        // the sandbox bank's own customers answer with their real name
        const own = yield* cb.openAccount(customer(ref("A"), { firstName: "Chidi", lastName: "Okeke" }))
        expect((yield* cb.nameEnquiry({ accountNumber: own.accountNumber, bankCode: SANDBOX_BANK.code })).accountName).toBe(
          "OKEKE CHIDI"
        )
      }))
  })

  describe("transfers and requery", () => {
    it.effect("any other destination: successful at once, requery successful, paid out once", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(1_000_000n)
        const before = yield* books
        const reference = ref("T")
        expect(yield* transferTo("0123456781", 40_000n, reference)).toBe("successful")
        expect(yield* cb.requery(reference)).toBe("successful")
        // repeated with the same reference (and a fresh name enquiry): the first outcome, no second payout
        expect(yield* transferTo("0123456781", 40_000n, reference)).toBe("successful")
        const after = yield* books
        expect(after.paidOut - before.paidOut).toBe(40_000)
        expect(after.settlement - before.settlement).toBe(-40_000)
        yield* conserved
      }))

    it.effect("a transfer must quote a name enquiry of the same destination (\"26\", nothing stored)", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const enquiry = yield* cb.nameEnquiry({ accountNumber: "0123456781", bankCode: "000013" })
        const reference = ref("T")
        yield* refused(
          cb.transfer({
            reference,
            amountKobo: 1_000n,
            destinationAccountNumber: "0123456782",
            destinationBankCode: "000013",
            destinationAccountName: enquiry.accountName,
            nameEnquirySessionId: enquiry.sessionId,
            narration: "payout"
          }),
          "26"
        )
        expect(yield* cb.requery(reference)).toBe("not_found")
        expect((yield* books).paidOut).toBe(before.paidOut)
        yield* conserved
      }))

    it.effect("0002: pending, the first requery pending, a later one successful", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const reference = ref("T")
        expect(yield* transferTo("0123450002", 20_000n, reference)).toBe("pending")
        expect(yield* cb.requery(reference)).toBe("pending")
        expect(yield* cb.requery(reference)).toBe("successful")
        expect(yield* cb.requery(reference)).toBe("successful")
        expect((yield* books).paidOut - before.paidOut).toBe(20_000)
        yield* conserved
      }))

    it.effect("0003: refused at once, nothing leaves settlement, requery failed", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const reference = ref("T")
        yield* refused(transferTo("0123450003", 20_000n, reference), "57")
        expect(yield* cb.requery(reference)).toBe("failed")
        // a repeat answers the first outcome
        yield* refused(transferTo("0123450003", 20_000n, reference), "57")
        expect(yield* books).toEqual(before)
        yield* conserved
      }))

    it.effect("0004: the adapter gives up at its timeout (unknown outcome); the money did leave: requery successful", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const reference = ref("T")
        const enquiry = yield* cb.nameEnquiry({ accountNumber: "0123450004", bankCode: "000013" })
        const started = Date.now()
        const error = yield* failure(
          cb.transfer({
            reference,
            amountKobo: 30_000n,
            destinationAccountNumber: "0123450004",
            destinationBankCode: "000013",
            destinationAccountName: enquiry.accountName,
            nameEnquirySessionId: enquiry.sessionId,
            narration: "payout"
          }),
          "ProviderUnknownOutcome"
        )
        const elapsed = Date.now() - started
        expect(error).toBeInstanceOf(ProviderUnknownOutcome)
        // a timeout is not retried: the service waits CORE_BANKING_TIMEOUT_MS once, then the outcome
        // is unknown (to be learned by requery), long before the sandbox would have answered
        expect(error.detail).toBe(`no answer within ${TIMEOUT_MS} ms (1 attempt)`)
        expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
        expect(elapsed).toBeLessThan(2 * TIMEOUT_MS)
        // applied at once: the money is out even though no answer came
        expect((yield* books).paidOut - before.paidOut).toBe(30_000)
        expect(yield* cb.requery(reference)).toBe("successful")
        // after the sandbox's delay: still successful, paid out once
        yield* Effect.sleep(Math.max(0, started + SLOW_TRANSFER_DELAY_MS + 200 - Date.now()))
        expect(yield* cb.requery(reference)).toBe("successful")
        const after = yield* books
        expect(after.paidOut - before.paidOut).toBe(30_000)
        expect(after.settlement - before.settlement).toBe(-30_000)
        yield* conserved
      }))

    it.effect("0005: pending, requery pending ×3, then failed and the money is back in settlement", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const reference = ref("T")
        expect(yield* transferTo("0123450005", 25_000n, reference)).toBe("pending")
        const out = yield* books
        expect(out.paidOut - before.paidOut).toBe(25_000)
        expect(out.settlement - before.settlement).toBe(-25_000)
        for (let i = 1; i <= 3; i++) expect(yield* cb.requery(reference), `requery ${i}`).toBe("pending")
        expect(yield* cb.requery(reference)).toBe("failed")
        expect(yield* cb.requery(reference)).toBe("failed")
        expect(yield* books).toEqual(before)
        yield* conserved
      }))

    it.effect("0006: applied, but answered \"96\": the adapter reports an unknown outcome; requery successful", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const reference = ref("T")
        const error = yield* failure(transferTo("0123450006", 30_000n, reference), "ProviderUnknownOutcome")
        expect(error.detail).toContain("96")
        expect(yield* cb.requery(reference)).toBe("successful")
        // repeated (as the saga's recovery would): the first outcome again, paid out once
        yield* failure(transferTo("0123450006", 30_000n, reference), "ProviderUnknownOutcome")
        const after = yield* books
        expect(after.paidOut - before.paidOut).toBe(30_000)
        expect(after.settlement - before.settlement).toBe(-30_000)
        yield* conserved
      }))

    it.effect("an expired name-enquiry session is refused (\"26\", nothing stored); a fresh session under the same reference pays", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        yield* fundSettlement(100_000n)
        const before = yield* books
        const reference = ref("T")
        const enquiry = yield* enquire("0123456781")
        yield* ageSession(enquiry.sessionId, 31 * 60_000)
        const error = yield* refused(transferQuoting(enquiry, 10_000n, reference), "26")
        expect(error.reason).toContain("expired")
        expect(yield* cb.requery(reference)).toBe("not_found")
        expect(yield* transferTo("0123456781", 10_000n, reference)).toBe("successful")
        expect(yield* cb.requery(reference)).toBe("successful")
        expect((yield* books).paidOut - before.paidOut).toBe(10_000)
        yield* conserved
      }))

    it.effect("strict duplicates: a repeated debit or lien is ProviderUnknownOutcome (\"94\"), applied once; requery successful", () =>
      onSandbox({ duplicateReferences: "reject" })(Effect.gen(function*() {
        const cb = yield* CoreBanking
        const accountNumber = yield* fundedAccount(50_000n)
        const posting = { accountNumber, amountKobo: 20_000n, reference: ref("D"), narration: "plan funding" }
        yield* cb.debit(posting)
        expect((yield* failure(cb.debit(posting), "ProviderUnknownOutcome")).detail).toContain("94")
        expect(yield* cb.requery(posting.reference)).toBe("successful")
        expect(yield* balances(accountNumber)).toEqual({ ledger: 30_000n, withdrawable: 30_000n })
        const lien = { accountNumber, reference: ref("L"), amountKobo: 10_000n }
        yield* cb.placeLien(lien)
        yield* failure(cb.placeLien(lien), "ProviderUnknownOutcome")
        expect((yield* cb.account(accountNumber)).liens).toEqual([{ reference: lien.reference, amountKobo: 10_000n }])
        yield* conserved
      })))

    it.effect("the embedded sandbox (coreBankingLayer(EmbeddedSandboxOnBank)) takes both options from AppConfig", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        const accountNumber = yield* fundedAccount(10_000n)
        const posting = { accountNumber, amountKobo: 1_000n, reference: ref("D"), narration: "plan funding" }
        yield* cb.debit(posting)
        yield* failure(cb.debit(posting), "ProviderUnknownOutcome") // SANDBOX_DUPLICATE_REFERENCES=reject
        const enquiry = yield* enquire("0123456781")
        yield* ageSession(enquiry.sessionId, 3 * 60_000)
        const error = yield* refused(transferQuoting(enquiry, 1_000n, ref("T")), "26") // SANDBOX_NIP_SESSION_TTL_MS
        expect(error.reason).toContain("2 minutes")
      }).pipe(
        Effect.provide(coreBankingLayer(EmbeddedSandboxOnBank).pipe(
          Layer.provide(AppConfigTest({ sandboxDuplicateReferences: "reject", sandboxNipSessionTtlMs: 2 * 60_000 })),
          // the customers' last-known balances live in the service's database, not this one
          Layer.provide(Layer.succeed(BalanceMemo, { remember: () => Effect.void }))
        ))
      ))

    it.effect("requery of an unknown reference is not_found", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        expect(yield* cb.requery(ref("T"))).toBe("not_found")
      }))
  })

  describe("reference data", () => {
    it.effect("bvnLookup answers the test data; 00000000000 is none", () =>
      Effect.gen(function*() {
        const cb = yield* CoreBanking
        expect(yield* cb.bvnLookup("22212345678")).toEqual(
          Option.some({ firstName: "Ada", lastName: "Obi", phone: "08030000000", dateOfBirth: "1990-01-01" })
        )
        const chidi = yield* cb.bvnLookup("11111111111")
        expect(Option.isSome(chidi)).toBe(true)
        expect(Option.getOrThrow(chidi)).toMatchObject({ firstName: "Chidi", lastName: "Okeke", dateOfBirth: "1985-05-15" })
        expect(yield* cb.bvnLookup("00000000000")).toEqual(Option.none())
        // not a BVN at all: refused "26", not "none"
        yield* refused(cb.bvnLookup("123"), "26")
      }))

    it.effect("banks contains GTBank 000013 and Kuda 090267", () =>
      Effect.gen(function*() {
        const banks = yield* (yield* CoreBanking).banks
        const codes = banks.map((b) => b.bankCode)
        expect(codes).toContain("000013")
        expect(codes).toContain("090267")
        expect(banks.find((b) => b.bankCode === "000013")?.bankName).toMatch(/GTBank|Guaranty/)
        expect(banks.find((b) => b.bankCode === "090267")?.bankName).toMatch(/Kuda/)
        expect(new Set(codes).size).toBe(codes.length)
      }))
  })

  describe("credentials", () => {
    it.effect("a wrong token is ProviderMisconfigured on reads and writes, and nothing moves", () =>
      Effect.gen(function*() {
        const accountNumber = yield* fundedAccount(10_000n)
        const before = yield* books
        const wrong = Effect.gen(function*() {
          const cb = yield* CoreBanking
          const funding = yield* TestFunding
          for (
            const effect of [
              cb.banks,
              cb.account(accountNumber),
              cb.requery(ref("T")),
              cb.findAccountByReference(ref("A")),
              cb.debit({ accountNumber, amountKobo: 1_000n, reference: ref("D"), narration: "x" }),
              cb.freeze({ accountNumber, reason: "x" }),
              funding.deposit({ accountNumber, amountKobo: 1_000n })
            ] as ReadonlyArray<Effect.Effect<unknown, CoreBankingError>>
          ) {
            const error = yield* failure(effect, "ProviderMisconfigured")
            expect(error).toBeInstanceOf(ProviderMisconfigured)
            expect(error.detail).not.toContain("wrong-token")
          }
        })
        yield* Effect.provide(wrong, adapterLayer("wrong-token"))
        expect(yield* books).toEqual(before)
        expect(yield* (yield* CoreBanking).account(accountNumber)).toMatchObject({
          ledgerBalanceKobo: 10_000n,
          frozen: false
        })
      }))
  })

  it.effect("after all of it, money was neither created nor lost", () =>
    Effect.gen(function*() {
      const totals = yield* conserved
      expect(totals.customerBalances + totals.settlement + totals.paidOut).toBe(totals.deposits)
      expect(totals.deposits).toBeGreaterThan(0)
      expect(totals.paidOut).toBeGreaterThan(0)
    }))
})
