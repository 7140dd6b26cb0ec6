import { type FormEvent, useState } from "react"
import { api, query } from "../client.js"
import { useAuth } from "../auth.js"
import { Badge, Empty, FlashMessage, LoadState, PageHeader, Pager, Select, TextInput, useAction, useLoad } from "../components/ui.js"
import { kobo, shortId, when } from "../format.js"

export const DeletionsPage = () => {
  const { can } = useAuth()
  const [status, setStatus] = useState("pending_review")
  const [page, setPage] = useState(1)
  const loaded = useLoad(() => query(api.adminDeletions.list, { status, page, pageSize: 20 }), [status, page])
  const { flash, busy, run } = useAction()

  return (
    <section>
      <PageHeader title="Deletions review">
        <div className="toolbar">
          <Select label="Status" value={status} onChange={(v) => (setStatus(v), setPage(1))} options={["pending_review", "reviewed"]} any={null} />
        </div>
      </PageHeader>
      <p className="muted">Accounts deleted by their owner, with what was tied to them. Records are kept until the retention date.</p>
      <FlashMessage flash={flash} />
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (loaded.data.items.length === 0 ? <Empty>No deletions {status.replace("_", " ")}.</Empty> : (
        <>
          <ul className="cards">
            {loaded.data.items.map((d) => (
              <li key={d.id} className="card">
                <h2>
                  Customer <code title={d.customerId}>{shortId(d.customerId)}</code> <Badge value={d.status} />
                </h2>
                <dl className="facts">
                  <dt>Deleted</dt>
                  <dd>{when(d.createdAt)} {d.via !== null && <span className="muted">via {d.via}</span>}</dd>
                  <dt>Last balance</dt>
                  <dd>{kobo(d.lastBalanceKobo)}</dd>
                  <dt>Tied records</dt>
                  <dd>{Object.entries(d.counts).map(([k, v]) => `${v} ${k}`).join(", ") || "none"}</dd>
                  <dt>Retain until</dt>
                  <dd>{when(d.retainUntil)}</dd>
                  {d.reviewedAt !== null && (
                    <>
                      <dt>Reviewed</dt>
                      <dd>{when(d.reviewedAt)} {d.reviewNote !== null && `— ${d.reviewNote}`}</dd>
                    </>
                  )}
                </dl>
                {d.status === "pending_review" && can("deletions:review") && (
                  <ReviewForm busy={busy} onReview={(note) => run(async () => {
                    await api.adminDeletions.review({ path: { id: d.id }, payload: note === "" ? {} : { note } })
                    loaded.reload()
                    return "Deletion marked reviewed."
                  })} />
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

const ReviewForm = ({ busy, onReview }: { readonly busy: boolean; readonly onReview: (note: string) => Promise<boolean> }) => {
  const [note, setNote] = useState("")
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void onReview(note)
  }
  return (
    <form className="inline-form" onSubmit={submit}>
      <TextInput label="Review note (optional)" value={note} onChange={setNote} />
      <button type="submit" disabled={busy}>Mark reviewed</button>
    </form>
  )
}
