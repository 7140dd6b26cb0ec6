import { type FormEvent, useState } from "react"
import { useSearchParams } from "react-router"
import { call, get, type Page, type Requery, type Transaction } from "../api.js"
import { useAuth } from "../auth.js"
import { TransactionsTable } from "../components/tables.js"
import { FlashMessage, LoadState, PageHeader, Pager, Select, TextInput, useAction, useLoad } from "../components/ui.js"
import { label, shortId } from "../format.js"

const EMPTY = { id: "", reference: "", customerId: "", status: "", purpose: "", from: "", to: "", minAmountKobo: "", maxAmountKobo: "" }

export const TransactionsPage = () => {
  const { can } = useAuth()
  // /transactions?id=…&customerId=… (links from failed jobs) start filtered
  const [params] = useSearchParams()
  const initial = { ...EMPTY, id: params.get("id") ?? "", customerId: params.get("customerId") ?? "" }
  const [draft, setDraft] = useState(initial)
  const [query, setQuery] = useState(initial)
  const [page, setPage] = useState(1)
  const loaded = useLoad(() => get<Page<Transaction>>("/transactions", { ...query, page, pageSize: 20 }), [query, page])
  const { flash, busy, run } = useAction()
  const [requeried, setRequeried] = useState<Requery | null>(null)

  const search = (e: FormEvent) => {
    e.preventDefault()
    setPage(1)
    setQuery(draft)
  }
  const requery = (t: Transaction) =>
    void run(async () => {
      const answer = await call<Requery>("POST", `/transactions/${t.id}/requery`)
      setRequeried(answer.result)
      return `Requeried ${shortId(t.id)} at the bank.`
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
