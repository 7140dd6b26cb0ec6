import { Link } from "react-router"
import { api, type Result } from "../client.js"

type Alert = Result<typeof api.adminOps.listAlerts>[number]
import { useAuth } from "../auth.js"
import { attentionChanged } from "../components/attention.js"
import { Named } from "../components/Named.js"
import { Badge, Empty, FlashMessage, LoadState, PageHeader, useAction, useLoad } from "../components/ui.js"
import { label, shortId, when } from "../format.js"

export const AlertsPage = () => {
  const { can } = useAuth()
  const loaded = useLoad(() => api.adminOps.listAlerts(), [])
  const { flash, busy, run } = useAction()
  const acknowledge = (a: Alert) =>
    void run(async () => {
      await api.adminOps.acknowledgeAlert({ path: { id: a.id } })
      loaded.reload()
      attentionChanged()
      return `Alert “${label(a.kind)}” acknowledged.`
    })
  return (
    <section>
      <PageHeader title="Alerts">
        <div className="toolbar">
          <button type="button" className="secondary" onClick={loaded.reload}>Refresh</button>
        </div>
      </PageHeader>
      <p className="muted">Open alerts, newest first. Acknowledge one once it is dealt with.</p>
      <FlashMessage flash={flash} />
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (loaded.data.length === 0 ? <Empty>No open alerts.</Empty> : (
        <ul className="cards">
          {loaded.data.map((a) => (
            <li key={a.id} className={`card alert-${a.severity}`}>
              <h2><Badge value={a.severity} /> {label(a.kind)}</h2>
              <p>{a.message}</p>
              <p className="muted small">
                {a.occurrences} time{a.occurrences === 1 ? "" : "s"} · first {when(a.firstRaisedAt)} · last {when(a.lastRaisedAt)}
                {a.customerId !== null && can("customers:read") && (
                  <> · customer <Named id={a.customerId} name={a.customerName} to={`/customers/${a.customerId}`} /></>
                )}
                {a.transactionId !== null && (
                  <> · transaction <Link to={`/transactions?id=${a.transactionId}`}>{shortId(a.transactionId)}</Link></>
                )}
              </p>
              {can("alerts:ack") && (
                <button type="button" disabled={busy} onClick={() => acknowledge(a)}>
                  Acknowledge <span className="sr-only">{label(a.kind)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      ))}
    </section>
  )
}
