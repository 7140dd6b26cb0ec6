/** Tables shared by several pages: the table markup itself, transactions and audit entries. */
import type { ReactNode } from "react"
import type { AuditEntry, Transaction } from "../client.js"
import { kobo, label, shortId, when } from "../format.js"
import { CopyId, Named } from "./Named.js"
import { Badge, Empty } from "./ui.js"

/** A column's heading: its text, or its text and `num` for a column of numbers; `false` for a column left out. */
export type Column = string | { readonly label: ReactNode; readonly num?: boolean } | false

/** A table in its scrolling wrapper, with a caption for screen readers and one heading per column; `children` are its rows. */
export const Table = ({ caption, columns, children }: {
  readonly caption: string
  readonly columns: ReadonlyArray<Column>
  readonly children: ReactNode
}) => (
  <div className="table-wrap">
    <table>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c, i) =>
            c === false ? null : typeof c === "string"
              ? <th key={i} scope="col">{c}</th>
              : <th key={i} scope="col" className={c.num === true ? "num" : undefined}>{c.label}</th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
)

/** A transaction, named when the list gives its customer's name (the admin lists do; a customer's file does not). */
type Row = Omit<Transaction, "customerName" | "awaitsOperator"> & { readonly customerName?: string | null }

export const TransactionsTable = <T extends Row>({ rows, caption, action, customerLinks = true }: {
  readonly rows: ReadonlyArray<T>
  readonly caption: string
  readonly action?: (t: T) => ReactNode
  readonly customerLinks?: boolean
}) =>
  rows.length === 0 ? <Empty>No transactions.</Empty> : (
    <Table
      caption={caption}
      columns={[
        "Created",
        "Id",
        customerLinks && "Customer",
        "Purpose",
        { label: "Amount", num: true },
        { label: "Fee", num: true },
        "Status",
        "References",
        action !== undefined && { label: <span className="sr-only">Actions</span> }
      ]}
    >
      {rows.map((t) => (
        <tr key={t.id}>
          <td>{when(t.createdAt)}</td>
          <td><code title={t.id}>{shortId(t.id)}</code> <CopyId id={t.id} of={`transaction ${shortId(t.id)}`} /></td>
          {customerLinks && <td><Named id={t.customerId} name={t.customerName} to={`/customers/${t.customerId}`} /></td>}
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
    </Table>
  )

const json = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v))

export const AuditTable = ({ rows, caption }: { readonly rows: ReadonlyArray<AuditEntry>; readonly caption: string }) =>
  rows.length === 0 ? <Empty>No audit entries.</Empty> : (
    <Table caption={caption} columns={[{ label: "#", num: true }, "At", "Actor", "Action", "Target", "Change"]}>
      {rows.map((a) => (
        <tr key={a.seq}>
          <td className="num">{a.seq}</td>
          <td>{when(a.at)}</td>
          <td>{a.actorKind} {a.actorKind === "system" ? <code>{a.actorId}</code> : <Named id={a.actorId} name={a.actorName} />}</td>
          <td><code>{a.action}</code></td>
          <td>
            {a.targetKind}{" "}
            {a.targetName !== null && a.targetName !== undefined
              ? <Named id={a.targetId} name={a.targetName} to={a.targetKind === "customer" ? `/customers/${a.targetId}` : undefined} />
              : <code title={a.targetId}>{shortId(a.targetId)}</code>}
          </td>
          <td className="change">
            {a.before !== null && a.before !== undefined && <div><span className="muted">before</span> <code>{json(a.before)}</code></div>}
            {a.after !== null && a.after !== undefined && <div><span className="muted">after</span> <code>{json(a.after)}</code></div>}
          </td>
        </tr>
      ))}
    </Table>
  )
