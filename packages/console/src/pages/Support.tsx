import { useState } from "react"
import { Link } from "react-router"
import { api, query } from "../client.js"
import { Badge, Empty, LoadState, PageHeader, Pager, Select, useLoad } from "../components/ui.js"
import { label, when } from "../format.js"

export const SupportPage = () => {
  const [status, setStatus] = useState("")
  const [category, setCategory] = useState("")
  const [page, setPage] = useState(1)
  const loaded = useLoad(() => query(api.adminSupport.queue, { status, category, page, pageSize: 20 }), [status, category, page])
  return (
    <section>
      <PageHeader title="Support desk">
        <div className="toolbar">
          <Select label="Status" value={status} onChange={(v) => (setStatus(v), setPage(1))} options={["open", "awaiting_customer", "resolved", "closed"]} />
          <Select
            label="Category"
            value={category}
            onChange={(v) => (setCategory(v), setPage(1))}
            options={["general", "deposit", "disbursement", "transfer", "account", "kyc"]}
          />
        </div>
      </PageHeader>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (loaded.data.items.length === 0 ? <Empty>No tickets.</Empty> : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Tickets, newest activity first</caption>
              <thead>
                <tr>
                  <th scope="col">Ticket</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col">Assigned</th>
                  <th scope="col">Last message</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.items.map((t) => (
                  <tr key={t.id}>
                    <td><Link to={`/support/${t.id}`}>{t.reference}</Link></td>
                    <td>{t.subject}</td>
                    <td>{label(t.category)}</td>
                    <td><Badge value={t.status} /></td>
                    <td>{t.assignedStaffId === null ? <span className="muted">nobody</span> : <code>{t.assignedStaffId.slice(0, 8)}</code>}</td>
                    <td>{when(t.lastMessageAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      ))}
    </section>
  )
}
