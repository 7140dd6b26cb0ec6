/**
 * Staff management (superadmin: staff:read, staff:change_role, staff:deactivate, staff:invite):
 * the list of staff, inviting, resending a link, changing a role and deactivating or reactivating,
 * each change only after a confirmation that says what it does. The server refuses every other role
 * and any change of one's own role or status; the page does not offer them.
 */
import { type FormEvent, useState } from "react"
import { api, type Result } from "../client.js"
import { useAuth } from "../auth.js"
import { Badge, Empty, FlashMessage, LoadState, PageHeader, Select, TextInput, useAction, useLoad } from "../components/ui.js"
import { Table } from "../components/tables.js"
import { fullName, when } from "../format.js"

type Member = Result<typeof api.adminStaff.listStaff>["items"][number]
type Role = Member["role"]

const ROLES: ReadonlyArray<Role> = ["superadmin", "admin", "support", "officer"]

const ROLE_MEANS: Record<Role, string> = {
  superadmin: "everything, including settings and managing staff",
  admin: "runs the service: everything but settings changes and managing staff",
  support: "the support desk and reading what a customer's case needs",
  officer: "reads customers and answers their tickets"
}

type Pending =
  | { readonly kind: "role"; readonly member: Member; readonly role: Role }
  | { readonly kind: "deactivate"; readonly member: Member }
  | { readonly kind: "reactivate"; readonly member: Member }

const inviteText = (m: Member) =>
  m.pendingInvite === null
    ? "—"
    : m.pendingInvite.expired
    ? `expired ${when(m.pendingInvite.expiresAt)}`
    : `until ${when(m.pendingInvite.expiresAt)}`

const Confirmation = ({ pending, busy, onConfirm, onCancel }: {
  readonly pending: Pending
  readonly busy: boolean
  readonly onConfirm: () => void
  readonly onCancel: () => void
}) => {
  const name = fullName(pending.member)
  const [title, text, action] = pending.kind === "role"
    ? [
      "Confirm the role change",
      `Make ${name} ${pending.role} (now ${pending.member.role}): ${ROLE_MEANS[pending.role]}. Every session of theirs ends at once; they sign in again with the new role's permissions.`,
      `Confirm: make ${pending.role}`
    ]
    : pending.kind === "deactivate"
    ? [
      "Confirm deactivation",
      `Deactivate ${name}: they are signed out everywhere at once, their open invite and reset links stop working, and they cannot sign in until a superadmin reactivates them. Nothing they did is removed from the audit log.`,
      "Confirm: deactivate"
    ]
    : [
      "Confirm reactivation",
      `Reactivate ${name}: they can sign in again with their own password. A member who never set one becomes invited again: send them a new invite (their old links stay void).`,
      "Confirm: reactivate"
    ]
  return (
    <div className="confirm card staff-invite" role="group" aria-label={title}>
      <p>{text}</p>
      <div className="inline-form">
        <button type="button" className={pending.kind === "deactivate" ? "danger" : ""} disabled={busy} onClick={onConfirm}>{action}</button>
        <button type="button" className="secondary" disabled={busy} onClick={onCancel}>Cancel</button>
      </div>
    </div>
  )
}

const InviteForm = ({ busy, onInvite }: {
  readonly busy: boolean
  readonly onInvite: (input: { email: string; firstName: string; lastName: string; role: Role }) => Promise<boolean>
}) => {
  const [email, setEmail] = useState("")
  const [firstName, setFirstName] = useState("")
  const [lastName, setLastName] = useState("")
  const [role, setRole] = useState<Role>("officer")
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void onInvite({ email: email.trim(), firstName: firstName.trim(), lastName: lastName.trim(), role }).then((ok) => {
      if (ok) {
        setEmail("")
        setFirstName("")
        setLastName("")
      }
    })
  }
  return (
    <form className="card staff-invite" onSubmit={submit} aria-label="Invite a staff member">
      <h2>Invite a staff member</h2>
      <div className="inline-form">
        <TextInput label="Email" type="email" inputMode="email" value={email} onChange={setEmail} required />
        <TextInput label="First name" value={firstName} onChange={setFirstName} required />
        <TextInput label="Last name" value={lastName} onChange={setLastName} required />
        <Select label="Role" value={role} onChange={(v) => setRole(v as Role)} options={ROLES} any={null} />
        <button type="submit" disabled={busy || email.trim() === "" || firstName.trim() === "" || lastName.trim() === ""}>Send invite</button>
      </div>
      <p className="muted">They get an email with a link, valid 72 hours, to choose their password.</p>
    </form>
  )
}

