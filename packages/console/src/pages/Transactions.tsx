import { type FormEvent, useState } from "react"
import { useSearchParams } from "react-router"
import { api, koboInput, query, type Result, type Transaction } from "../client.js"

type Requery = Result<typeof api.adminLedger.requery>
type ResolutionOutcome = "credited_back" | "delivered"
import { useAuth } from "../auth.js"
import { TransactionsTable } from "../components/tables.js"
import { FlashMessage, LoadState, PageHeader, Pager, Select, TextArea, TextInput, useAction, useLoad } from "../components/ui.js"
import { label, shortId } from "../format.js"

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

export const TransactionsPage = () => {
  const { can } = useAuth()
  // /transactions?id=…&customerId=… (links from failed jobs) start filtered
  const [params] = useSearchParams()
  const initial = { ...EMPTY, id: params.get("id") ?? "", customerId: params.get("customerId") ?? "" }
  const [draft, setDraft] = useState(initial)
  const [filters, setFilters] = useState(initial)
  const [page, setPage] = useState(1)
  const loaded = useLoad(
    () =>
      query(api.adminLedger.search, {
        ...filters,
        minAmountKobo: koboInput(filters.minAmountKobo),
        maxAmountKobo: koboInput(filters.maxAmountKobo),
        page,
        pageSize: 20
      }),
    [filters, page]
  )
  const { flash, busy, run } = useAction()
  const [requeried, setRequeried] = useState<Requery | null>(null)

  const search = (e: FormEvent) => {
    e.preventDefault()
    setPage(1)
    setFilters(draft)
  }
  const requery = (t: Transaction) =>
    void run(async () => {
      setRequeried(await api.adminLedger.requery({ path: { id: t.id } }))
      return `Requeried ${shortId(t.id)} at the bank.`
    })
  const resolve = (t: Transaction, outcome: ResolutionOutcome, note: string) =>
    run(async () => {
      const answer = await api.adminLedger.resolve({ path: { id: t.id }, payload: { outcome, note } })
      loaded.reload()
      if ("pendingApproval" in answer) return "Resolution requested: it waits for a second member's approval."
      const done = answer
      setRequeried((r) => (r === null ? r : { ...r, transaction: done.transaction }))
      const after = [done.planState === null ? "" : ` Plan: ${done.planState}.`, done.closureStatus === null ? "" : ` Closure: ${done.closureStatus}.`]
      return `Resolved ${shortId(t.id)}: now ${done.transaction.status}.${after.join("")}`
    })
  const set = (k: keyof typeof EMPTY) => (v: string) => setDraft({ ...draft, [k]: v })

  return (
    <section>
      <PageHeader title="Transactions" />
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
      <FlashMessage flash={flash} />
      {requeried !== null && (
        <div className="card requery" aria-label="Requery result">
          <h2>Requery of {shortId(requeried.transaction.id)}</h2>
          <dl className="facts">
            <dt>Our status</dt>
            <dd>{requeried.transaction.status}</dd>
            <dt>Bank, debit</dt>
            <dd>{requeried.provider.debit === null ? "—" : `${label(requeried.provider.debit.status)} (${requeried.provider.debit.reference})`}</dd>
            <dt>Bank, transfer</dt>
            <dd>{requeried.provider.transfer === null ? "—" : `${label(requeried.provider.transfer.status)} (${requeried.provider.transfer.reference})`}</dd>
          </dl>
          {can("transactions:resolve") && requeried.transaction.status === "pending" && requeried.transaction.type === "transfer" && (
            <ResolvePanel
              key={requeried.transaction.id}
              transaction={requeried.transaction}
              busy={busy}
              onResolve={(outcome, note) => resolve(requeried.transaction, outcome, note)}
            />
          )}
          <button type="button" className="secondary small" onClick={() => setRequeried(null)}>Dismiss</button>
        </div>
      )}
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        <>
          <TransactionsTable
            rows={loaded.data.items}
            caption="Transactions found"
            {...(can("transactions:requery")
              ? {
                action: (t: Transaction) => (
                  <button type="button" className="secondary small" disabled={busy} onClick={() => requery(t)}>
                    Requery <span className="sr-only">{shortId(t.id)}</span>
                  </button>
                )
              }
              : {})}
          />
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      )}
    </section>
  )
}
