import { type FormEvent, useState } from "react"
import { api, query } from "../client.js"
import { useAuth } from "../auth.js"
import { AuditTable } from "../components/tables.js"
import { FlashMessage, LoadState, PageHeader, Pager, TextInput, useAction, useLoad } from "../components/ui.js"

const EMPTY = { actorId: "", action: "", targetKind: "", targetId: "", from: "", to: "" }

export const AuditPage = () => {
  const { can } = useAuth()
  const [draft, setDraft] = useState(EMPTY)
  const [filters, setFilters] = useState(EMPTY)
  const [page, setPage] = useState(1)
  const loaded = useLoad(() => query(api.adminAudit.list, { ...filters, page, pageSize: 25 }), [filters, page])
  const { flash, busy, run } = useAction()
  const set = (k: keyof typeof EMPTY) => (v: string) => setDraft({ ...draft, [k]: v })

  const search = (e: FormEvent) => {
    e.preventDefault()
    setPage(1)
    setFilters(draft)
  }
  const verify = () =>
    void run(async () => {
      const result = await api.adminAudit.verify()
      if (!result.ok) throw new Error(`Chain broken at row ${result.brokenAt}: ${result.reason ?? "content or link does not match"}.`)
      return `Chain intact: ${result.rows} rows verified${result.lastHash ? `, last hash ${result.lastHash.slice(0, 12)}…` : ""}.`
    })

  return (
    <section>
      <PageHeader title="Audit log">
        {can("audit:verify") && (
          <div className="toolbar">
            <button type="button" disabled={busy} onClick={verify}>Verify chain</button>
          </div>
        )}
      </PageHeader>
      <FlashMessage flash={flash} />
      <form className="filters card" role="search" aria-label="Filter the audit log" onSubmit={search}>
        <TextInput label="Actor id" value={draft.actorId} onChange={set("actorId")} />
        <TextInput label="Action" placeholder="e.g. customer.freeze" value={draft.action} onChange={set("action")} />
        <TextInput label="Target kind" value={draft.targetKind} onChange={set("targetKind")} />
        <TextInput label="Target id" value={draft.targetId} onChange={set("targetId")} />
        <TextInput label="From (UTC day)" type="date" value={draft.from} onChange={set("from")} />
        <TextInput label="To (UTC day)" type="date" value={draft.to} onChange={set("to")} />
        <button type="submit">Filter</button>
      </form>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        <>
          <AuditTable rows={loaded.data.items} caption="Audit entries, newest first" />
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      )}
    </section>
  )
}
