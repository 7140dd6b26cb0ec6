/**
 * BankOne's quirks, each handled on purpose (docs/bankone.md): amounts converted exactly (kobo
 * strings, naira liens, decimal-naira balances read without a float, sub-kobo refused); the answers'
 * flags and words mapped onto the port's outcomes with every ambiguous answer unknown, never a
 * refusal; liens attributed from the balances; the TSQ escalation count; the transport's retries
 * (the generic transport's policy); and the BANKONE_* settings validated at start-up (production
 * refuses an incomplete set).
 */
import { loadAppConfig } from "@app/adapters/AppConfig"
import { attributeLiens } from "@app/adapters/corebanking/bankone/BankOneAccount"
import { memoryJournal } from "@app/adapters/corebanking/bankone/BankOneJournal"
import { koboFromText, koboString, nairaString, nairaToKobo, quoteNumbers } from "@app/adapters/corebanking/bankone/BankOneMoney"
import * as Outcomes from "@app/adapters/corebanking/bankone/BankOneOutcomes"
import { makeBankOneTransport } from "@app/adapters/corebanking/bankone/BankOneTransport"
import { Transient } from "@app/adapters/corebanking/Sender"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, Fiber, Redacted, TestClock } from "effect"

describe("amounts", () => {
  it("postings and transfers send kobo as a string; liens send naira with two decimals", () => {
    expect(koboString(250_000n)).toEqual({ ok: true, value: "250000" })
    expect(nairaString(250_050n)).toEqual({ ok: true, value: "2500.50" })
    expect(nairaString(5n)).toEqual({ ok: true, value: "0.05" })
    expect(nairaString(100n)).toEqual({ ok: true, value: "1.00" })
    expect(koboString(0n).ok).toBe(false)
    expect(nairaString(-1n).ok).toBe(false)
    expect(koboString(10n ** 19n).ok).toBe(false)
  })

  it("decimal naira balances become kobo exactly, beyond a double's precision", () => {
    expect(nairaToKobo("11487166.9400")).toEqual({ ok: true, kobo: 1_148_716_694n })
    expect(nairaToKobo("0.1")).toEqual({ ok: true, kobo: 10n })
    expect(nairaToKobo("-5")).toEqual({ ok: true, kobo: -500n })
    // 2^53 + 1 kobo: a float would round it
    expect(nairaToKobo("90071992547409.93")).toEqual({ ok: true, kobo: 9_007_199_254_740_993n })
  })

  it("a sub-kobo balance, an exponent or garbage is refused, never rounded", () => {
    // the documentation's own example balance: 1148716694.20 kobo
    expect(nairaToKobo("11487166.9420")).toEqual({ ok: false, reason: "sub-kobo amount" })
    expect(nairaToKobo("0.001")).toEqual({ ok: false, reason: "sub-kobo amount" })
    expect(nairaToKobo("1e3").ok).toBe(false)
    expect(nairaToKobo("12,000.00").ok).toBe(false)
    expect(koboFromText("100.5").ok).toBe(false)
    expect(koboFromText("250000.00")).toEqual({ ok: true, kobo: 250_000n })
  })

  it("amount literals are quoted before JSON.parse, so their digits survive", () => {
    const text = '{"LedgerBalance": 90071992547409.93,"AvailableBalance":-0.5,"Name":"x","LienStatus":null}'
    const parsed = JSON.parse(quoteNumbers(text, ["LedgerBalance", "AvailableBalance"]))
    expect(parsed).toEqual({ LedgerBalance: "90071992547409.93", AvailableBalance: "-0.5", Name: "x", LienStatus: null })
  })
})

