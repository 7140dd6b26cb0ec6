import { type CustomerId } from "@app/client"
/**
 * Freezing and unfreezing a customer, each only after a confirmation that says what will happen:
 * what the customer can no longer do (or can again), that the account is frozen (or released) at
 * the bank, and where four-eyes applies (an unfreeze, when the service runs with it).
 */
import { type FormEvent, useState } from "react"
import { api } from "../client.js"
import { useAuth } from "../auth.js"
import { label } from "../format.js"
import { attentionChanged } from "./attention.js"
import { TextArea } from "./ui.js"

export const FreezeControls = ({ customerId, name, status, busy, run, onDone }: {
  readonly customerId: CustomerId
  readonly name: string
  readonly status: string
  readonly busy: boolean
  readonly run: (action: () => Promise<string>) => Promise<boolean>
  readonly onDone: () => void
}) => {
  const { can } = useAuth()
  const [reason, setReason] = useState("")
  const [confirming, setConfirming] = useState(false)

  const freeze = () =>
    void run(async () => {
      const answer = await api.adminCustomers.freeze({ path: { id: customerId }, payload: { reason: reason.trim() } })
      setReason("")
      setConfirming(false)
      onDone()
      attentionChanged()
      return `Frozen: customer ${answer.customerStatus}, bank freeze ${label(answer.providerFreeze)}.`
    })
  const unfreeze = () =>
    void run(async () => {
      const answer = await api.adminCustomers.unfreeze({ path: { id: customerId } })
      setConfirming(false)
      onDone()
      attentionChanged()
      return "pendingApproval" in answer
        ? "Unfreeze requested: it waits for a second member's approval."
        : `Unfrozen: customer ${answer.customerStatus}, bank freeze ${label(answer.providerFreeze)}.`
    })
  const ask = (e: FormEvent) => {
    e.preventDefault()
    setConfirming(true)
  }
  const cancel = <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(false)}>Cancel</button>

  if (status === "suspended") {
    if (!can("customers:unfreeze")) {
      return (
        <>
          <p>This customer is <strong>frozen</strong>: sessions are revoked and money cannot move.</p>
          <p className="muted">Your role cannot unfreeze customers.</p>
        </>
      )
    }
    return (
      <>
        <p>This customer is <strong>frozen</strong>: sessions are revoked and money cannot move.</p>
        {!confirming
          ? <button type="button" disabled={busy} onClick={() => setConfirming(true)}>Unfreeze customer…</button>
          : (
            <div className="confirm" role="group" aria-label="Confirm the unfreeze">
              <p>Unfreeze <strong>{name}</strong>?</p>
              <ul>
                <li>The account is released at the bank first; only when the bank agrees does the customer get back the status they had.</li>
                <li>They can then sign in again, move money, and their plan's payouts resume.</li>
                <li>Four-eyes: when the service runs with it, this files a request a second member must approve; the customer stays frozen until then.</li>
              </ul>
              <div className="inline-form">
                <button type="button" disabled={busy} onClick={unfreeze}>Confirm: unfreeze</button>
                {cancel}
              </div>
            </div>
          )}
      </>
    )
  }
  if (!can("customers:freeze")) return <p className="muted">Your role cannot freeze customers.</p>
  return (
    <form onSubmit={ask}>
      <p className="muted">Suspends the customer, revokes every session and freezes the account at the bank.</p>
      <TextArea label="Reason for freezing" value={reason} onChange={setReason} required />
      {!confirming
        ? <button type="submit" className="danger" disabled={busy || reason.trim() === ""}>Freeze customer…</button>
        : (
          <div className="confirm" role="group" aria-label="Confirm the freeze">
            <p>Freeze <strong>{name}</strong> now?</p>
            <ul>
              <li>They are signed out everywhere and cannot sign in, transfer, withdraw, Borrow or take Extra Cash; their plan's payouts stop.</li>
              <li>Their bank account is frozen at the bank (after any movement in flight finishes).</li>
              <li>Four-eyes does not delay a freeze: it applies at once. Unfreezing may need a second member's approval.</li>
            </ul>
            <p className="muted small">Reason: {reason.trim()}</p>
            <div className="inline-form">
              <button type="button" className="danger" disabled={busy} onClick={freeze}>Confirm: freeze</button>
              {cancel}
            </div>
          </div>
        )}
    </form>
  )
}
