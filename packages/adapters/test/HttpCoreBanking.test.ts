import {
  CoreBanking,
  type CoreBankingError,
  ProviderMisconfigured,
  ProviderRefused,
  ProviderUnknownOutcome,
  TestFunding
} from "@app/domain"
import { describe, expect, it } from "@effect/vitest"
import { captureSpans } from "@app/domain/testing/Spans"
import { Effect, Either, Fiber, Logger, LogLevel, Option, Redacted } from "effect"
import {
  type CoreBankingHttpOptions,
  layer,
  makeHttpCoreBanking
} from "../src/corebanking/HttpCoreBanking.js"
import type { WireRequest } from "../src/corebanking/Sender.js"
import { always, closedPort, makeStubBank, reply, sequence } from "./support/StubBank.js"

const TOKEN = "tok_live_9f8e7d6c5b4a-secret"
const ACCOUNT = "0123456789"
const BVN = "22212345678"
const TIMEOUT_MS = 200

const options = (baseUrl: string, overrides: Partial<CoreBankingHttpOptions> = {}): CoreBankingHttpOptions => ({
  baseUrl,
  token: Redacted.make(TOKEN),
  timeoutMs: TIMEOUT_MS,
  maxConcurrency: 16,
  maxAttempts: 3,
  retryBaseDelayMs: 5,
  ...overrides
})

/** A fresh stub bank and an adapter pointed at it, over undici. */
const setup = (overrides: Partial<CoreBankingHttpOptions> = {}) =>
  Effect.gen(function*() {
    const stub = yield* makeStubBank
    const { coreBanking, testFunding } = yield* makeHttpCoreBanking(options(stub.url, overrides))
    return { stub, cb: coreBanking, funding: testFunding }
  })

/** With the default logger silenced (tests that look at logs capture them). */
const withClient = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(Effect.provide(Logger.remove(Logger.defaultLogger)))

const fail = <A>(effect: Effect.Effect<A, CoreBankingError>) => Effect.flip(effect)

/** Polls `condition` every 10 ms; the test's own timeout bounds the wait. */
const waitUntil = (condition: () => boolean): Effect.Effect<void> =>
  Effect.suspend(() => (condition() ? Effect.void : Effect.zipRight(Effect.sleep("10 millis"), waitUntil(condition))))

const expectTag = (error: CoreBankingError, tag: CoreBankingError["_tag"]) => {
  expect(error._tag).toBe(tag)
}

const accountDetails = {
  accountNumber: ACCOUNT,
  accountName: "ADA OBI",
  ledgerBalance: 500_000,
  withdrawableBalance: 300_000,
  pndActive: true,
  frozen: false,
  liens: [{ reference: "LABCDEF12345", amount: 200_000 }]
}

const posting = { accountNumber: ACCOUNT, amountKobo: 150_000n, reference: "DABCDEF12345", narration: "plan payout" }

const transfer = {
  reference: "TABCDEF12345",
  amountKobo: 250_000n,
  destinationAccountNumber: "9876543210",
  destinationBankCode: "000013",
  destinationAccountName: "ADA OBI",
  nameEnquirySessionId: "000013240101120000123456789012",
  narration: "instalment"
}

const openInput = {
  reference: "AABCDEF12345",
  firstName: "Ada",
  lastName: "Obi",
  otherNames: null,
  phone: "+2348031234567",
  email: "ada@example.com",
  dateOfBirth: "1990-01-31",
  gender: "female" as const
}

interface LogEntry {
  readonly level: string
  readonly message: string
  readonly annotations: Record<string, unknown>
}

const captureLogs = () => {
  const entries: Array<LogEntry> = []
  const logger = Logger.make(({ annotations, logLevel, message }) => {
    entries.push({
      level: logLevel.label,
      message: Array.isArray(message) ? message.map(String).join(" ") : String(message),
      annotations: Object.fromEntries(annotations)
    })
  })
  const run = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)), Logger.withMinimumLogLevel(LogLevel.All))
  return { entries, run }
}


