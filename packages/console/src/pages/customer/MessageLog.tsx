import { type CustomerId } from "@app/client"
/**
 * The emails and SMS sent to the customer, for "I did not get my code": when, which kind, by which
 * channel, to which (masked) address, whether it went out, and where a code stands. Never a code.
 */
import { api, type Result } from "../../client.js"
import { Badge, Empty, LoadState, useLoad } from "../../components/ui.js"
import { Table } from "../../components/tables.js"
import { label, when } from "../../format.js"

/** One row of GET /admin/customers/{id}/messages. */
export type LoggedMessage = Result<typeof api.adminCustomers.messages>[number]

const STATUS_WORDS: Record<LoggedMessage["status"], string> = {
  pending: "queued, not sent yet",
  sent: "handed to the provider",
  failed: "not delivered: given up"
}

const CODE_WORDS: Record<NonNullable<LoggedMessage["codeState"]>, string> = {
  used: "used",
  replaced: "replaced by a newer code",
  locked: "too many wrong tries",
  expired: "expired unused",
  open: "still valid"
}

const delivery = (m: LoggedMessage) =>
  [
    STATUS_WORDS[m.status],
    m.sentAt !== null && m.source === "outbox" ? `at ${when(m.sentAt)}` : null,
    m.deliveryAttempts !== null && m.deliveryAttempts > 1 ? `${m.deliveryAttempts} attempts` : null,
    m.lastError === null ? null : `last error: ${m.lastError}`
  ].filter(Boolean).join(", ")

export const MessageLog = ({ customerId }: { readonly customerId: CustomerId }) => {
  const loaded = useLoad(() => api.adminCustomers.messages({ path: { id: customerId } }), [customerId])
  return (
    <section aria-labelledby="messages-title">
      <h2 id="messages-title">Messages sent</h2>
      <p className="muted small">
        Emails and SMS to this customer, newest first: codes (never shown) and notifications. A code "handed to the provider" that
        the customer did not get points at their inbox or network; a failed one raised an alert.
      </p>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (loaded.data.length === 0 ? <Empty>No messages sent.</Empty> : (
        <Table caption="Messages sent to this customer" columns={["When", "What", "Channel", "To", "Delivery", "Code"]}>
          {loaded.data.map((m) => (
            <tr key={`${m.source}:${m.id}`}>
              <td>{when(m.createdAt)}</td>
              <td>{label(m.kind)}</td>
              <td>{m.channel === "sms" ? "SMS" : "email"}</td>
              <td><code>{m.destination}</code></td>
              <td><Badge value={m.status} /> <span className="small">{delivery(m)}</span></td>
              <td>
                {m.codeState === null ? <span className="muted">no code</span> : (
                  <>
                    {CODE_WORDS[m.codeState]}
                    {m.codeState === "open" && m.codeExpiresAt !== null && <span className="muted small"> until {when(m.codeExpiresAt)}</span>}
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ))}
    </section>
  )
}
