import { type FormEvent, useState } from "react"
import { Link, useSearchParams } from "react-router"
import { api, query } from "../client.js"
import { Badge, Empty, LoadState, PageHeader, Pager, Select, TextInput, useLoad } from "../components/ui.js"
import { Table } from "../components/tables.js"
import { fullName, kobo, when } from "../format.js"

const STATUSES = ["unverified", "verified", "active", "suspended", "closing", "closed", "deleted"]
const KYC = ["pending", "bvn_verified", "fully_verified"]
const SORTS = ["newest", "oldest", "balance_desc", "balance_asc"]

export const CustomersPage = () => {
  const [params, setParams] = useSearchParams()
  const q = params.get("q") ?? ""
  const status = params.get("status") ?? ""
  const kyc = params.get("kyc") ?? ""
  const sort = params.get("sort") ?? "newest"
  const page = Number(params.get("page") ?? "1")
  const [draft, setDraft] = useState({ q, status, kyc, sort })

  const loaded = useLoad(
    () => query(api.adminCustomers.search, { q, status, kyc, sort, page, pageSize: 20 }),
    [q, status, kyc, sort, page]
  )

  const search = (e: FormEvent) => {
    e.preventDefault()
    const next: Record<string, string> = {}
    for (const [k, v] of Object.entries(draft)) if (v !== "") next[k] = v
    setParams(next)
  }

  return (
    <section>
      <PageHeader title="Customers" />
      <form className="filters card" role="search" aria-label="Search customers" onSubmit={search}>
        <TextInput
          label="Search"
          hint="Name, email, phone, account number, referral code or id"
          value={draft.q}
          onChange={(v) => setDraft({ ...draft, q: v })}
        />
        <Select label="Status" value={draft.status} onChange={(v) => setDraft({ ...draft, status: v })} options={STATUSES} />
        <Select label="KYC" value={draft.kyc} onChange={(v) => setDraft({ ...draft, kyc: v })} options={KYC} />
        <Select label="Sort" value={draft.sort} onChange={(v) => setDraft({ ...draft, sort: v })} options={SORTS} any={null} />
        <button type="submit">Search</button>
      </form>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        loaded.data.items.length === 0 ? <Empty>No customer matches.</Empty> : (
          <>
            <Table caption="Customers found" columns={["Name", "Email", "Phone", "Account", "Status", "KYC", { label: "Last balance", num: true }, "Joined"]}>
              {loaded.data.items.map((c) => (
                <tr key={c.id}>
                  <td><Link to={`/customers/${c.id}`}>{fullName(c)}</Link></td>
                  <td>{c.email}</td>
                  <td>{c.phone ?? "—"}</td>
                  <td>{c.accountNumber ?? "—"}</td>
                  <td><Badge value={c.customerStatus} /></td>
                  <td><Badge value={c.kycStatus} /></td>
                  <td className="num">{kobo(c.lastKnownBalanceKobo)}</td>
                  <td>{when(c.createdAt)}</td>
                </tr>
              ))}
            </Table>
            <Pager
              page={loaded.data.page}
              totalPages={loaded.data.totalPages}
              total={loaded.data.total}
              onPage={(p) => setParams({ ...Object.fromEntries(params), page: String(p) })}
            />
          </>
        )
      )}
    </section>
  )
}
