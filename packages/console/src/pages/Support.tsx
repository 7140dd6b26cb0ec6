import { useState } from "react"
import { Link, useSearchParams } from "react-router"
import { api, query } from "../client.js"
import { Named, NamedCustomer } from "../components/Named.js"
import { Table } from "../components/tables.js"
import { Badge, Empty, LoadState, PageHeader, Pager, Select, useLoad } from "../components/ui.js"
import { label, when } from "../format.js"

export const SupportPage = () => {
  // /support?status=open (from Needs attention) starts filtered
  const [params] = useSearchParams()
  const [status, setStatus] = useState(params.get("status") ?? "")
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
          <Table caption="Tickets, newest activity first" columns={["Ticket", "Subject", "Customer", "Category", "Status", "Assigned", "Last message"]}>
            {loaded.data.items.map((t) => (
              <tr key={t.id}>
                <td><Link to={`/support/${t.id}`}>{t.reference}</Link></td>
                <td>{t.subject}</td>
                <td><NamedCustomer id={t.customerId} name={t.customerName} /></td>
                <td>{label(t.category)}</td>
                <td><Badge value={t.status} /></td>
                <td>{t.assignedStaffId === null ? <span className="muted">nobody</span> : <Named id={t.assignedStaffId} name={t.assignedStaffName} />}</td>
                <td>{when(t.lastMessageAt)}</td>
              </tr>
            ))}
          </Table>
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      ))}
    </section>
  )
}