export const StaffPage = () => {
  const { me, can } = useAuth()
  const loaded = useLoad(() => api.adminStaff.listStaff(), [])
  const { flash, busy, run } = useAction()
  const [pending, setPending] = useState<Pending | null>(null)
  const [roles, setRoles] = useState<Record<string, Role>>({})
  const members = loaded.data?.items ?? []

  const act = (action: () => Promise<string>) =>
    run(async () => {
      const text = await action()
      loaded.reload()
      return text
    })

  const invite = (input: { email: string; firstName: string; lastName: string; role: Role }) =>
    act(async () => {
      const m = await api.adminStaff.invite({ payload: input })
      return `Invited ${fullName(m)} as ${m.role}: the link was emailed to ${m.email}.`
    })

  const sendLink = (m: Member) =>
    void act(async () => {
      const sent = await api.adminStaff.sendLink({ path: { id: m.id }, payload: null })
      return sent.purpose === "invite" ? `Invite sent again to ${sent.admin.email}.` : `Password reset link sent to ${sent.admin.email}.`
    })

  const confirm = () => {
    if (pending === null) return
    const m = pending.member
    void act(async () => {
      if (pending.kind === "role") {
        const changed = await api.adminStaff.changeRole({ path: { id: m.id }, payload: { role: pending.role } })
        return `${fullName(changed)} is now ${changed.role}; their sessions ended.`
      }
      if (pending.kind === "deactivate") {
        const off = await api.adminStaff.deactivateStaff({ path: { id: m.id } })
        return `${fullName(off)} is deactivated: signed out, links void, no sign-in.`
      }
      const on = await api.adminStaff.reactivateStaff({ path: { id: m.id } })
      return `${fullName(on)} is reactivated (${on.status}).`
    }).then((ok) => ok && setPending(null))
  }

  return (
    <section>
      <PageHeader title="Staff" />
      <FlashMessage flash={flash} />
      {can("staff:invite") && <InviteForm busy={busy} onInvite={invite} />}
      {pending !== null && <Confirmation pending={pending} busy={busy} onConfirm={confirm} onCancel={() => setPending(null)} />}
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (members.length === 0 ? <Empty>No staff.</Empty> : (
        <Table caption="Staff members" columns={["Name", "Email", "Role", "Status", "Last sign-in", "Invite", "Actions"]}>
          {members.map((m) => {
            const name = fullName(m)
            const self = m.id === me?.id
            const next = roles[m.id] ?? m.role
            return (
              <tr key={m.id}>
                <th scope="row">{name}{self && <span className="muted"> (you)</span>}</th>
                <td>{m.email}</td>
                <td><Badge value={m.role} /></td>
                <td><Badge value={m.status} /></td>
                <td>{when(m.lastSignInAt)}</td>
                <td>{inviteText(m)}</td>
                <td>
                  {self
                    ? <span className="muted">You cannot change your own role or status.</span>
                    : (
                      <div className="row-actions">
                        {m.status !== "disabled" && can("staff:send_link") && (
                          <button type="button" className="secondary small" disabled={busy} aria-label={`${m.status === "invited" ? "Resend invite to" : "Send a reset link to"} ${name}`} onClick={() => sendLink(m)}>
                            {m.status === "invited" ? "Resend invite" : "Send reset link"}
                          </button>
                        )}
                        {can("staff:change_role") && (
                          <>
                            <select aria-label={`New role for ${name}`} value={next} onChange={(e) => setRoles({ ...roles, [m.id]: e.target.value as Role })}>
                              {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                            </select>
                            <button type="button" className="secondary small" disabled={busy || next === m.role} aria-label={`Change role of ${name}`} onClick={() => setPending({ kind: "role", member: m, role: next })}>
                              Change role…
                            </button>
                          </>
                        )}
                        {can("staff:deactivate") && (m.status === "disabled"
                          ? (
                            <button type="button" className="secondary small" disabled={busy} aria-label={`Reactivate ${name}`} onClick={() => setPending({ kind: "reactivate", member: m })}>
                              Reactivate…
                            </button>
                          )
                          : (
                            <button type="button" className="danger small" disabled={busy} aria-label={`Deactivate ${name}`} onClick={() => setPending({ kind: "deactivate", member: m })}>
                              Deactivate…
                            </button>
                          ))}
                      </div>
                    )}
                </td>
              </tr>
            )
          })}
        </Table>
      ))}
    </section>
  )
}
