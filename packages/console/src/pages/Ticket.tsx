import { StaffId, TicketId } from "@app/client"
import { type FormEvent, useState } from "react"
import { Link, useParams } from "react-router"
import { api } from "../client.js"
import { useAuth } from "../auth.js"
import { attentionChanged } from "../components/attention.js"
import { Named, NamedCustomer } from "../components/Named.js"
import { Badge, Empty, FlashMessage, LoadState, PageHeader, TextArea, useAction, useLoad } from "../components/ui.js"
import { label, shortId, when } from "../format.js"

/**
 * One ticket: the conversation the customer sees on the left, internal notes (staff only, never
 * shown to the customer) apart on the right, each with its own form.
 */
export const TicketPage = () => {
  const id = TicketId.make(useParams().id ?? "")
  const { can, me } = useAuth()
  const loaded = useLoad(() => api.adminSupport.ticket({ path: { id } }), [id])
  const { flash, busy, run } = useAction()
  const [reply, setReply] = useState("")
  const [note, setNote] = useState("")
  const thread = loaded.data
  const closed = thread?.ticket.status === "closed"

  const sendReply = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await api.adminSupport.reply({ path: { id }, payload: { message: reply } })
      setReply("")
      loaded.reload()
      attentionChanged()
      return "Reply sent to the customer."
    })
  }
  const addNote = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      await api.adminSupport.note({ path: { id }, payload: { note } })
      setNote("")
      loaded.reload()
      attentionChanged()
      return "Internal note added."
    })
  }
  const act = (path: "resolve" | "close", done: string) =>
    void run(async () => {
      await api.adminSupport[path]({ path: { id } })
      loaded.reload()
      attentionChanged()
      return done
    })
  const assign = (staffId: string | null) =>
    void run(async () => {
      await api.adminSupport.assign({ path: { id }, payload: { staffId: staffId === null ? null : StaffId.make(staffId) } })
      loaded.reload()
      attentionChanged()
      return staffId === null ? "Ticket unassigned." : "Ticket assigned to you."
    })

  return (
    <section>
      <PageHeader title={thread === undefined ? "Ticket" : `${thread.ticket.reference}: ${thread.ticket.subject}`}>
        <Link to="/support" className="back">← All tickets</Link>
      </PageHeader>
      <LoadState loaded={loaded} />
      <FlashMessage flash={flash} />
      {thread !== undefined && (
        <>
          <div className="ticket-meta card">
            <Badge value={thread.ticket.status} />
            <span>{label(thread.ticket.category)}</span>
            <span>
              Customer{" "}
              <NamedCustomer id={thread.ticket.customerId} name={thread.ticket.customerName} />
            </span>
            <span>
              Assigned:{" "}
              {thread.ticket.assignedStaffId === null
                ? "nobody"
                : thread.ticket.assignedStaffId === me?.id
                ? "you"
                : <Named id={thread.ticket.assignedStaffId} name={thread.ticket.assignedStaffName} />}
            </span>
            <span className="actions">
              {can("support:assign") && me !== null && thread.ticket.assignedStaffId !== me.id && (
                <button type="button" className="secondary small" disabled={busy} onClick={() => assign(me.id)}>Assign to me</button>
              )}
              {can("support:assign") && thread.ticket.assignedStaffId !== null && (
                <button type="button" className="secondary small" disabled={busy} onClick={() => assign(null)}>Unassign</button>
              )}
              {can("support:resolve") && thread.ticket.status !== "resolved" && !closed && (
                <button type="button" className="secondary small" disabled={busy} onClick={() => act("resolve", "Ticket resolved.")}>Resolve</button>
              )}
              {can("support:resolve") && !closed && (
                <button type="button" className="secondary small" disabled={busy} onClick={() => act("close", "Ticket closed.")}>Close</button>
              )}
            </span>
          </div>
          <div className="desk">
            <section className="conversation" aria-labelledby="conversation-title">
              <h2 id="conversation-title">Conversation <span className="muted small">(the customer sees this)</span></h2>
              <ol className="messages">
                {thread.messages.map((m) => (
                  <li key={m.id} className={`message from-${m.authorKind}`}>
                    <div className="message-head">
                      <strong>
                        {m.authorId === me?.id
                          ? "You"
                          : `${m.authorName ?? shortId(m.authorId)}${m.authorKind === "customer" ? " (customer)" : ""}`}
                      </strong>
                      <span className="muted">{when(m.createdAt)}</span>
                    </div>
                    <p>{m.body}</p>
                  </li>
                ))}
              </ol>
              {can("support:reply") && !closed && (
                <form onSubmit={sendReply}>
                  <TextArea label="Reply to the customer" value={reply} onChange={setReply} rows={4} required />
                  <button type="submit" disabled={busy || reply.trim() === ""}>Send reply</button>
                </form>
              )}
              {closed && <p className="muted">This ticket is closed: no more replies.</p>}
            </section>
            <section className="notes" aria-labelledby="notes-title">
              <h2 id="notes-title">Internal notes <span className="tag-internal">Staff only</span></h2>
              <p className="muted small">Never shown to the customer.</p>
              {thread.notes.length === 0 ? <Empty>No notes yet.</Empty> : (
                <ol className="messages">
                  {thread.notes.map((n) => (
                    <li key={n.id} className="message note">
                      <div className="message-head">
                        <strong>{n.staffId === me?.id ? "You" : n.staffName ?? `Staff ${shortId(n.staffId)}`}</strong>
                        <span className="muted">{when(n.createdAt)}</span>
                      </div>
                      <p>{n.body}</p>
                    </li>
                  ))}
                </ol>
              )}
              {can("support:note") && (
                <form onSubmit={addNote}>
                  <TextArea label="Internal note" value={note} onChange={setNote} rows={3} required />
                  <button type="submit" className="secondary" disabled={busy || note.trim() === ""}>Add note</button>
                </form>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  )
}