describe("outcomes: success only when every flag agrees; refusals only on listed codes; the rest unknown", () => {
  const posting = (IsSuccessful: boolean | null | undefined, ResponseCode: string | null) =>
    Outcomes.postingOutcome({ IsSuccessful, ResponseCode, ResponseMessage: "m" })._tag

  it("postings (IsSuccessful and ResponseCode)", () => {
    expect(posting(true, "00")).toBe("Done")
    expect(posting(false, "51")).toBe("Refused")
    expect(posting(false, "57")).toBe("Refused")
    // ambiguous: never a refusal
    for (const code of ["91", "96", "06", "09", "26", "94", "99", "", null]) expect(posting(false, code), String(code)).toBe("Unknown")
    expect(posting(true, "51")).toBe("Unknown")
    expect(posting(false, "00")).toBe("Unknown")
    expect(posting(undefined, "00")).toBe("Unknown")
  })

  it("transfers: Successful and SuccessfulButFeeNotTaken are successful, Pending pending, Failed with a refusal code refused", () => {
    const t = (IsSuccessFul: boolean | undefined, Status: string | null, ResponseCode: string) =>
      Outcomes.transferOutcome({ IsSuccessFul, Status, ResponseCode })
    expect(t(true, "Successful", "00")).toEqual({ _tag: "Done", value: "successful" })
    expect(t(true, "SuccessfulButFeeNotTaken", "00")).toEqual({ _tag: "Done", value: "successful" })
    expect(t(true, "Pending", "09")).toEqual({ _tag: "Done", value: "pending" })
    expect(t(false, null, "09")).toEqual({ _tag: "Done", value: "pending" })
    expect(t(false, "Failed", "51")._tag).toBe("Refused")
    expect(t(false, "Failed", "96")._tag).toBe("Unknown")
    expect(t(false, "Reversed", "00")._tag).toBe("Unknown")
    expect(t(true, "Successful", "91")._tag).toBe("Unknown")
    expect(t(false, null, "96")._tag).toBe("Unknown")
  })

  it("status queries: IsSuccessful false is ask-again (unknown) except 25; the status words map onto the port", () => {
    const q = (IsSuccessful: boolean, Status: string | null, ResponseCode = "00") =>
      Outcomes.statusQueryOutcome({ IsSuccessful, Status, ResponseCode })
    expect(q(true, "Successful")).toEqual({ _tag: "Done", value: "successful" })
    expect(q(true, "SuccessfulButFeeNotTaken")).toEqual({ _tag: "Done", value: "successful" })
    expect(q(true, "Pending")).toEqual({ _tag: "Done", value: "pending" })
    expect(q(true, "Failed")).toEqual({ _tag: "Done", value: "failed" })
    expect(q(true, "Reversed")).toEqual({ _tag: "Done", value: "reversed" })
    expect(q(true, "Processing")._tag).toBe("Unknown")
    expect(q(false, "Failed", "06")._tag).toBe("Unknown")
    expect(q(false, null, "25")).toEqual({ _tag: "Done", value: "not_found" })
  })

  it("account changes: RequestStatus true and ResponseStatus Successful, else unknown", () => {
    expect(Outcomes.changeOutcome({ RequestStatus: true, ResponseStatus: "Successful" })._tag).toBe("Done")
    expect(Outcomes.changeOutcome({ RequestStatus: false, ResponseStatus: "Failed" })._tag).toBe("Unknown")
    expect(Outcomes.changeOutcome({ RequestStatus: true, ResponseStatus: null })._tag).toBe("Unknown")
  })

  it("BVN dates of birth in BankOne's forms", () => {
    expect(Outcomes.isoDateOfBirth("01-Jan-1990")).toBe("1990-01-01")
    expect(Outcomes.isoDateOfBirth("1985-05-15T00:00:00")).toBe("1985-05-15")
    expect(Outcomes.isoDateOfBirth("15/05/1985")).toBeUndefined()
  })
})

describe("liens from the balances and the journal", () => {
  it.effect("our confirmed liens first, then unconfirmed ones while the total covers them, then the bank's own", () =>
    Effect.gen(function*() {
      const journal = memoryJournal()
      yield* journal.record({ reference: "L1", kind: "lien", accountNumber: "1", amountKobo: 1_000n })
      yield* journal.setState("L1", "applied")
      yield* journal.record({ reference: "L2", kind: "lien", accountNumber: "1", amountKobo: 500n })
      const rows = yield* journal.liens("1")
      // the answer to L2 was lost and it did not land
      expect(attributeLiens(1_000n, rows)).toEqual([{ reference: "L1", amountKobo: 1_000n }])
      // it landed
      expect(attributeLiens(1_500n, rows)).toEqual([{ reference: "L1", amountKobo: 1_000n }, { reference: "L2", amountKobo: 500n }])
      // and the bank placed one of its own
      expect(attributeLiens(1_700n, rows)).toContainEqual({ reference: "BANK", amountKobo: 200n })
      expect(attributeLiens(0n, rows)).toEqual([])
    }))

  it.effect("the journal counts pending status queries (escalation after 5) and keeps the first record of a reference", () =>
    Effect.gen(function*() {
      const journal = memoryJournal()
      const first = yield* journal.record({ reference: "T1", kind: "transfer", accountNumber: "9", amountKobo: 10n })
      const again = yield* journal.record({ reference: "T1", kind: "transfer", accountNumber: "9", amountKobo: 99n })
      expect(again).toEqual(first)
      for (let i = 0; i < 5; i++) yield* journal.queried("T1", true)
      expect((yield* journal.queried("T1", false))?.tsqCount).toBe(5)
    }))
})