describe("HttpCoreBanking", () => {
  describe("successful answers and the wire format", () => {
    it.scopedLive("openAccount sends the identity with the bearer token and returns the account", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          "POST /accounts",
          always(reply.ok({ accountNumber: ACCOUNT, accountName: "ADA OBI", customerReference: openInput.reference }))
        )
        const account = yield* cb.openAccount(openInput)
        expect(account).toEqual({ accountNumber: ACCOUNT, accountName: "ADA OBI" })
        const [request] = stub.hits("POST /accounts")
        expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`)
        expect(request!.headers["content-type"]).toContain("application/json")
        expect(request!.body).toEqual({
          customerReference: "AABCDEF12345",
          firstName: "Ada",
          lastName: "Obi",
          otherNames: null,
          phone: "+2348031234567",
          email: "ada@example.com",
          dateOfBirth: "1990-01-31",
          gender: "female"
        })
      })))

    it.scopedLive("findAccountByReference: 00 → Some, 25 → None", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          "GET /accounts/by-reference/AKNOWN",
          always(reply.ok({ accountNumber: ACCOUNT, accountName: "ADA OBI", customerReference: "AKNOWN" }))
        )
        stub.route("GET /accounts/by-reference/AUNKNOWN", always(reply.code("25", "Not found")))
        expect(yield* cb.findAccountByReference("AKNOWN")).toEqual(
          Option.some({ accountNumber: ACCOUNT, accountName: "ADA OBI" })
        )
        expect(yield* cb.findAccountByReference("AUNKNOWN")).toEqual(Option.none())
        expect(stub.hits("GET /accounts/by-reference/AUNKNOWN")).toHaveLength(1)
      })))

    it.scopedLive("account maps balances and liens to bigint kobo; 07 → ProviderRefused", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.ok(accountDetails)))
        stub.route("GET /accounts/0000000000", always(reply.code("07", "Invalid account")))
        expect(yield* cb.account(ACCOUNT)).toEqual({
          accountNumber: ACCOUNT,
          accountName: "ADA OBI",
          ledgerBalanceKobo: 500_000n,
          withdrawableBalanceKobo: 300_000n,
          pndActive: true,
          frozen: false,
          liens: [{ reference: "LABCDEF12345", amountKobo: 200_000n }]
        })
        const error = yield* fail(cb.account("0000000000"))
        expect(error).toEqual(new ProviderRefused({ operation: "account", code: "07", reason: "Invalid account" }))
        expect(stub.hits("GET /accounts/0000000000")).toHaveLength(1)
      })))

    it.scopedLive("history maps C/D, kobo and postedAt (ISO string → Date)", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          `GET /accounts/${ACCOUNT}/transactions`,
          always(reply.ok({
            transactions: [
              {
                reference: "NIP000001",
                type: "C",
                amount: 1_000_000,
                narration: "deposit",
                postedAt: "2024-05-01T10:15:30.000Z",
                channel: "nip_inbound",
                counterpartyName: "ADA OBI",
                counterpartyAccountNumber: "1111111111",
                counterpartyBankCode: "000013"
              },
              {
                reference: "DABCDEF12345",
                type: "D",
                amount: 150_000,
                narration: "plan lock",
                postedAt: "2024-05-02T08:00:00.000Z",
                channel: "core_debit",
                counterpartyName: null,
                counterpartyAccountNumber: null,
                counterpartyBankCode: null
              }
            ]
          }))
        )
        const history = yield* cb.history(ACCOUNT)
        expect(history).toEqual([
          {
            reference: "NIP000001",
            direction: "credit",
            amountKobo: 1_000_000n,
            narration: "deposit",
            postedAt: new Date("2024-05-01T10:15:30.000Z"),
            channel: "nip_inbound",
            counterpartyName: "ADA OBI",
            counterpartyAccountNumber: "1111111111",
            counterpartyBankCode: "000013"
          },
          {
            reference: "DABCDEF12345",
            direction: "debit",
            amountKobo: 150_000n,
            narration: "plan lock",
            postedAt: new Date("2024-05-02T08:00:00.000Z"),
            channel: "core_debit",
            counterpartyName: null,
            counterpartyAccountNumber: null,
            counterpartyBankCode: null
          }
        ])
        expect(history[0]!.postedAt).toBeInstanceOf(Date)
      })))

    it.scopedLive("debit and credit send the amount as a JSON number with the retrieval reference", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("POST /transactions/debit", always(reply.ok({})))
        stub.route("POST /transactions/credit", always(reply.ok()))
        yield* cb.debit(posting)
        yield* cb.credit({ ...posting, reference: "CABCDEF12345" })
        const debit = stub.hits("POST /transactions/debit")[0]!
        expect(debit.body).toEqual({
          accountNumber: ACCOUNT,
          amount: 150_000,
          retrievalReference: "DABCDEF12345",
          narration: "plan payout"
        })
        expect(debit.rawBody).toContain("\"amount\":150000")
        expect(debit.headers.authorization).toBe(`Bearer ${TOKEN}`)
        expect(stub.hits("POST /transactions/credit")[0]!.body).toMatchObject({
          amount: 150_000,
          retrievalReference: "CABCDEF12345"
        })
      })))

    it.scopedLive("transfer: 00 → successful, each pending code → pending, 51 → ProviderRefused", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          "POST /nip/transfers",
          sequence(
            reply.ok({}),
            reply.code("01"),
            reply.code("09"),
            reply.code("91"),
            reply.code("97"),
            reply.code("51", "Insufficient funds")
          )
        )
        expect(yield* cb.transfer(transfer)).toBe("successful")
        for (let i = 0; i < 4; i++) expect(yield* cb.transfer(transfer)).toBe("pending")
        const refused = yield* fail(cb.transfer(transfer))
        expect(refused).toEqual(
          new ProviderRefused({ operation: "transfer", code: "51", reason: "Insufficient funds" })
        )
        const hits = stub.hits("POST /nip/transfers")
        expect(hits).toHaveLength(6)
        expect(hits[0]!.body).toEqual({
          transactionReference: "TABCDEF12345",
          amount: 250_000,
          destinationAccountNumber: "9876543210",
          destinationBankCode: "000013",
          destinationAccountName: "ADA OBI",
          nameEnquirySessionId: "000013240101120000123456789012",
          narration: "instalment"
        })
      })))

    it.scopedLive("requery maps Successful/Failed/Pending/Reversed; 25 → not_found; a pending code → pending", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          "GET /transactions/TREF/status",
          sequence(
            reply.ok({ status: "Successful" }),
            reply.ok({ status: "Failed" }),
            reply.ok({ status: "Pending" }),
            reply.ok({ status: "Reversed" }),
            reply.code("25", "Not found"),
            reply.code("09", "In progress")
          )
        )
        const results = []
        for (let i = 0; i < 6; i++) results.push(yield* cb.requery("TREF"))
        expect(results).toEqual(["successful", "failed", "pending", "reversed", "not_found", "pending"])
        expect(stub.hits("GET /transactions/TREF/status")).toHaveLength(6)
      })))

    it.scopedLive("nameEnquiry sends account and bank code as query parameters; 07 → ProviderRefused", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          "GET /nip/name-enquiry",
          sequence(
            reply.ok({ accountName: "ADA OBI", accountNumber: "9876543210", bankCode: "000013", sessionId: "S1" }),
            reply.code("07", "Invalid account")
          )
        )
        expect(yield* cb.nameEnquiry({ accountNumber: "9876543210", bankCode: "000013" })).toEqual({
          accountName: "ADA OBI",
          sessionId: "S1"
        })
        const request = stub.hits("GET /nip/name-enquiry")[0]!
        expect(request.query.get("accountNumber")).toBe("9876543210")
        expect(request.query.get("bankCode")).toBe("000013")
        const error = yield* fail(cb.nameEnquiry({ accountNumber: "9876543211", bankCode: "000013" }))
        expect(error).toEqual(new ProviderRefused({ operation: "nameEnquiry", code: "07", reason: "Invalid account" }))
        expect(stub.hits("GET /nip/name-enquiry")).toHaveLength(2)
      })))

    it.scopedLive("banks maps code and name", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(
          "GET /banks",
          always(reply.ok({ banks: [{ code: "000013", name: "GTBank" }, { code: "000014", name: "Access Bank" }] }))
        )
        expect(yield* cb.banks).toEqual([
          { bankCode: "000013", bankName: "GTBank" },
          { bankCode: "000014", bankName: "Access Bank" }
        ])
      })))

    it.scopedLive("PND, liens, freeze and unfreeze hit their routes with their bodies", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        for (
          const key of [
            `POST /accounts/${ACCOUNT}/pnd/activate`,
            `POST /accounts/${ACCOUNT}/pnd/deactivate`,
            `POST /accounts/${ACCOUNT}/liens`,
            `POST /accounts/${ACCOUNT}/liens/LABCDEF12345/remove`,
            `POST /accounts/${ACCOUNT}/unfreeze`
          ]
        ) stub.route(key, always(reply.ok({})))
        stub.route(`POST /accounts/${ACCOUNT}/freeze`, always(reply.ok({ freezeReference: "FRZ0001" })))
        yield* cb.activatePnd(ACCOUNT)
        yield* cb.deactivatePnd(ACCOUNT)
        yield* cb.placeLien({ accountNumber: ACCOUNT, reference: "LABCDEF12345", amountKobo: 200_000n })
        yield* cb.removeLien({ accountNumber: ACCOUNT, reference: "LABCDEF12345" })
        expect(yield* cb.freeze({ accountNumber: ACCOUNT, reason: "fraud review" })).toEqual({
          freezeReference: "FRZ0001"
        })
        yield* cb.unfreeze({ accountNumber: ACCOUNT, freezeReference: "FRZ0001" })
        expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /accounts/${ACCOUNT}/pnd/activate`,
          `POST /accounts/${ACCOUNT}/pnd/deactivate`,
          `POST /accounts/${ACCOUNT}/liens`,
          `POST /accounts/${ACCOUNT}/liens/LABCDEF12345/remove`,
          `POST /accounts/${ACCOUNT}/freeze`,
          `POST /accounts/${ACCOUNT}/unfreeze`
        ])
        expect(stub.hits(`POST /accounts/${ACCOUNT}/liens`)[0]!.body).toMatchObject({
          reference: "LABCDEF12345",
          amount: 200_000
        })
        expect(stub.hits(`POST /accounts/${ACCOUNT}/freeze`)[0]!.body).toEqual({ reason: "fraud review" })
        expect(stub.hits(`POST /accounts/${ACCOUNT}/unfreeze`)[0]!.body).toEqual({ freezeReference: "FRZ0001" })
        expect(stub.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true)
      })))

    it.scopedLive("TestFunding.deposit posts accountNumber and amountKobo as a number", () =>
      withClient(Effect.gen(function*() {
        const { funding, stub } = yield* setup()
        stub.route("POST /sandbox/deposits", always(reply.ok({ reference: "NIP0000001" })))
        yield* funding.deposit({ accountNumber: ACCOUNT, amountKobo: 5_000_000n })
        expect(stub.hits("POST /sandbox/deposits")[0]!.body).toEqual({ accountNumber: ACCOUNT, amountKobo: 5_000_000 })
      })))

    it.scopedLive("layer provides CoreBanking and TestFunding", () =>
      Effect.gen(function*() {
        const stub = yield* makeStubBank
        stub.route("GET /banks", always(reply.ok({ banks: [] })))
        stub.route("POST /sandbox/deposits", always(reply.ok({ reference: "R" })))
        yield* Effect.gen(function*() {
          const cb = yield* CoreBanking
          const funding = yield* TestFunding
          expect(yield* cb.banks).toEqual([])
          yield* funding.deposit({ accountNumber: ACCOUNT, amountKobo: 1n })
        }).pipe(Effect.provide(layer(options(stub.url))))
        expect(stub.requests).toHaveLength(2)
      }))

    it.scopedLive("a base URL with a path: every route goes under it", () =>
      withClient(Effect.gen(function*() {
        const stub = yield* makeStubBank
        stub.route("GET /provider/v1/banks", always(reply.ok({ banks: [{ code: "000014", name: "Access Bank" }] })))
        const { coreBanking } = yield* makeHttpCoreBanking(options(`${stub.url}/provider/v1/`))
        expect(yield* coreBanking.banks).toEqual([{ bankCode: "000014", bankName: "Access Bank" }])
        expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /provider/v1/banks"])
      })))

    it.scopedLive("a base URL that is not an http(s) URL: every call is ProviderMisconfigured", () =>
      withClient(Effect.gen(function*() {
        for (const baseUrl of ["not a url", "ftp://127.0.0.1/"]) {
          const { coreBanking } = yield* makeHttpCoreBanking(options(baseUrl))
          const error = yield* fail(coreBanking.account(ACCOUNT))
          expectTag(error, "ProviderMisconfigured")
          expect(error._tag === "ProviderMisconfigured" && error.detail).toBe("the provider URL is invalid")
        }
      })))

    it.scopedLive("wrapSend sees every attempt's request: its method and path, and nothing else (no header, no token)", () =>
      withClient(Effect.gen(function*() {
        const stub = yield* makeStubBank
        stub.route(`GET /accounts/${ACCOUNT}`, sequence(reply.status(503), reply.ok(accountDetails)))
        const seen: Array<{ readonly request: WireRequest; readonly timeoutMs: number }> = []
        const { coreBanking } = yield* makeHttpCoreBanking(options(stub.url, {
          wrapSend: (send) => (request, timeoutMs) => {
            seen.push({ request, timeoutMs })
            return send(request, timeoutMs)
          }
        }))
        yield* coreBanking.account(ACCOUNT)
        const attempt = { request: { method: "GET", path: `/accounts/${ACCOUNT}` }, timeoutMs: TIMEOUT_MS }
        expect(seen).toStrictEqual([attempt, attempt])
      })))
  })

  describe("refusals, pending answers and malformed answers", () => {
    it.scopedLive("a pending code on a write other than transfer is ProviderUnknownOutcome (requery), not retried", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("POST /transactions/debit", always(reply.code("09", "In progress")))
        stub.route(`POST /accounts/${ACCOUNT}/liens`, always(reply.code("01")))
        stub.route("POST /accounts", always(reply.code("91")))
        expectTag(yield* fail(cb.debit(posting)), "ProviderUnknownOutcome")
        expectTag(
          yield* fail(cb.placeLien({ accountNumber: ACCOUNT, reference: "L1", amountKobo: 1n })),
          "ProviderUnknownOutcome"
        )
        expectTag(yield* fail(cb.openAccount(openInput)), "ProviderUnknownOutcome")
        expect(stub.requests).toHaveLength(3)
      })))

    it.scopedLive("a pending code on a read is retried, then ProviderUnknownOutcome", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.code("91", "Switch inoperative")))
        expectTag(yield* fail(cb.account(ACCOUNT)), "ProviderUnknownOutcome")
        expect(stub.hits(`GET /accounts/${ACCOUNT}`)).toHaveLength(3)
      })))

    it.scopedLive("no retry after a definite refusal, for reads and deduplicated writes", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("POST /transactions/debit", always(reply.code("51", "Insufficient funds")))
        stub.route("POST /transactions/credit", always(reply.code("57", "Not permitted")))
        stub.route(`GET /accounts/${ACCOUNT}/transactions`, always(reply.code("07", "Invalid account")))
        stub.route(`GET /bvn/${BVN}`, always(reply.code("57", "Not permitted")))
        expect(yield* fail(cb.debit(posting))).toEqual(
          new ProviderRefused({ operation: "debit", code: "51", reason: "Insufficient funds" })
        )
        expect(yield* fail(cb.credit(posting))).toEqual(
          new ProviderRefused({ operation: "credit", code: "57", reason: "Not permitted" })
        )
        expect(yield* fail(cb.history(ACCOUNT))).toEqual(
          new ProviderRefused({ operation: "history", code: "07", reason: "Invalid account" })
        )
        expect(yield* fail(cb.bvnLookup(BVN))).toEqual(
          new ProviderRefused({ operation: "bvnLookup", code: "57", reason: "Not permitted" })
        )
        expect(stub.requests).toHaveLength(4)
      })))

    it.scopedLive("HTTP 401 and 403 → ProviderMisconfigured, never retried", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("GET /banks", always(reply.status(401, { error: "unauthorized" })))
        stub.route("POST /transactions/debit", always(reply.status(403)))
        const banks = yield* fail(cb.banks)
        expect(banks).toBeInstanceOf(ProviderMisconfigured)
        expect(banks).toMatchObject({ operation: "banks" })
        expect((banks as ProviderMisconfigured).detail).not.toContain(TOKEN)
        expect(yield* fail(cb.debit(posting))).toBeInstanceOf(ProviderMisconfigured)
        expect(stub.requests).toHaveLength(2)
      })))

    it.scopedLive("HTTP 404 is ProviderMisconfigured even with a 25 envelope (never 'not found'); 400 + envelope is a refusal", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        expectTag(yield* fail(cb.account(ACCOUNT)), "ProviderMisconfigured") // no route: plain-text 404
        stub.route(
          "GET /accounts/by-reference/AREF",
          always(reply.status(404, { responseCode: "25", responseMessage: "No such route" }))
        )
        stub.route("GET /transactions/TREF/status", always(reply.status(404, { responseCode: "25", responseMessage: "x" })))
        stub.route("POST /transactions/debit", always(reply.status(400, { responseCode: "26", responseMessage: "Bad" })))
        stub.route("POST /transactions/credit", always(reply.status(400, { responseCode: "00", responseMessage: "?" })))
        expectTag(yield* fail(cb.findAccountByReference("AREF")), "ProviderMisconfigured")
        expectTag(yield* fail(cb.requery("TREF")), "ProviderMisconfigured")
        expect(yield* fail(cb.debit(posting))).toEqual(
          new ProviderRefused({ operation: "debit", code: "26", reason: "Bad" })
        )
        expectTag(yield* fail(cb.credit(posting)), "ProviderMisconfigured")
        expect(stub.requests).toHaveLength(5)
      })))

    it.scopedLive("malformed JSON is ProviderUnknownOutcome (not a defect) for reads and writes, not retried", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("GET /banks", always(reply.text("{not json")))
        stub.route("POST /transactions/debit", always(reply.text("<html>ok</html>")))
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.status(200, { code: "00" })))
        const exit = yield* Effect.exit(cb.banks)
        expect(exit._tag).toBe("Failure")
        expectTag(yield* fail(cb.banks), "ProviderUnknownOutcome")
        expectTag(yield* fail(cb.debit(posting)), "ProviderUnknownOutcome")
        expectTag(yield* fail(cb.account(ACCOUNT)), "ProviderUnknownOutcome")
        expect(stub.hits("GET /banks")).toHaveLength(2)
        expect(stub.hits("POST /transactions/debit")).toHaveLength(1)
        expect(stub.hits(`GET /accounts/${ACCOUNT}`)).toHaveLength(1)
      })))

    it.scopedLive("a 00 answer whose data does not decode is ProviderUnknownOutcome", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.ok({ ...accountDetails, ledgerBalance: "500000" })))
        stub.route("POST /accounts", always(reply.ok()))
        stub.route("GET /transactions/TREF/status", always(reply.ok({ status: "Done" })))
        stub.route(
          `GET /accounts/${ACCOUNT}/transactions`,
          always(reply.ok({
            transactions: [{
              reference: "R",
              type: "C",
              amount: 1,
              narration: "",
              postedAt: "not a date",
              channel: "nip_inbound",
              counterpartyName: null,
              counterpartyAccountNumber: null,
              counterpartyBankCode: null
            }]
          }))
        )
        stub.route(`GET /bvn/${BVN}`, always(reply.ok({ bvn: BVN, firstName: "Ada" })))
        for (
          const error of [
            yield* fail(cb.account(ACCOUNT)),
            yield* fail(cb.openAccount(openInput)),
            yield* fail(cb.requery("TREF")),
            yield* fail(cb.history(ACCOUNT)),
            yield* fail(cb.bvnLookup(BVN))
          ]
        ) {
          expectTag(error, "ProviderUnknownOutcome")
          expect((error as ProviderUnknownOutcome).detail).not.toContain("Ada")
        }
      })))

    it.scopedLive("a duplicate answer (94) to ANY write, first attempt or retry, is ProviderUnknownOutcome, not re-sent", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        // after a 5xx, the retry's 94 is unknown (our first attempt may have landed)
        stub.route("POST /transactions/debit", sequence(reply.status(502), reply.code("94", "Duplicate")))
        expectTag(yield* fail(cb.debit(posting)), "ProviderUnknownOutcome")
        expect(stub.hits("POST /transactions/debit")).toHaveLength(2)
        // and so is a 94 to a first attempt
        const writes: ReadonlyArray<[string, Effect.Effect<unknown, CoreBankingError>]> = [
          ["POST /transactions/debit", cb.debit(posting)],
          ["POST /transactions/credit", cb.credit({ ...posting, reference: "CABCDEF12345" })],
          ["POST /nip/transfers", cb.transfer(transfer)],
          [`POST /accounts/${ACCOUNT}/liens`, cb.placeLien({ accountNumber: ACCOUNT, reference: "L1", amountKobo: 5n })]
        ]
        for (const [key, call] of writes) {
          stub.route(key, always(reply.code("94", "Duplicate transaction")))
          const before = stub.hits(key).length
          const error = yield* fail(call)
          expect([key, error._tag]).toEqual([key, "ProviderUnknownOutcome"])
          expect((error as ProviderUnknownOutcome).detail).toContain("requery")
          expect([key, stub.hits(key).length - before]).toEqual([key, 1])
        }
        // a 94 to a read is still a refusal
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.code("94", "Duplicate")))
        expect(yield* fail(cb.account(ACCOUNT))).toEqual(new ProviderRefused({ operation: "account", code: "94", reason: "Duplicate" }))
      })))

    it.scopedLive("an ambiguous answer (96, 06, 68) to a write is ProviderUnknownOutcome at once: never re-sent blindly", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        for (const code of ["96", "06", "68"]) {
          const writes: ReadonlyArray<[string, Effect.Effect<unknown, CoreBankingError>]> = [
            ["POST /transactions/debit", cb.debit(posting)],
            ["POST /transactions/credit", cb.credit(posting)],
            ["POST /nip/transfers", cb.transfer(transfer)],
            [`POST /accounts/${ACCOUNT}/liens`, cb.placeLien({ accountNumber: ACCOUNT, reference: "L1", amountKobo: 5n })],
            [`POST /accounts/${ACCOUNT}/freeze`, cb.freeze({ accountNumber: ACCOUNT, reason: "r" })]
          ]
          for (const [key, call] of writes) {
            stub.route(key, always(reply.code(code, "System malfunction")))
            const before = stub.hits(key).length
            const error = yield* fail(call)
            expect([code, key, error._tag]).toEqual([code, key, "ProviderUnknownOutcome"])
            expect((error as ProviderUnknownOutcome).detail).toContain(`"${code}"`)
            expect([code, key, stub.hits(key).length - before]).toEqual([code, key, 1])
          }
        }
      })))

    it.scopedLive("an ambiguous answer (96, 06, 68) to a read is retried like a transient failure", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("GET /transactions/TREF/status", sequence(reply.code("96"), reply.code("68"), reply.ok({ status: "Successful" })))
        expect(yield* cb.requery("TREF")).toBe("successful")
        expect(stub.hits("GET /transactions/TREF/status")).toHaveLength(3)
        stub.route(`GET /accounts/${ACCOUNT}`, sequence(reply.code("06", "Error"), reply.ok(accountDetails)))
        expect((yield* cb.account(ACCOUNT)).ledgerBalanceKobo).toBe(500_000n)
        expect(stub.hits(`GET /accounts/${ACCOUNT}`)).toHaveLength(2)
        // never anything but ambiguous: unknown once the attempts run out, never a refusal
        stub.route("GET /banks", always(reply.code("96", "System malfunction")))
        const error = yield* fail(cb.banks)
        expectTag(error, "ProviderUnknownOutcome")
        expect((error as ProviderUnknownOutcome).detail).toContain("(3 attempts)")
        expect(stub.hits("GET /banks")).toHaveLength(3)
      })))

    it.scopedLive("a 4xx whose envelope says 94, 96, 06 or 68 is not a refusal (off-protocol: misconfigured)", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        for (const code of ["94", "96", "06", "68"]) {
          stub.route("POST /transactions/debit", always(reply.status(400, { responseCode: code, responseMessage: "x" })))
          expect([code, (yield* fail(cb.debit(posting)))._tag]).toEqual([code, "ProviderMisconfigured"])
        }
      })))

    it.scopedLive("references over 12 characters and unsendable amounts are refused with 26 before sending", () =>
      withClient(Effect.gen(function*() {
        const { cb, funding, stub } = yield* setup()
        const tooLong = "ABCDEFGHIJKLM"
        const errors = [
          yield* fail(cb.debit({ ...posting, reference: tooLong })),
          yield* fail(cb.credit({ ...posting, amountKobo: BigInt(Number.MAX_SAFE_INTEGER) + 1n })),
          yield* fail(cb.debit({ ...posting, amountKobo: -1n })),
          yield* fail(cb.transfer({ ...transfer, reference: tooLong })),
          yield* fail(cb.transfer({ ...transfer, amountKobo: 2n ** 64n })),
          yield* fail(cb.openAccount({ ...openInput, reference: tooLong })),
          yield* fail(cb.placeLien({ accountNumber: ACCOUNT, reference: tooLong, amountKobo: 1n })),
          yield* fail(cb.removeLien({ accountNumber: ACCOUNT, reference: tooLong })),
          yield* fail(cb.requery(tooLong)),
          yield* fail(cb.findAccountByReference(tooLong)),
          yield* fail(funding.deposit({ accountNumber: ACCOUNT, amountKobo: BigInt(Number.MAX_SAFE_INTEGER) + 1n }))
        ]
        for (const error of errors) {
          expect(error).toBeInstanceOf(ProviderRefused)
          expect((error as ProviderRefused).code).toBe("26")
        }
        expect(stub.requests).toHaveLength(0)
        // the largest safe amount is sent as is
        stub.route("POST /transactions/credit", always(reply.ok({})))
        yield* cb.credit({ ...posting, amountKobo: BigInt(Number.MAX_SAFE_INTEGER) })
        expect(stub.hits("POST /transactions/credit")[0]!.body).toMatchObject({ amount: Number.MAX_SAFE_INTEGER })
      })))
  })

  describe("transient failures and retries", () => {
    it.scopedLive("a 5xx on a read is retried up to maxAttempts, then ProviderUnknownOutcome", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup({ maxAttempts: 4 })
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.status(503)))
        const error = yield* fail(cb.account(ACCOUNT))
        expectTag(error, "ProviderUnknownOutcome")
        expect((error as ProviderUnknownOutcome).detail).toContain("HTTP 503")
        expect(stub.hits(`GET /accounts/${ACCOUNT}`)).toHaveLength(4)
      })))

    it.scopedLive("attempts are spaced by an exponential backoff from retryBaseDelayMs, jittered ×0.8 to ×1.2, capped at 2 s", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup({ maxAttempts: 4, retryBaseDelayMs: 1_000 })
        const arrivals: Array<number> = []
        stub.route(`GET /accounts/${ACCOUNT}`, () => {
          arrivals.push(performance.now())
          return reply.status(503)
        })
        expectTag(yield* fail(cb.account(ACCOUNT)), "ProviderUnknownOutcome")
        expect(arrivals).toHaveLength(4)
        const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!)
        // 1 s, 2 s, then 2 s again (4 s uncapped), each ×0.8 to ×1.2; a sleep never ends early, and
        // the round trip to the stub adds a little
        const SLACK = 400
        expect(gaps[0]).toBeGreaterThanOrEqual(800 - 2)
        expect(gaps[0]).toBeLessThan(1_200 + SLACK)
        expect(gaps[1]).toBeGreaterThanOrEqual(1_600 - 2)
        expect(gaps[1]).toBeLessThan(2_400 + SLACK)
        expect(gaps[2]).toBeGreaterThanOrEqual(1_600 - 2)
        expect(gaps[2]).toBeLessThan(2_400 + SLACK)
      })), 20_000)

    it.scopedLive("a read recovers when a retry succeeds", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("GET /banks", sequence(reply.status(500), reply.status(502), reply.ok({ banks: [] })))
        expect(yield* cb.banks).toEqual([])
        expect(stub.hits("GET /banks")).toHaveLength(3)
      })))

    it.scopedLive("every GET and every deduplicated write is retried after a 5xx", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        const okAccount = { accountNumber: ACCOUNT, accountName: "ADA OBI", customerReference: "AABCDEF12345" }
        const cases: ReadonlyArray<[string, unknown, Effect.Effect<unknown, CoreBankingError>]> = [
          ["POST /accounts", okAccount, cb.openAccount(openInput)],
          ["GET /accounts/by-reference/AREF", okAccount, cb.findAccountByReference("AREF")],
          [`GET /accounts/${ACCOUNT}`, accountDetails, cb.account(ACCOUNT)],
          [`GET /accounts/${ACCOUNT}/transactions`, { transactions: [] }, cb.history(ACCOUNT)],
          [`POST /accounts/${ACCOUNT}/pnd/activate`, {}, cb.activatePnd(ACCOUNT)],
          [`POST /accounts/${ACCOUNT}/pnd/deactivate`, {}, cb.deactivatePnd(ACCOUNT)],
          [
            `POST /accounts/${ACCOUNT}/liens`,
            {},
            cb.placeLien({ accountNumber: ACCOUNT, reference: "L1", amountKobo: 5n })
          ],
          [`POST /accounts/${ACCOUNT}/liens/L1/remove`, {}, cb.removeLien({ accountNumber: ACCOUNT, reference: "L1" })],
          ["POST /transactions/debit", {}, cb.debit(posting)],
          ["POST /transactions/credit", {}, cb.credit(posting)],
          [
            "GET /nip/name-enquiry",
            { accountName: "A", accountNumber: "1", bankCode: "2", sessionId: "3" },
            cb.nameEnquiry({ accountNumber: "1", bankCode: "2" })
          ],
          ["POST /nip/transfers", {}, cb.transfer(transfer)],
          ["GET /transactions/TREF/status", { status: "Successful" }, cb.requery("TREF")],
          [`GET /bvn/${BVN}`, { bvn: BVN, firstName: "A", lastName: "B", phone: "C", dateOfBirth: "D" }, cb.bvnLookup(BVN)],
          ["GET /banks", { banks: [] }, cb.banks]
        ]
        for (const [key, data, call] of cases) {
          stub.route(key, sequence(reply.status(503), reply.ok(data)))
          const result = yield* Effect.either(call)
          expect([key, Either.isRight(result)]).toEqual([key, true])
          expect([key, stub.hits(key).length]).toEqual([key, 2])
        }
      })))

    it.scopedLive("freeze, unfreeze and deposit are never retried: a 5xx is ProviderUnknownOutcome after one attempt", () =>
      withClient(Effect.gen(function*() {
        const { cb, funding, stub } = yield* setup()
        stub.route(`POST /accounts/${ACCOUNT}/freeze`, always(reply.status(500)))
        stub.route(`POST /accounts/${ACCOUNT}/unfreeze`, always(reply.status(502)))
        stub.route("POST /sandbox/deposits", always(reply.status(503)))
        expectTag(yield* fail(cb.freeze({ accountNumber: ACCOUNT, reason: "r" })), "ProviderUnknownOutcome")
        expectTag(yield* fail(cb.unfreeze({ accountNumber: ACCOUNT, freezeReference: "F1" })), "ProviderUnknownOutcome")
        expectTag(yield* fail(funding.deposit({ accountNumber: ACCOUNT, amountKobo: 1n })), "ProviderUnknownOutcome")
        expect(stub.hits(`POST /accounts/${ACCOUNT}/freeze`)).toHaveLength(1)
        expect(stub.hits(`POST /accounts/${ACCOUNT}/unfreeze`)).toHaveLength(1)
        expect(stub.hits("POST /sandbox/deposits")).toHaveLength(1)
      })))

    it.scopedLive("a debit that times out is ProviderUnknownOutcome after ONE timeout: timeouts are not retried", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("POST /transactions/debit", always(reply.delayed(1_000, reply.ok({}))))
        const started = Date.now()
        const error = yield* fail(cb.debit(posting))
        expectTag(error, "ProviderUnknownOutcome")
        expect((error as ProviderUnknownOutcome).detail).toContain(`no answer within ${TIMEOUT_MS} ms`)
        const hits = stub.hits("POST /transactions/debit")
        expect(hits).toHaveLength(1)
        expect((hits[0]!.body as { retrievalReference: string }).retrievalReference).toBe("DABCDEF12345")
        // CORE_BANKING_TIMEOUT_MS bounds the whole wait for one call
        expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 2)
      })))

    it.scopedLive("a transfer that times out is unknown, not retried; its outcome is for a later requery", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("POST /nip/transfers", sequence(reply.delayed(1_000, reply.ok({})), reply.ok({})))
        expectTag(yield* fail(cb.transfer(transfer)), "ProviderUnknownOutcome")
        expect(stub.hits("POST /nip/transfers")).toHaveLength(1)
      })))

    it.scopedLive("a transfer whose first attempt fails with 503 is retried with the same reference", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route("POST /nip/transfers", sequence(reply.status(503), reply.ok({})))
        expect(yield* cb.transfer(transfer)).toBe("successful")
        const hits = stub.hits("POST /nip/transfers")
        expect(hits).toHaveLength(2)
        expect(hits.map((h) => (h.body as { transactionReference: string }).transactionReference)).toEqual([
          transfer.reference,
          transfer.reference
        ])
      })))

    it.scopedLive("a freeze that times out is ProviderUnknownOutcome after exactly one attempt", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(`POST /accounts/${ACCOUNT}/freeze`, always(reply.delayed(1_000, reply.ok({ freezeReference: "F" }))))
        const error = yield* fail(cb.freeze({ accountNumber: ACCOUNT, reason: "r" }))
        expectTag(error, "ProviderUnknownOutcome")
        expect(stub.hits(`POST /accounts/${ACCOUNT}/freeze`)).toHaveLength(1)
      })))

    it.scopedLive("a destroyed connection: a read is retried then ProviderUnknownOutcome; a freeze is not retried", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.destroy()))
        stub.route(`POST /accounts/${ACCOUNT}/freeze`, always(reply.destroy()))
        stub.route("GET /banks", sequence(reply.destroy(), reply.ok({ banks: [] })))
        const read = yield* fail(cb.account(ACCOUNT))
        expectTag(read, "ProviderUnknownOutcome")
        expect((read as ProviderUnknownOutcome).detail).toContain("connection failed")
        expect(stub.hits(`GET /accounts/${ACCOUNT}`)).toHaveLength(3)
        expectTag(yield* fail(cb.freeze({ accountNumber: ACCOUNT, reason: "r" })), "ProviderUnknownOutcome")
        expect(stub.hits(`POST /accounts/${ACCOUNT}/freeze`)).toHaveLength(1)
        expect(yield* cb.banks).toEqual([])
      })))

    it.scopedLive("connection refused → ProviderUnknownOutcome (a read after maxAttempts)", () =>
      withClient(Effect.gen(function*() {
        const port = yield* closedPort
        const { coreBanking: cb } = yield* makeHttpCoreBanking(options(`http://127.0.0.1:${port}`))
        const logs = captureLogs()
        const read = yield* logs.run(fail(cb.banks))
        expectTag(read, "ProviderUnknownOutcome")
        expect((read as ProviderUnknownOutcome).detail).toMatch(/connection failed.*3 attempts/)
        expect(logs.entries.filter((e) => e.message === "core banking attempt failed")).toHaveLength(3)
        const write = yield* logs.run(fail(cb.freeze({ accountNumber: ACCOUNT, reason: "r" })))
        expectTag(write, "ProviderUnknownOutcome")
        expect((write as ProviderUnknownOutcome).detail).toContain("1 attempt")
      })))
  })

  describe("concurrency and observability", () => {
    it.scopedLive("with maxConcurrency 2, 10 parallel calls never have more than 2 in flight", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup({ maxConcurrency: 2 })
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.delayed(30, reply.ok(accountDetails))))
        stub.route("POST /transactions/debit", always(reply.delayed(30, reply.ok({}))))
        yield* Effect.all(
          Array.from({ length: 10 }, (_, i) => i % 2 === 0 ? cb.account(ACCOUNT) : cb.debit(posting)),
          { concurrency: "unbounded" }
        )
        expect(stub.requests).toHaveLength(10)
        expect(stub.maxInFlight()).toBe(2)
      })))

    it.scopedLive("with maxConcurrency 1, calls that time out give their permit back: the calls queued behind them are answered", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup({ maxConcurrency: 1 })
        stub.route("POST /transactions/debit", always(reply.delayed(1_000, reply.ok({}))))
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.ok(accountDetails)))
        // two hanging debits take the one permit in turn; the enquiry waits behind both
        const started = Date.now()
        const [first, second, enquiry] = yield* Effect.all(
          [Effect.either(cb.debit(posting)), Effect.either(cb.debit(posting)), cb.account(ACCOUNT)],
          { concurrency: "unbounded" }
        )
        expect(Either.isLeft(first) && first.left._tag).toBe("ProviderUnknownOutcome")
        expect(Either.isLeft(second) && second.left._tag).toBe("ProviderUnknownOutcome")
        expect(enquiry.accountNumber).toBe(ACCOUNT)
        // one after the other: each debit held the permit until its own timeout (the stub itself
        // still holds the abandoned requests, so its in-flight count cannot tell)
        expect(stub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          "POST /transactions/debit",
          "POST /transactions/debit",
          `GET /accounts/${ACCOUNT}`
        ])
        expect(Date.now() - started).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 5)
      })))

    it.scopedLive("an interrupted call abandons its request at once and gives its permit back", () =>
      withClient(Effect.gen(function*() {
        // a timeout far beyond the test: only the interruption can end the first call
        const { cb, stub } = yield* setup({ maxConcurrency: 1, timeoutMs: 30_000 })
        stub.route("POST /transactions/debit", always(reply.delayed(20_000, reply.ok({}))))
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.ok(accountDetails)))
        const hanging = yield* Effect.fork(cb.debit(posting))
        yield* waitUntil(() => stub.inFlight() === 1)
        const started = Date.now()
        yield* Fiber.interrupt(hanging)
        // the connection is closed, so the bank sees the request abandoned
        yield* waitUntil(() => stub.inFlight() === 0)
        expect((yield* cb.account(ACCOUNT)).accountNumber).toBe(ACCOUNT)
        expect(Date.now() - started).toBeLessThan(5_000)
      })))

    it.scopedLive("without the limit the same load has more than 2 in flight (the stub can tell)", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup({ maxConcurrency: 10 })
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.delayed(50, reply.ok(accountDetails))))
        yield* Effect.all(Array.from({ length: 10 }, () => cb.account(ACCOUNT)), { concurrency: "unbounded" })
        expect(stub.maxInFlight()).toBeGreaterThan(2)
      })))

    it.scopedLive("a span CoreBanking.<operation> per call with operation, reference and attempt", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        const tracing = yield* captureSpans
        stub.route("POST /transactions/debit", sequence(reply.status(503), reply.ok({})))
        stub.route(`GET /accounts/${ACCOUNT}`, always(reply.ok(accountDetails)))
        yield* tracing.run(cb.debit(posting))
        yield* tracing.run(cb.account(ACCOUNT))
        const debit = tracing.spans.find((s) => s.name === "CoreBanking.debit")!
        expect(debit.attributes.get("operation")).toBe("debit")
        expect(debit.attributes.get("reference")).toBe("DABCDEF12345")
        expect(debit.attributes.get("attempt")).toBe(2)
        expect(debit.attributes.get("outcome")).toBe("ok")
        // the first attempt's warning is an event of the call's span (Effect's tracer logger)
        const events = (debit as unknown as { readonly events: ReadonlyArray<readonly [string, bigint, unknown]> }).events
        expect(events.map(([name]) => name)).toContain("core banking attempt failed")
        const account = tracing.spans.find((s) => s.name === "CoreBanking.account")!
        expect(account.attributes.get("attempt")).toBe(1)
        for (const span of tracing.spans) {
          for (const value of span.attributes.values()) expect(String(value)).not.toContain(TOKEN)
        }
      })))

    it.scopedLive("bvnLookup: 00 → Some, 25 → None; the BVN and identity never reach spans or logs", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        const tracing = yield* captureSpans
        const logs = captureLogs()
        stub.route(
          `GET /bvn/${BVN}`,
          sequence(
            reply.status(500),
            reply.ok({ bvn: BVN, firstName: "Chiamaka", lastName: "Okonkwo", phone: "08031234567", dateOfBirth: "1991-02-03" })
          )
        )
        stub.route("GET /bvn/22200000000", always(reply.code("25", "BVN not found")))
        const found = yield* logs.run(tracing.run(cb.bvnLookup(BVN)))
        expect(found).toEqual(
          Option.some({ firstName: "Chiamaka", lastName: "Okonkwo", phone: "08031234567", dateOfBirth: "1991-02-03" })
        )
        expect(yield* logs.run(tracing.run(cb.bvnLookup("22200000000")))).toEqual(Option.none())
        expect(stub.hits(`GET /bvn/${BVN}`)).toHaveLength(2)
        const spanDump = JSON.stringify(
          tracing.spans.map((s) => ({ name: s.name, attributes: Object.fromEntries(s.attributes) }))
        )
        expect(spanDump).toContain("CoreBanking.bvnLookup")
        const logDump = JSON.stringify(logs.entries)
        expect(logDump).toContain("core banking attempt failed")
        for (const secret of [BVN, "22200000000", "Chiamaka", "Okonkwo", "08031234567", TOKEN]) {
          expect(spanDump).not.toContain(secret)
          expect(logDump).not.toContain(secret)
        }
      })))

    it.scopedLive("logs at debug and warning carry operation, reference and attempt, never the token or personal data", () =>
      withClient(Effect.gen(function*() {
        const { cb, stub } = yield* setup()
        const logs = captureLogs()
        stub.route("POST /accounts", sequence(reply.status(503), reply.ok({
          accountNumber: ACCOUNT,
          accountName: "ADA OBI",
          customerReference: openInput.reference
        })))
        stub.route("GET /banks", always(reply.status(401)))
        yield* logs.run(cb.openAccount(openInput))
        yield* logs.run(Effect.either(cb.banks))
        const levels = new Set(logs.entries.map((e) => e.level))
        expect(levels).toContain("DEBUG")
        expect(levels).toContain("WARN")
        const warning = logs.entries.find((e) => e.message === "core banking attempt failed")!
        expect(warning.annotations).toMatchObject({ operation: "openAccount", reference: "AABCDEF12345", attempt: 1 })
        expect(logs.entries.some((e) => e.message === "core banking provider misconfigured")).toBe(true)
        const dump = JSON.stringify(logs.entries)
        for (const secret of [TOKEN, "Bearer", "ada@example.com", "+2348031234567", "ADA OBI", "Obi", "1990-01-31"]) {
          expect(dump).not.toContain(secret)
        }
      })))
  })
})
