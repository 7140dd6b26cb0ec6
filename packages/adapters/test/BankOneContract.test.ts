/**
 * Contract tests of the BankOne adapter: one fixture per operation under fixtures/bankone/, each
 * naming its source page (and whether it is documented or assumed), holding the request the adapter
 * must send — method, path (with the token where BankOne wants it) and exact JSON body — and the
 * answer BankOne gives, taken from the documentation's own examples where it has them. A change to
 * the adapter's wire format fails here.
 */
import { developmentBankOneSettings } from "@app/adapters/corebanking/bankone/BankOneConfig"
import { makeBankOneCoreBanking } from "@app/adapters/corebanking/bankone/BankOneCoreBanking"
import { memoryJournal } from "@app/adapters/corebanking/bankone/BankOneJournal"
import type { WireRequest } from "@app/adapters/corebanking/Sender"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

const DIR = path.join(import.meta.dirname, "fixtures", "bankone")
const TOKEN = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

interface Fixture {
  readonly operation: string
  readonly status: string
  readonly source: ReadonlyArray<string>
  readonly input: Record<string, any>
  readonly journal?: { reference: string; kind: "debit" | "credit" | "transfer" | "lien"; accountNumber: string; amountKobo: string }
  readonly request: { method: string; path: string; body?: Record<string, unknown> }
  /** answers to calls the operation makes before its own (e.g. the account read before a lien removal) */
  readonly before?: ReadonlyArray<{ path: string; text: string }>
  readonly response: { status: number; text: string }
  /** `ok`: the port's value; `unknown`: a ProviderUnknownOutcome whose detail contains it */
  readonly expect: { ok?: unknown; unknown?: string }
}

const fixtures = fs.readdirSync(DIR).filter((f) => f.endsWith(".json")).sort().map((file) => ({
  file,
  fixture: JSON.parse(fs.readFileSync(path.join(DIR, file), "utf8")) as Fixture
}))

const PND_ANSWER = JSON.stringify({ RequestStatus: true, ResponseDescription: "PND successfully activated on account.", ResponseStatus: "Successful" })

/** `<…>` in a fixture stands for a value the test checks by its own rule. */
const placeholder = (value: unknown): value is string => typeof value === "string" && /^<.*>$/.test(value)

const expectPath = (actual: string, expected: string) => {
  const pattern = new RegExp(
    "^" + expected.split(/<[^>]*>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^&]+") + "$"
  )
  expect(actual).toMatch(pattern)
}

const run = (fixture: Fixture) =>
  Effect.gen(function*() {
    const sent: Array<WireRequest> = []
    const alerts: Array<{ dedupKey: string; message: string }> = []
    const journal = memoryJournal()
    if (fixture.journal !== undefined) yield* journal.record({ ...fixture.journal, amountKobo: BigInt(fixture.journal.amountKobo) })
    const { coreBanking: cb } = yield* makeBankOneCoreBanking({
      baseUrl: "http://127.0.0.1:9",
      settings: developmentBankOneSettings({ token: Redacted.make(TOKEN), settlementGlCode: "xxxx", creditGlCode: "xxxx", tsqIntervalMs: 0 }),
      testToken: Redacted.make("unused-test-token-unused-test-token"),
      timeoutMs: 1_000,
      journal,
      alert: (input) => Effect.sync(() => void alerts.push(input)),
      wrapSend: () => (request) => {
        sent.push(request)
        return Effect.succeed(
          // an account opening is followed by ActivatePND; every other request (retries too) gets the fixture's answer
          fixture.operation === "openAccount" && request.path.endsWith("/ActivatePND")
            ? { status: 200, text: PND_ANSWER }
            : fixture.before?.some((b) => b.path === request.path)
            ? { status: 200, text: fixture.before.find((b) => b.path === request.path)!.text }
            : { status: fixture.response.status, text: fixture.response.text }
        )
      }
    })
    const i = fixture.input
    const operation = (() => {
      switch (fixture.operation) {
        case "debit":
        case "credit":
          return cb[fixture.operation]({ accountNumber: i.accountNumber, amountKobo: BigInt(i.amountKobo), reference: i.reference, narration: i.narration })
        case "account":
          return cb.account(i.accountNumber)
        case "activatePnd":
        case "deactivatePnd":
          return cb[fixture.operation](i.accountNumber)
        case "placeLien":
          return cb.placeLien({ accountNumber: i.accountNumber, reference: i.reference, amountKobo: BigInt(i.amountKobo) })
        case "removeLien":
          return cb.removeLien({ accountNumber: i.accountNumber, reference: i.reference })
        case "freeze":
          return cb.freeze({ accountNumber: i.accountNumber, reason: i.reason })
        case "unfreeze":
          return cb.unfreeze({ accountNumber: i.accountNumber, freezeReference: i.freezeReference })
        case "transfer":
          return cb.transfer({ ...(i as any), amountKobo: BigInt(i.amountKobo) })
        case "requery":
          return cb.requery(i.reference)
        case "openAccount":
          return cb.openAccount(i as any)
        case "findAccountByReference":
          return cb.findAccountByReference(i.reference)
        case "nameEnquiry":
          return cb.nameEnquiry({ accountNumber: i.accountNumber, bankCode: i.bankCode })
        case "bvnLookup":
          return cb.bvnLookup(i.bvn)
        case "banks":
          return cb.banks
        case "history":
          return cb.history(i.accountNumber)
        default:
          throw new Error(`no runner for ${fixture.operation}`)
      }
    })() as Effect.Effect<unknown, any>
    const result: unknown = yield* operation.pipe(
      Effect.catchTag("ProviderUnknownOutcome", (e: { detail: string }) => Effect.succeed({ unknown: e.detail }))
    )
    return { sent, result, alerts }
  })

