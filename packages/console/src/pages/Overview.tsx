import { useMemo, useState } from "react"
import { api, query } from "../client.js"
import { type ChartSeries, DailyChart } from "../components/Chart.js"
import { LoadState, PageHeader, Select, useLoad } from "../components/ui.js"
import { kobo, label, nairaAxis, nairaNumber } from "../format.js"

const count = (n: number) => String(Math.round(n))

export const OverviewPage = () => {
  const [days, setDays] = useState("30")
  const loaded = useLoad(() => query(api.adminOverview.overview, { days: Number(days) }), [days])
  const o = loaded.data

  const charts = useMemo(() => {
    if (o === undefined) return null
    const dates = o.series.map((d) => d.date)
    const signUps: ReadonlyArray<ChartSeries> = [{ label: "Sign-ups", color: "#2563eb", values: o.series.map((d) => d.signUps) }]
    const deposits: ReadonlyArray<ChartSeries> = [{
      label: "Deposits",
      color: "#0f766e",
      values: o.series.map((d) => nairaNumber(d.deposits.amountKobo))
    }]
    const moneyOut: ReadonlyArray<ChartSeries> = [
      { label: "Manual transfers", color: "#7c3aed", values: o.series.map((d) => nairaNumber(d.moneyOut.manualTransfer.amountKobo)) },
      { label: "Plan payouts", color: "#0891b2", values: o.series.map((d) => nairaNumber(d.moneyOut.disbursement.amountKobo)) },
      { label: "Early withdrawals", color: "#d97706", values: o.series.map((d) => nairaNumber(d.moneyOut.earlyWithdrawal.amountKobo)) }
    ]
    const payouts: ReadonlyArray<ChartSeries> = [
      { label: "Paid", color: "#16a34a", values: o.series.map((d) => d.disbursements.paid) },
      { label: "Failed", color: "#dc2626", values: o.series.map((d) => d.disbursements.failed) }
    ]
    return { dates, signUps, deposits, moneyOut, payouts }
  }, [o])

  return (
    <section>
      <PageHeader title="Overview">
        <div className="toolbar">
          <Select label="Window (days)" value={days} onChange={(v) => setDays(v || "30")} options={["7", "30", "90", "365"]} any={null} />
        </div>
      </PageHeader>
      <LoadState loaded={loaded} />
      {o !== undefined && charts !== null && (
        <>
          <p className="muted">
            {o.from} to {o.to} (UTC) · as of {new Date(o.asOf).toLocaleTimeString()}
          </p>
          <div className="kpis">
            <Kpi title="Customers" value={String(o.customers.total)} detail={`${o.customers.byStatus.active ?? 0} active · ${o.customers.byStatus.suspended ?? 0} suspended`} />
            <Kpi title="Active plans" value={String(o.activePlans)} />
            <Kpi title="Pending movements" value={String(o.pending.count)} detail={kobo(o.pending.amountKobo)} />
            <Kpi title={`Deposits, ${o.days} days`} value={kobo(o.totals.deposits.amountKobo)} detail={`${o.totals.deposits.count} deposits`} />
            <Kpi title={`Sign-ups, ${o.days} days`} value={String(o.totals.signUps)} />
            <Kpi title={`Payouts, ${o.days} days`} value={`${o.totals.disbursements.paid} paid`} detail={`${o.totals.disbursements.failed} failed`} />
          </div>
          <div className="charts">
            <DailyChart title="Sign-ups per day" dates={charts.dates} series={charts.signUps} format={count} integer />
            <DailyChart title="Deposits per day" dates={charts.dates} series={charts.deposits} format={nairaAxis} />
            <DailyChart title="Money out per day" dates={charts.dates} series={charts.moneyOut} format={nairaAxis} kind="lines" />
            <DailyChart title="Plan payouts per day" dates={charts.dates} series={charts.payouts} format={count} kind="lines" integer />
          </div>
          <div className="two-col">
            <Breakdown title="Customers by status" figures={o.customers.byStatus} />
            <Breakdown title="Customers by KYC" figures={o.customers.byKyc} />
          </div>
        </>
      )}
    </section>
  )
}

const Kpi = ({ title, value, detail }: { readonly title: string; readonly value: string; readonly detail?: string }) => (
  <div className="kpi card">
    <span className="kpi-title">{title}</span>
    <strong className="kpi-value">{value}</strong>
    {detail !== undefined && <span className="muted">{detail}</span>}
  </div>
)

const Breakdown = ({ title, figures }: { readonly title: string; readonly figures: Record<string, number> }) => (
  <div className="card">
    <h2>{title}</h2>
    <table>
      <tbody>
        {Object.entries(figures).map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{label(k)}</th>
            <td className="num">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)
