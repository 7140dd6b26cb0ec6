/**
 * Transactions: search every customer's movements (customers by name, ids one click away), requery
 * the ones whose outcome is not final (pending) with the bank's answer put in place of the row,
 * resolve a movement parked for an operator (with a confirmation; under four-eyes it waits for a
 * second member), and export the filtered list as CSV: every page of the current filter, fetched
 * in the browser 100 rows at a time (GET /admin/transactions is the only source: what the export
 * holds is what the list shows).
 */
import { type FormEvent, useState } from "react"
import { useSearchParams } from "react-router"
import { api, koboInput, query, type Result, type Transaction } from "../client.js"
import { useAuth } from "../auth.js"
import { attentionChanged } from "../components/attention.js"
import { download, toCsv } from "../components/csv.js"
import { TransactionsTable } from "../components/tables.js"
import { FlashMessage, LoadState, PageHeader, Pager, Select, TextArea, TextInput, useAction, useLoad } from "../components/ui.js"
import { label, shortId } from "../format.js"

type LedgerEntry = Transaction
type Requery = Result<typeof api.adminLedger.requery>
type ResolutionOutcome = "credited_back" | "delivered"

const OUTCOMES: ReadonlyArray<{ readonly value: ResolutionOutcome; readonly label: string; readonly means: string }> = [
  {
    value: "credited_back",
    label: "Credited back",
    means: "the bank could not return the money, and we credited the customer's wallet by hand: the movement fails"
  },
  {
    value: "delivered",
    label: "Delivered",
    means: "the bank confirmed the transfer reached the destination: the movement is confirmed"
  }
]

/**
 * "Resolve movement" on a movement's detail (after a requery): for a movement the saga parked after
 * the bank refused its reversal (reversal_refused alert). The outcome is chosen, then confirmed.
 */
const ResolvePanel = ({ transaction, busy, onResolve }: {
  readonly transaction: Transaction
  readonly busy: boolean
  readonly onResolve: (outcome: ResolutionOutcome, note: string) => Promise<boolean>
}) => {
  const [note, setNote] = useState("")
  const [chosen, setChosen] = useState<ResolutionOutcome | null>(null)
  const picked = OUTCOMES.find((o) => o.value === chosen)
  return (
    <div className="resolve" aria-label="Resolve movement">
      <h3>Resolve movement</h3>
      <p className="muted small">
        Only for a movement parked after the bank refused its reversal (a reversal_refused alert). Record what the bank
        confirmed; nothing is sent to the bank.
      </p>
      <TextArea label="Note" hint="What the bank confirmed, and its reference" value={note} onChange={setNote} required />
      {picked === undefined
        ? (
          <div className="inline-form">
            {OUTCOMES.map((o) => (
              <button key={o.value} type="button" className="secondary small" disabled={busy || note.trim() === ""} onClick={() => setChosen(o.value)}>
                {o.label}…
              </button>
            ))}
          </div>
        )
        : (
          <div className="confirm" role="group" aria-label="Confirm the resolution">
            <p>
              Record <strong>{picked.label.toLowerCase()}</strong> for {shortId(transaction.id)}: {picked.means}. This cannot be undone.
            </p>
            <div className="inline-form">
              <button type="button" disabled={busy} onClick={() => void onResolve(picked.value, note.trim()).then((ok) => ok && setChosen(null))}>
                Confirm: {picked.label.toLowerCase()}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setChosen(null)}>Cancel</button>
            </div>
          </div>
        )}
    </div>
  )
}

const EMPTY = { id: "", reference: "", customerId: "", status: "", purpose: "", from: "", to: "", minAmountKobo: "", maxAmountKobo: "" }
type Query = typeof EMPTY

const EXPORT_PAGE = 100
const CSV_HEADER = [
  "id", "createdAt", "customerId", "customerName", "type", "purpose", "amountKobo", "feeKobo", "status", "awaitsOperator",
  "retrievalReference", "transferReference", "failureReason", "retryCount", "updatedAt"
]
const csvRow = (t: LedgerEntry) => [
  t.id, t.createdAt, t.customerId, t.customerName, t.type, t.purpose, t.amountKobo, t.feeKobo, t.status, t.awaitsOperator,
  t.retrievalReference, t.transferReference, t.failureReason, t.retryCount, t.updatedAt
]