/** bigint → string, Option → tagged object, for comparison with a fixture's JSON. */
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)))

describe("BankOne adapter: contract fixtures", () => {
  it("there is a fixture for every operation of the port, each naming its source", () => {
    const operations = new Set(fixtures.map(({ fixture }) => fixture.operation))
    for (const op of ["openAccount", "findAccountByReference", "account", "history", "activatePnd", "deactivatePnd", "placeLien",
      "removeLien", "freeze", "unfreeze", "debit", "credit", "nameEnquiry", "transfer", "requery", "bvnLookup", "banks"]) {
      expect(operations.has(op), op).toBe(true)
    }
    for (const { file, fixture } of fixtures) {
      expect(fixture.source.length, file).toBeGreaterThan(0)
      for (const url of fixture.source) expect(url, file).toMatch(/^https:\/\/(docs\.mybankone\.com|docs\.qore\.inc|appzone-docs\.readme\.io)\//)
      expect(fixture.status, file).toMatch(/documented|assumed/)
    }
  })

  for (const { file, fixture } of fixtures) {
    it.scopedLive(`${file}: the request sent and the answer read`, () =>
      Effect.gen(function*() {
        const { alerts, result, sent } = yield* run(fixture)
        if (fixture.expect.unknown !== undefined) {
          expect((result as { unknown?: string }).unknown).toContain(fixture.expect.unknown)
          if (fixture.expect.unknown === "sub-kobo") {
            // refused AND a staff alert, never rounded
            expect(alerts.map((a) => a.dedupKey)).toEqual([`bankone_sub_kobo:${fixture.input.accountNumber}`])
          }
          return
        }
        expect(alerts).toEqual([])
        const request = sent.find((r) => !fixture.before?.some((b) => b.path === r.path))!
        expect(request.method).toBe(fixture.request.method)
        expectPath(request.path, fixture.request.path)
        if (fixture.request.body === undefined) {
          expect(request.body).toBeUndefined()
        } else {
          const body = JSON.parse(request.body!) as Record<string, unknown>
          expect(Object.keys(body).sort()).toEqual(Object.keys(fixture.request.body).sort())
          for (const [key, value] of Object.entries(fixture.request.body)) {
            if (placeholder(value)) {
              expect(typeof body[key], key).toBe("string")
              if (value === "<any 12 characters>") expect(body[key]).toHaveLength(12)
              if (value === "<the journal's date>") expect(body[key]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
            } else {
              expect(body[key], key).toEqual(value)
            }
          }
        }
        if (fixture.operation === "freeze") {
          expect(result).toEqual({ freezeReference: JSON.parse(request.body!).ReferenceID })
        } else if (fixture.operation === "history") {
          const rows = (result as ReadonlyArray<Record<string, unknown>>).map((r) => ({
            reference: r.reference,
            direction: r.direction,
            amountKobo: r.amountKobo,
            channel: r.channel
          }))
          expect(plain(rows)).toEqual(fixture.expect.ok)
        } else if (Option.isOption(result)) {
          expect(plain(Option.getOrNull(result))).toEqual((fixture.expect.ok as { value: unknown }).value)
        } else {
          expect(plain(result ?? null)).toEqual(fixture.expect.ok)
        }
        if (fixture.operation === "openAccount") {
          // a new account is put under Post-No-Debit at once
          expect(sent[1]?.path).toMatch(/\/Account\/ActivatePND$/)
        }
      }))
  }
})
