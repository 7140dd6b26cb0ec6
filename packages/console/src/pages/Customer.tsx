import { CustomerId } from "@app/client"
import { Link, useParams } from "react-router"
import { api } from "../client.js"
import { useAuth } from "../auth.js"
import { FreezeControls } from "../components/FreezeControls.js"
import { AuditTable, TransactionsTable } from "../components/tables.js"
import { Badge, Empty, FlashMessage, LoadState, PageHeader, useAction, useLoad } from "../components/ui.js"
import { fullName, kobo, when } from "../format.js"
import { MessageLog } from "./customer/MessageLog.js"
import { PlanPanel } from "./customer/PlanPanel.js"

export const CustomerPage = () => {
  const id = CustomerId.make(useParams().id ?? "")
  const { can } = useAuth()
  const loaded = useLoad(() => api.adminCustomers.detail({ path: { id } }), [id])
  const { flash, busy, run } = useAction()
  const file = loaded.data

  return (
    <section>
      <PageHeader title={file === undefined ? "Customer" : fullName(file.customer)}>
        <Link to="/customers" className="back">← All customers</Link>
      </PageHeader>
      <LoadState loaded={loaded} />
      <FlashMessage flash={flash} />
      {file !== undefined && (
        <>
          <div className="two-col">
            <div className="card">
              <h2>Profile</h2>
              <dl className="facts">
                <dt>Status</dt>
                <dd><Badge value={file.customer.customerStatus} /></dd>
                <dt>KYC</dt>
                <dd><Badge value={file.customer.kycStatus} /></dd>
                <dt>Email</dt>
                <dd>{file.customer.email}</dd>
                <dt>Phone</dt>
                <dd>{file.customer.phone ?? "—"}</dd>
                <dt>Account number</dt>
                <dd>{file.customer.accountNumber ?? "—"}</dd>
                <dt>Balance at the bank</dt>
                <dd>{kobo(file.liveBalanceKobo)} <span className="muted">(last seen {kobo(file.customer.lastKnownBalanceKobo)})</span></dd>
                <dt>Referral code</dt>
                <dd><code>{file.customer.referralCode}</code></dd>
                <dt>Joined</dt>
                <dd>{when(file.customer.createdAt)}</dd>
                <dt>Customer id</dt>
                <dd><code>{file.customer.id}</code></dd>
                {file.kyc !== null && (
                  <>
                    <dt>BVN verified</dt>
                    <dd>{file.kyc.bvnVerified ? "yes" : "no"}</dd>
                    <dt>Address</dt>
                    <dd>{file.kyc.address ?? "—"}</dd>
                  </>
                )}
              </dl>
            </div>
            <div className="card">
              <h2>Account freeze</h2>
              <FreezeControls
                customerId={id}
                name={fullName(file.customer)}
                status={file.customer.customerStatus}
                busy={busy}
                run={run}
                onDone={loaded.reload}
              />
            </div>
          </div>
          <PlanPanel customerId={file.customer.id} />
          <h2>
            Recent transactions{" "}
            {can("transactions:read") && <Link to={`/transactions?customerId=${file.customer.id}`} className="small">search all</Link>}
          </h2>
          <TransactionsTable rows={file.recentTransactions} caption="Recent transactions" customerLinks={false} />
          <div className="two-col">
            <div>
              <h2>Support tickets</h2>
              {file.tickets.length === 0 ? <Empty>No tickets.</Empty> : (
                <ul className="plain">
                  {file.tickets.map((t) => (
                    <li key={t.id}>
                      {can("support:read") ? <Link to={`/support/${t.id}`}>{t.reference}</Link> : t.reference} {t.subject}{" "}
                      <Badge value={t.status} />
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div>
              <h2>Notices</h2>
              {file.notices.length === 0 ? <Empty>No notices.</Empty> : (
                <ul className="plain">
                  {file.notices.map((n) => <li key={n.id}><span className="muted">{when(n.createdAt)}</span> {n.message}</li>)}
                </ul>
              )}
            </div>
          </div>
          <MessageLog customerId={file.customer.id} />
          <h2>Audit trail</h2>
          <AuditTable rows={file.audit} caption="Audit trail of this customer" />
        </>
      )}
    </section>
  )
}
