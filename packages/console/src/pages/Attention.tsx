/**
 * Needs attention: everything waiting on staff on one page (GET /admin/attention), each kind with
 * its count and first rows, each row linking to where it is dealt with: an alert to the alerts
 * (or the movement it is about), a four-eyes request to the approvals, a movement to the
 * transactions filtered to it (requery, resolve), a ticket to the ticket. Kinds the member's role
 * may not see are not shown.
 */
import type { ReactNode } from "react"
import { Link } from "react-router"
import { type Attention, useAttention } from "../components/attention.js"
import { NamedCustomer } from "../components/Named.js"
import { Badge, Empty, PageHeader } from "../components/ui.js"
import { kobo, label, shortId, when } from "../format.js"

interface Counted<A> {
  readonly count: number
  readonly items: ReadonlyArray<A>
}

const Kind = <A,>({ title, counted, all, allLabel, empty, row }: {
  readonly title: string
  readonly counted: Counted<A> | null
  readonly all: string
  readonly allLabel: string
  readonly empty: string
  readonly row: (a: A) => ReactNode
}) =>
  counted === null ? null : (
    <section className="card attention-kind" aria-labelledby={`kind-${all.slice(1)}`}>
      <h2 id={`kind-${all.slice(1)}`}>
        {title} <span className={`count${counted.count === 0 ? " zero" : ""}`}>{counted.count}</span>
      </h2>
      {counted.items.length === 0 ? <Empty>{empty}</Empty> : <ul className="plain attention-rows">{counted.items.map(row)}</ul>}
      {counted.count > counted.items.length && <p className="small"><Link to={all}>{allLabel} ({counted.count})</Link></p>}
    </section>
  )

const approvalText = (a: NonNullable<Attention["approvals"]>["items"][number]) =>
  a.action._tag === "settings.update"
    ? `Set ${a.action.key}`
    : a.action._tag === "movement.resolve"
    ? `Resolve movement ${shortId(a.action.transactionId)} as ${label(a.action.outcome)}`
    : `Unfreeze customer ${shortId(a.action.customerId)}`

export const AttentionPage = () => {
  const { attention, error } = useAttention()
  const customer = (id: string | null, name: string | null | undefined) => id === null ? null : <NamedCustomer id={id} name={name} />
  return (
    <section>
      <PageHeader title="Needs attention" />
      <p className="muted">What waits on staff now, oldest problems first where it matters. Each row links to where it is dealt with.</p>
      {error && <p role="alert" className="flash error">Could not load what needs attention.</p>}
      {attention === null ? <p className="muted" aria-live="polite">Loading…</p> : (
        <div className="attention-grid">
          <Kind
            title="Movements stuck or awaiting an operator"
            counted={attention.movements}
            all="/transactions?status=pending"
            allLabel="All pending movements"
            empty="No movement is stuck."
            row={(t) => (
              <li key={t.id}>
                <Link to={`/transactions?id=${t.id}`}>{t.awaitsOperator ? "Resolve movement" : "Requery"} {shortId(t.id)}</Link>{" "}
                {t.awaitsOperator ? <Badge value="awaiting_operator" /> : <Badge value="stuck" />} {label(t.purpose)} {kobo(t.amountKobo)} ·{" "}
                {customer(t.customerId, t.customerName)} <span className="muted small">since {when(t.createdAt)}</span>
              </li>
            )}
          />
          <Kind
            title="Open alerts"
            counted={attention.alerts}
            all="/alerts"
            allLabel="All open alerts"
            empty="No open alerts."
            row={(a) => (
              <li key={a.id}>
                <Badge value={a.severity} /> <Link to={a.transactionId !== null && a.kind === "reversal_refused" ? `/transactions?id=${a.transactionId}` : "/alerts"}>
                  {label(a.kind)}
                </Link>{" "}
                {customer(a.customerId, a.customerName)} <span className="muted small">{when(a.lastRaisedAt)}</span>
              </li>
            )}
          />
          <Kind
            title="Approvals waiting"
            counted={attention.approvals}
            all="/approvals"
            allLabel="All pending approvals"
            empty="No request waits for a second member."
            row={(a) => (
              <li key={a.id}>
                <Link to="/approvals">{approvalText(a)}</Link>{" "}
                <span className="muted small">requested by {a.requestedByName ?? shortId(a.requestedBy)} · {when(a.requestedAt)}</span>
              </li>
            )}
          />
          <Kind
            title="Tickets waiting on staff"
            counted={attention.tickets}
            all="/support?status=open"
            allLabel="All open tickets"
            empty="No ticket waits on staff."
            row={(t) => (
              <li key={t.id}>
                <Link to={`/support/${t.id}`}>{t.reference}</Link> {t.subject} · {customer(t.customerId, t.customerName)}{" "}
                <span className="muted small">{when(t.lastMessageAt)}</span>
              </li>
            )}
          />
        </div>
      )}
    </section>
  )
}
