import { useState } from "react"
import { Link } from "react-router"
import { api, query, type Result } from "../client.js"

type Approval = Result<typeof api.adminApprovals.list>["items"][number]
import { useAuth } from "../auth.js"
import { attentionChanged } from "../components/attention.js"
import { Badge, Empty, FlashMessage, LoadState, PageHeader, Pager, Select, TextInput, useAction, useLoad } from "../components/ui.js"
import { shortId, when } from "../format.js"

/** Four-eyes requests (ADMIN_FOUR_EYES=true): settings changes, unfreezes and movement resolutions a second member decides. */

const permissionOf = (a: Approval) =>
  a.action._tag === "settings.update" ? "settings:write" : a.action._tag === "movement.resolve" ? "transactions:resolve" : "customers:unfreeze"
export const ApprovalsPage = () => {
  const { can, me } = useAuth()
  const [status, setStatus] = useState("pending")
  const [page, setPage] = useState(1)
  const loaded = useLoad(() => query(api.adminApprovals.list, { status, page, pageSize: 20 }), [status, page])
  const { flash, busy, run } = useAction()
  const [notes, setNotes] = useState<Record<string, string>>({})
  const mayDecide = (a: Approval) =>
    a.status === "pending" && a.requestedBy !== me?.id &&
    can(permissionOf(a))

  if (!can("settings:write") && !can("customers:unfreeze") && !can("transactions:resolve")) {
    return <section><PageHeader title="Approvals" /><p>Your role does not decide approvals.</p></section>
  }
  return (
    <section>
      <PageHeader title="Approvals">
        <div className="toolbar">
          <Select label="Status" value={status} onChange={(v) => (setStatus(v), setPage(1))} options={["pending", "approved", "rejected"]} any={null} />
        </div>
      </PageHeader>
      <p className="muted">Under four-eyes, settings changes, unfreezes and movement resolutions wait here for a second member.</p>
      <FlashMessage flash={flash} />
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (loaded.data.items.length === 0 ? <Empty>No {status} requests.</Empty> : (
        <>
          <ul className="cards">
            {loaded.data.items.map((a) => (
              <li key={a.id} className="card">
                <h2>
                  {a.action._tag === "settings.update"
                    ? <>Set <code>{a.action.key}</code> to <code>{JSON.stringify(a.action.value)}</code></>
                    : a.action._tag === "movement.resolve"
                    ? (
                      <>
                        Resolve movement <Link to={`/transactions?id=${a.action.transactionId}`}>{shortId(a.action.transactionId)}</Link>{" "}
                        as {a.action.outcome.replace(/_/g, " ")} <span className="muted small">— {a.action.note}</span>
                      </>
                    )
                    : <>Unfreeze customer <Link to={`/customers/${a.action.customerId}`}>{shortId(a.action.customerId)}</Link></>}{" "}
                  <Badge value={a.status} />
                </h2>
                <p className="muted small">
                  Requested by {a.requestedBy === me?.id ? "you" : shortId(a.requestedBy)} · {when(a.requestedAt)}
                  {a.decidedAt !== null && <> · decided {when(a.decidedAt)}{a.note !== null && ` — ${a.note}`}</>}
                </p>
                {mayDecide(a) && (
                  <div className="inline-form">
                    <TextInput label="Note (optional)" value={notes[a.id] ?? ""} onChange={(v) => setNotes({ ...notes, [a.id]: v })} />
                    <button type="button" disabled={busy} onClick={() => void run(async () => {
                      await api.adminApprovals.approve({ path: { id: a.id } })
                      loaded.reload()
                      attentionChanged()
                      return "Approved and applied."
                    })}>Approve</button>
                    <button type="button" className="secondary" disabled={busy} onClick={() => void run(async () => {
                      const note = notes[a.id] ?? ""
                      await api.adminApprovals.reject({ path: { id: a.id }, payload: note === "" ? {} : { note } })
                      loaded.reload()
                      attentionChanged()
                      return "Rejected."
                    })}>Reject</button>
                  </div>
                )}
              </li>
            ))}
          </ul>
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      ))}
    </section>
  )
}
