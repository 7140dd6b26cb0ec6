/**
 * The BankOne adapter's two reads that lean on its journal (docs/bankone.md): the status query
 * (B22–B27: the original's date, type and amount from the journal; a reference never recorded was
 * never sent; the TSQ interval; the escalation after 5 pending answers) and the transaction list
 * (B32, B33: a credit the adapter did not post is an inbound deposit).
 */
import { type ProviderTransaction, ProviderUnknownOutcome, type RequeryStatus } from "@app/domain"
import { Effect, Either, Option, Redacted } from "effect"
import { checkReference } from "../Mapping.js"
import { Transient } from "../Sender.js"
import type { BankOneSettings } from "./BankOneConfig.js"
import { type BankOneJournal, lagosDate } from "./BankOneJournal.js"
import { koboFromText } from "./BankOneMoney.js"
import * as Outcomes from "./BankOneOutcomes.js"
import { decoded, post, reading, refuse, webApi } from "./BankOneRequests.js"
import type { RunBankOne } from "./BankOneTransport.js"
import * as Wire from "./BankOneWire.js"

/** the pending TSQ answers after which BankOne support must be contacted (B27) */
export const TSQ_ESCALATE_AFTER = 5

export interface Reads {
  readonly run: RunBankOne
  readonly settings: BankOneSettings
  readonly journal: BankOneJournal
}

export const makeRequery = ({ journal, run, settings }: Reads) => (reference: string) =>
  Effect.gen(function*() {
    const token = Redacted.value(settings.token)
    const ref = yield* checkReference("requery", reference)
    const found = yield* journal.find(ref)
    // recorded before every send: no record, never sent (B23)
    if (Option.isNone(found)) return "not_found" as RequeryStatus
    const row = found.value
    if (row.kind === "lien") return yield* Effect.fail(refuse("requery", "liens have no status query"))
    const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
    const last = Math.max(row.createdAt.getTime(), row.lastTsqAt?.getTime() ?? 0)
    if (now - last < settings.tsqIntervalMs) {
      return yield* Effect.fail(
        new ProviderUnknownOutcome({ operation: "requery", detail: `BankOne's TSQ interval (${settings.tsqIntervalMs} ms) has not passed` })
      )
    }
    yield* journal.queried(ref, false)
    const status = yield* run({
      operation: "requery",
      reference: ref,
      retry: true,
      request: post(row.kind === "transfer" ? Wire.Paths.interbankStatusQuery : Wire.Paths.statusQuery, Wire.StatusQueryRequest, {
        RetrievalReference: ref,
        TransactionDate: row.sentOn,
        TransactionType: Wire.TransactionTypes[row.kind],
        Amount: row.amountKobo.toString(),
        Token: token
      }),
      read: reading("requery", Wire.StatusQueryAnswer, false, Outcomes.statusQueryOutcome)
    })
    if (status === "successful") yield* journal.setState(ref, "applied")
    if (status === "pending") {
      const counted = yield* journal.queried(ref, true)
      if (counted !== undefined && counted.tsqCount >= TSQ_ESCALATE_AFTER) {
        yield* Effect.logWarning(`bankone: TSQ still pending after ${counted.tsqCount} queries; escalate to BankOne support`)
          .pipe(Effect.annotateLogs({ reference: ref, kind: row.kind, tsqCount: counted.tsqCount }))
      }
    }
    return status
  })

export const makeHistory = ({ journal, run, settings }: Reads) => (accountNumber: string) =>
  Effect.gen(function*() {
    const token = Redacted.value(settings.token)
    const now = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
    const entries = yield* run({
      operation: "history",
      reference: undefined,
      retry: true,
      request: webApi(Wire.Paths.transactions, token, {
        accountNumber,
        fromDate: "2020-01-01",
        toDate: lagosDate(new Date(now.getTime() + 86_400_000)),
        numberOfItems: "1000"
      }),
      read: (json) =>
        Either.flatMap(decoded("history", Wire.TransactionsAnswer, false)(json), (answer) =>
          answer.IsSuccessful === true && Array.isArray(answer.Message)
            ? Either.right(answer.Message as ReadonlyArray<typeof Wire.TransactionEntry.Type>)
            : Either.left(new Transient({ detail: "transaction list not given" })))
    })
    const listed: Array<{ reference: string; credit: boolean; amountKobo: bigint; narration: string; postedAt: Date }> = []
    for (const entry of entries) {
      const kobo = koboFromText(entry.Amount)
      const postedAt = new Date(entry.TransactionDate)
      const reference = (entry.ReferenceID ?? "").trim()
      const kind = entry.RecordType.trim().toLowerCase()
      if (!kobo.ok || kobo.kobo <= 0n || Number.isNaN(postedAt.getTime()) || reference === "" || (kind !== "credit" && kind !== "debit")) {
        return yield* Effect.fail(new ProviderUnknownOutcome({ operation: "history", detail: "a transaction entry could not be read" }))
      }
      listed.push({ reference, credit: kind === "credit", amountKobo: kobo.kobo, narration: entry.Narration ?? "", postedAt })
    }
    const ours = yield* journal.ours(listed.map((t) => t.reference))
    return listed.map((t): ProviderTransaction => ({
      reference: t.reference,
      direction: t.credit ? "credit" : "debit",
      amountKobo: t.amountKobo,
      narration: t.narration,
      postedAt: t.postedAt,
      // a credit we did not post arrived from outside (B33)
      channel: ours.has(t.reference) ? (t.credit ? "core_credit" : "core_debit") : (t.credit ? "nip_inbound" : "nip_outbound"),
      counterpartyName: null,
      counterpartyAccountNumber: null,
      counterpartyBankCode: null
    }))
  })