describe("the transport's retries: the generic transport's policy", () => {
  /** One call over a sender that gives `answers` in turn (the last one again), and when each attempt started. */
  const call = (answers: ReadonlyArray<"503" | "timeout" | "ok">, retry: boolean) =>
    Effect.scoped(Effect.gen(function*() {
      const started: Array<number> = []
      const run = yield* makeBankOneTransport({
        baseUrl: "http://127.0.0.1:9",
        bearer: Redacted.make("token"),
        timeoutMs: 50,
        wrapSend: () => () =>
          Effect.flatMap(Effect.clockWith((clock) => clock.currentTimeMillis), (now) => {
            const answer = answers[Math.min(started.push(now), answers.length) - 1]
            return answer === "timeout"
              ? Effect.fail(new Transient({ detail: "no answer", timedOut: true }))
              : Effect.succeed(answer === "503" ? { status: 503, text: "" } : { status: 200, text: "{}" })
          })
      })
      const fiber = yield* Effect.fork(Effect.either(
        run({ operation: "op", reference: undefined, retry, request: { method: "GET", path: "/" }, read: Either.right })
      ))
      yield* TestClock.adjust(Duration.seconds(10))
      const result = yield* Fiber.join(fiber)
      return { result: Either.map(Either.mapLeft(result, (e) => `${e._tag}: ${"detail" in e ? e.detail : ""}`), () => "ok"), started }
    }))

  it.effect("a transient failure is retried after 100, then 200 ms; attempts that run out are unknown, with their count", () =>
    Effect.gen(function*() {
      expect(yield* call(["503", "503", "ok"], true)).toEqual({ result: Either.right("ok"), started: [0, 100, 300] })
      const spent = yield* call(["503"], true)
      expect(spent.result).toEqual(Either.left("ProviderUnknownOutcome: HTTP 503 (3 attempts)"))
      expect(spent.started.length).toBe(3)
    }))

  it.effect("a call that is not safe to repeat, or an attempt that timed out, is not retried", () =>
    Effect.gen(function*() {
      expect((yield* call(["503", "ok"], false)).result).toEqual(Either.left("ProviderUnknownOutcome: HTTP 503 (1 attempt)"))
      expect((yield* call(["timeout", "ok"], true)).result).toEqual(Either.left("ProviderUnknownOutcome: no answer (1 attempt)"))
    }))
})

describe("BANKONE_* settings at start-up", () => {
  const load = (env: Record<string, string>) =>
    Effect.either(loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
  const productionSecrets = {
    APP_ENV: "production",
    DATABASE_URL: "postgres://kobo@db.internal:5432/kobo",
    ACCESS_TOKEN_SECRET: "a".repeat(40),
    SECRET_HASH_KEY: "b".repeat(40),
    BVN_PEPPER: "c".repeat(40),
    RETENTION_KEY: "d".repeat(40),
    WEBHOOK_SECRET: "e".repeat(40),
    CORE_BANKING_TOKEN: "f".repeat(40),
    SMTP_URL: "smtp://mail.example.com:587",
    MAIL_FROM: "no-reply@example.com"
  }
  const complete = {
    CORE_BANKING_PROVIDER: "bankone",
    CORE_BANKING_URL: "https://api.mybankone.com",
    BANKONE_TOKEN: "0a1b2c3d-4e5f-6789-abcd-ef0123456789",
    BANKONE_INSTITUTION_CODE: "100579",
    BANKONE_SETTLEMENT_GL_CODE: "1234",
    BANKONE_PRODUCT_CODE: "105",
    BANKONE_ACCOUNT_OFFICER_CODE: "AO001",
    BANKONE_PAYOUT_ACCOUNT_NUMBER: "1100123456"
  }

  it.effect("the default is generic; SANDBOX_DIALECT=bankone puts the adapter in BankOne mode with development defaults", () =>
    Effect.gen(function*() {
      const generic = yield* load({})
      expect(Either.isRight(generic) && generic.right.coreBankingProvider).toBe("generic")
      const dialect = yield* load({ SANDBOX_DIALECT: "bankone" })
      expect(Either.isRight(dialect) && dialect.right.coreBankingProvider).toBe("bankone")
      expect(Either.isRight(dialect) && dialect.right.bankone.tsqIntervalMs).toBe(60_000)
    }))

  it.effect("bad values are refused with the variable's name", () =>
    Effect.gen(function*() {
      const bad = yield* load({ CORE_BANKING_PROVIDER: "bankone", BANKONE_INSTITUTION_CODE: "12345", BANKONE_SETTLEMENT_GL_CODE: "12" })
      expect(Either.isLeft(bad)).toBe(true)
      expect(String(Either.isLeft(bad) ? bad.left : "")).toContain("BANKONE_INSTITUTION_CODE")
    }))

  it.effect("production with bankone refuses an incomplete set, accepts a complete one", () =>
    Effect.gen(function*() {
      for (const missing of Object.keys(complete).filter((k) => k !== "CORE_BANKING_PROVIDER")) {
        const env: Record<string, string> = { ...productionSecrets, ...complete }
        delete env[missing]
        const result = yield* load(env)
        expect(Either.isLeft(result), missing).toBe(true)
      }
      const development = yield* load({ ...productionSecrets, ...complete, BANKONE_TOKEN: "development-bankone-token-not-for-production" })
      expect(Either.isLeft(development)).toBe(true)
      const ok = yield* load({ ...productionSecrets, ...complete })
      expect(Either.isRight(ok), Either.isLeft(ok) ? String(ok.left) : "").toBe(true)
    }))
})
