import { useState } from "react"
import { Link } from "react-router"
import { api, query, type Transaction } from "../client.js"
import { useAuth } from "../auth.js"
import { TransactionsTable } from "../components/tables.js"
import { FlashMessage, LoadState, PageHeader, Pager, useAction, useLoad } from "../components/ui.js"
import { shortId } from "../format.js"

/**
 * Payouts that failed after their retries (GET /jobs/failed). Retry (jobs:retry) makes the plan
 * due now: the next due-payout run pays it through the saga; find a row on the transactions page.
 */
export const FailedJobsPage = () => {
  const { can } = useAuth()
  const [page, setPage] = useState(1)
  const [version, setVersion] = useState(0)
  const loaded = useLoad(() => query(api.adminLedger.failedJobs, { page, pageSize: 20 }), [page, version])
  const { flash, busy, run } = useAction()
  const retry = (t: Transaction) =>
    void run(async () => {
      const answer = await api.adminLedger.retryFailedJob({ path: { id: t.id } })
      setVersion((v) => v + 1)
      return `Plan ${shortId(answer.planId)} is ${answer.state} and due now: the next payout run pays it.`
    })
  const actions = (t: Transaction) => (
    <span className="row-actions">
      {can("transactions:read") && <Link to={`/transactions?id=${t.id}`} className="small">Find</Link>}
      {can("jobs:retry") && (
        <button type="button" className="secondary small" disabled={busy} onClick={() => retry(t)}>
          Retry<span className="sr-only"> payout {shortId(t.id)}</span>
        </button>
      )}
    </span>
  )
  return (
    <section>
      <PageHeader title="Failed jobs" />
      <p className="muted">Plan payouts that failed after their retries, newest first.</p>
      <FlashMessage flash={flash} />
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        <>
          <TransactionsTable
            rows={loaded.data.items}
            caption="Failed payouts"
            {...(can("transactions:read") || can("jobs:retry") ? { action: actions } : {})}
          />
          <Pager page={loaded.data.page} totalPages={loaded.data.totalPages} total={loaded.data.total} onPage={setPage} />
        </>
      )}
    </section>
  )
}
