import { type CustomerId } from "@app/client"
/** The customer's plan, readable: where it stands, what each payout is, when the next is due and where it goes. */
import { Link } from "react-router"
import { useAuth } from "../../auth.js"
import { api, type Result } from "../../client.js"
import { Badge, Empty, LoadState, useLoad } from "../../components/ui.js"
import { kobo, label } from "../../format.js"
import { basisPointsToPercent } from "../../settingsForm.js"

/** GET /admin/customers/{id}/plan: the plan with its per-cycle fee and Borrow and Extra Cash used (kobo as bigint). */
export type CustomerPlan = Result<typeof api.adminCustomers.plan>

/** An instant in the plan's own time zone, with the zone named: "28 Nov 2026, 09:00 (Africa/Lagos)". */
export const inZone = (iso: string, timeZone: string): string => {
  try {
    return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso))} (${timeZone})`
  } catch {
    return `${new Date(iso).toISOString().replace("T", " ").slice(0, 16)} UTC`
  }
}

const STATUS_WORDS: Record<string, string> = {
  awaiting_funds: "waiting for the wallet to cover the pot and its fees",
  active: "paying on schedule",
  depleted: "stopped: the wallet could not cover a payout; resumes once funded",
  paused: "stopped after repeated failures at the destination bank, until the plan is edited or the payout retried",
  completed: "every cycle paid"
}

export const PlanPanel = ({ customerId }: { readonly customerId: CustomerId }) => {
  const { can } = useAuth()
  const loaded = useLoad(() => api.adminCustomers.plan({ path: { id: customerId } }), [customerId])
  const p = loaded.data?.plan
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && p === null && <Empty>This customer has no plan.</Empty>}
      {p !== undefined && p !== null && (
        <>
          <p>
            <Badge value={p.status} /> <span className="muted">{STATUS_WORDS[p.status] ?? label(p.status)}</span>
          </p>
          <dl className="facts">
            <dt>Cycles paid</dt>
            <dd>{p.cyclesPaid} of {p.cyclesTotal}</dd>
            <dt>Each payout</dt>
            <dd>{kobo(p.amount)} <span className="muted">+ fee {kobo(p.perCycleFeeKobo)}</span></dd>
            <dt>Whole pot</dt>
            <dd>{kobo(p.totalAmountKobo)} <span className="muted">over {p.durationDays} days, {label(p.frequency)}{p.weekDay === null ? "" : ` on ${p.weekDay}`}</span></dd>
            <dt>Next due</dt>
            <dd>{p.nextDueAt === null ? "—" : inZone(p.nextDueAt, p.scheduledTimezone)}</dd>
            <dt>Pays to</dt>
            <dd>
              {p.withdrawalBankName} <span className="muted">(code {p.withdrawalBankCode})</span>, {p.withdrawalAccountNumber}, {p.withdrawalAccountName}
              {p.withdrawalBlocked && <><br /><strong>Payouts stopped</strong> after failures at this bank.</>}
            </dd>
            <dt>Borrow</dt>
            <dd>{p.borrow.used} of {p.borrow.cap} used</dd>
            <dt>Extra Cash</dt>
            <dd>
              {p.extraCash.usedTotal} of {p.extraCash.perPlan} used ({p.extraCash.usedToday} of {p.extraCash.perDay} today);
              fee {basisPointsToPercent(p.extraCash.feeBasisPoints.toString())}%
            </dd>
            <dt>Plan id</dt>
            <dd><code>{p.id}</code></dd>
          </dl>
          <p className="row">
            {can("transactions:read") && (
              <Link to={`/transactions?customerId=${customerId}`}>This customer's payouts and movements</Link>
            )}
            {p.status === "paused" && can("jobs:retry") && <Link to="/jobs">Retry its failed payout</Link>}
          </p>
        </>
      )}
    </section>
  )
}