const searchLedger = (filters: Query, page: number, pageSize: number) =>
  query(api.adminLedger.search, {
    ...filters,
    minAmountKobo: koboInput(filters.minAmountKobo),
    maxAmountKobo: koboInput(filters.maxAmountKobo),
    page,
    pageSize
  })

/** Every page of the filter, oldest request first; a row seen twice (the list moved meanwhile) is kept once. */
const fetchAll = async (filters: Query, progress: (done: number, of: number) => void) => {
  const rows = new Map<string, LedgerEntry>()
  for (let page = 1;; page++) {
    const found = await searchLedger(filters, page, EXPORT_PAGE)
    for (const t of found.items) if (!rows.has(t.id)) rows.set(t.id, t)
    progress(page, found.totalPages)
    if (page >= found.totalPages) return [...rows.values()]
  }
}

/** The bank may still change its outcome: requery means something only then. */
const notFinal = (t: Transaction) => t.status === "pending"

export const TransactionsPage = () => {
  const { can } = useAuth()
  // /transactions?id=…&customerId=…&status=… (links from failed jobs and Needs attention) start filtered
  const [params] = useSearchParams()
  const initial = { ...EMPTY, id: params.get("id") ?? "", customerId: params.get("customerId") ?? "", status: params.get("status") ?? "" }
  const [draft, setDraft] = useState(initial)
  const [filters, setFilters] = useState(initial)
  const [page, setPage] = useState(1)
  // rows the bank's answer (a requery) or a resolution changed since the page was loaded
  const [changed, setChanged] = useState<Record<string, LedgerEntry>>({})
  // what the bank answered for a row, when it was requeried
  const [bankSays, setBankSays] = useState<Record<string, string>>({})
  const loaded = useLoad(() => searchLedger(filters, page, 20).finally(() => setChanged({})), [filters, page])
  const { flash, busy, run } = useAction()
  const [requeried, setRequeried] = useState<Requery | null>(null)
  const [resolving, setResolving] = useState<LedgerEntry | null>(null)
  const [exporting, setExporting] = useState<string | null>(null)

  const search = (e: FormEvent) => {
    e.preventDefault()
    setPage(1)
    setFilters(draft)
  }
  const requery = (t: LedgerEntry) =>
    void run(async () => {
      const answer = await api.adminLedger.requery({ path: { id: t.id } })
      const now = answer.transaction
      setRequeried(answer)
      setChanged((c) => ({ ...c, [now.id]: now }))
      const bank = answer.provider.transfer ?? answer.provider.debit
      setBankSays((b) => ({ ...b, [now.id]: bank === null ? "no reference" : label(bank.status) }))
      return `Requeried ${shortId(t.id)}: the bank says ${bank === null ? "nothing" : label(bank.status)}; ours is ${now.status}.`
    })
  const resolve = (t: LedgerEntry, outcome: ResolutionOutcome, note: string) =>
    run(async () => {
      const answer = await api.adminLedger.resolve({ path: { id: t.id }, payload: { outcome, note } })
      attentionChanged()
      if ("pendingApproval" in answer) return "Resolution requested: it waits for a second member's approval."
      const done = answer
      const now = { ...t, ...done.transaction, awaitsOperator: false }
      setChanged((c) => ({ ...c, [t.id]: now }))
      setRequeried((r) => (r === null || r.transaction.id !== t.id ? r : { ...r, transaction: now }))
      setResolving(null)
      const after = [done.planState === null ? "" : ` Plan: ${done.planState}.`, done.closureStatus === null ? "" : ` Closure: ${done.closureStatus}.`]
      return `Resolved ${shortId(t.id)}: now ${done.transaction.status}.${after.join("")}`
    })
  const exportCsv = () =>
    void run(async () => {
      setExporting("Exporting…")
      try {
        const rows = await fetchAll(filters, (done, of) => setExporting(`Exporting… page ${done} of ${Math.max(of, 1)}`))
        download(`transactions-${new Date().toISOString().slice(0, 10)}.csv`, toCsv(CSV_HEADER, rows.map(csvRow)))
        return `Exported ${rows.length} transaction${rows.length === 1 ? "" : "s"} (every page of this filter) as CSV.`
      } finally {
        setExporting(null)
      }
    })
  const set = (k: keyof Query) => (v: string) => setDraft({ ...draft, [k]: v })
  const rows = loaded.data?.items.map((t) => changed[t.id] ?? t) ?? []
  const parked = requeried === null ? null : changed[requeried.transaction.id] ?? requeried.transaction
  const toResolve = resolving ?? (parked !== null && parked.awaitsOperator ? parked : null)

  return (
    <section>
      <PageHeader title="Transactions">
        <div className="toolbar">
          <button type="button" className="secondary" disabled={busy || loaded.data === undefined || loaded.data.total === 0} onClick={exportCsv}>
            Export CSV
          </button>
        </div>
      </PageHeader>
      <form className="filters card" role="search" aria-label="Search transactions" onSubmit={search}>
        <TextInput label="Transaction id" value={draft.id} onChange={set("id")} />
        <TextInput label="Reference" hint="Ours or the bank's" value={draft.reference} onChange={set("reference")} />
        <TextInput label="Customer id" value={draft.customerId} onChange={set("customerId")} />
        <Select label="Status" value={draft.status} onChange={set("status")} options={["pending", "confirmed", "failed"]} />
        <Select
          label="Purpose"
          value={draft.purpose}
          onChange={set("purpose")}
          options={["deposit", "manual_transfer", "disbursement", "early_withdrawal"]}
        />
        <TextInput label="From (UTC day)" type="date" value={draft.from} onChange={set("from")} />
        <TextInput label="To (UTC day)" type="date" value={draft.to} onChange={set("to")} />
        <TextInput label="Min amount (kobo)" inputMode="numeric" value={draft.minAmountKobo} onChange={set("minAmountKobo")} />
        <TextInput label="Max amount (kobo)" inputMode="numeric" value={draft.maxAmountKobo} onChange={set("maxAmountKobo")} />
        <button type="submit">Search</button>
      </form>
      {exporting !== null && <p className="muted" aria-live="polite">{exporting}</p>}
      <FlashMessage flash={flash} />
      {requeried !== null && parked !== null && (
        <div className="card requery" aria-label="Requery result">
          <h2>Requery of {shortId(parked.id)}</h2>
          <dl className="facts">
            <dt>Our status</dt>
            <dd>{parked.status}{parked.awaitsOperator && " (awaiting an operator)"}</dd>
            <dt>Bank, debit</dt>
            <dd>{requeried.provider.debit === null ? "—" : `${label(requeried.provider.debit.status)} (${requeried.provider.debit.reference})`}</dd>
            <dt>Bank, transfer</dt>
            <dd>{requeried.provider.transfer === null ? "—" : `${label(requeried.provider.transfer.status)} (${requeried.provider.transfer.reference})`}</dd>
          </dl>
          <button type="button" className="secondary small" onClick={() => setRequeried(null)}>Dismiss</button>
        </div>
      )}
      {toResolve !== null && can("transactions:resolve") && toResolve.awaitsOperator && (
        <div className="card" aria-label={`Resolve ${shortId(toResolve.id)}`}>
          <ResolvePanel
            key={toResolve.id}
            transaction={toResolve}
            busy={busy}
            onResolve={(outcome, note) => resolve(toResolve, outcome, note)}
          />
          {resolving !== null && <button type="button" className="secondary small" onClick={() => setResolving(null)}>Close</button>}
        </div>
      )}
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        <>
          <TransactionsTable
            rows={rows}
            caption="Transactions found"
            action={(t) => (
              <span className="row-actions">
                {can("transactions:requery") && notFinal(t) && (
                  <button type="button" className="secondary small" disabled={busy} onClick={() => requery(t)}>
                    Requery <span className="sr-only">{shortId(t.id)}</span>
                  </button>
                )}
                {can("transactions:resolve") && t.awaitsOperator && (
                  <button type="button" className="small" disabled={busy} onClick={() => setResolving(t)}>
                    Resolve… <span className="sr-only">{shortId(t.id)}</span>
                  </button>
                )}
                {!notFinal(t) && <span className="muted small">final</span>}
                {bankSays[t.id] !== undefined && <span className="small bank-says">bank: {bankSays[t.id]}</span>}
              </span>
            )}
          />
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      )}
    </section>
  )
}
