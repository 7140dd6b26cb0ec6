/** Tables shared by several pages: transactions and audit entries. */
import type { ReactNode } from "react"
import { Link } from "react-router"
import type { AuditEntry, Transaction } from "../client.js"
import { kobo, label, shortId, when } from "../format.js"
import { Badge, Empty } from "./ui.js"

export const TransactionsTable = ({ rows, caption, action, customerLinks = true }: {
  readonly rows: ReadonlyArray<Transaction>
  readonly caption: string
  readonly action?: (t: Transaction) => ReactNode
  readonly customerLinks?: boolean
}) =>
  rows.length === 0 ? <Empty>No transactions.</Empty> : (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Id</th>
            {customerLinks && <th scope="col">Customer</th>}
            <th scope="col">Purpose</th>
            <th scope="col" className="num">Amount</th>
            <th scope="col" className="num">Fee</th>
            <th scope="col">Status</th>
            <th scope="col">References</th>
            {action !== undefined && <th scope="col"><span className="sr-only">Actions</span></th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id}>
              <td>{when(t.createdAt)}</td>
              <td><code title={t.id}>{shortId(t.id)}</code></td>
              {customerLinks && <td><Link to={`/customers/${t.customerId}`}>{shortId(t.customerId)}</Link></td>}
              <td>{label(t.purpose)} <span className="muted">({t.type})</span></td>
              <td className="num">{kobo(t.amountKobo)}</td>
              <td className="num">{kobo(t.feeKobo)}</td>
              <td>
                <Badge value={t.status} />
                {t.failureReason !== null && <div className="muted small">{t.failureReason}</div>}
                {t.retryCount > 0 && <div className="muted small">{t.retryCount} retries</div>}
              </td>
              <td className="refs">
                {t.retrievalReference !== null && <code>{t.retrievalReference}</code>}
                {t.transferReference !== null && <code>{t.transferReference}</code>}
              </td>
              {action !== undefined && <td>{action(t)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )

const json = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v))

export const AuditTable = ({ rows, caption }: { readonly rows: ReadonlyArray<AuditEntry>; readonly caption: string }) =>
  rows.length === 0 ? <Empty>No audit entries.</Empty> : (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">#</th>
            <th scope="col">At</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.seq}>
              <td className="num">{a.seq}</td>
              <td>{when(a.at)}</td>
              <td>{a.actorKind} <code title={a.actorId}>{shortId(a.actorId)}</code></td>
              <td><code>{a.action}</code></td>
              <td>{a.targetKind} <code title={a.targetId}>{shortId(a.targetId)}</code></td>
              <td className="change">
                {a.before !== null && a.before !== undefined && <div><span className="muted">before</span> <code>{json(a.before)}</code></div>}
                {a.after !== null && a.after !== undefined && <div><span className="muted">after</span> <code>{json(a.after)}</code></div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
