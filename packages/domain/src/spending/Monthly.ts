/**
 * The monthly job: from the 1st (hourly on the 1st to the 3rd, so a scheduler down on the 1st
 * catches up), last month's report to every customer who logged a spending in it and has email
 * enabled (an optional message: notifications/Preferences.ts).
 *
 * At most once per customer and month, however many scheduler processes run: the report is claimed
 * (customer, month) in the database (a primary key; `SpendingRepo.claimMonthlyReport`) before it is
 * sent. A crash between the claim and the send loses that one email rather than sending it twice.
 * Customers are read in batches by id (keyset), leaving out those already claimed, so a run after
 * a run (the job fires hourly on the 1st to the 3rd) only picks up who was missed.
 */
import { Effect, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { mayReceive, settingsOf } from "../notifications/Preferences.js"
import { Notifier } from "../notifications/Ports.js"
import { now } from "../shared/UseCase.js"
import { reportMessage } from "./Mail.js"
import { SpendingRepo } from "./Ports.js"
import { reportFor } from "./Report.js"
import { firstDayOf, lastDayOf, monthOf, previousMonth, todayIn } from "./Rules.js"
import { withSpan } from "../shared/Spans.js"
import { CustomerId } from "../shared/Ids.js"

export interface MonthlyRun {
  readonly month: string
  /** reports this run claimed and sent */
  readonly sent: number
  /** customers passed over: email off, no email, deleted, or claimed by another run */
  readonly skipped: number
  /** claimed but not sent (a failure while building or sending; logged, not retried) */
  readonly failed: number
}

/** The month before the one `now` falls in, in the spending zone (Africa/Lagos). */
export const lastMonthAt = (at: Date): string => previousMonth(monthOf(todayIn(at)))

type Outcome = "sent" | "skipped" | "failed"

const reportOne = (customerId: CustomerId, month: string, at: Date) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCustomerId(customerId)
    if (Option.isNone(found)) return "skipped" as Outcome
    const { account, customer } = found.value
    if (customer.customerStatus === "deleted" || account.email === "" || !mayReceive(settingsOf(customer), "email", "spending_report")) {
      return "skipped" as Outcome
    }
    const repo = yield* SpendingRepo
    if (!(yield* repo.claimMonthlyReport(customerId, month, at))) return "skipped" as Outcome
    return yield* reportFor(customerId, { from: firstDayOf(month), to: lastDayOf(month) }).pipe(
      Effect.flatMap((report) => Effect.flatMap(Notifier, (n) => n.send(reportMessage(account.email, month, report)))),
      Effect.as("sent" as Outcome),
      Effect.catchAllCause((cause) =>
        Effect.as(
          Effect.logError("monthly spending report not sent").pipe(Effect.annotateLogs({ customerId, month, cause: String(cause) })),
          "failed" as Outcome
        )
      )
    )
  })

/** Sends last month's reports (the month before "now" in Africa/Lagos), `batchSize` customers at a time. */
export const sendMonthlyReports = (options: { readonly batchSize?: number; readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const batchSize = options.batchSize ?? 200
    const at = yield* now
    const month = lastMonthAt(at)
    const repo = yield* SpendingRepo
    const counts = { sent: 0, skipped: 0, failed: 0 }
    let after: CustomerId | null = null
    while (true) {
      const batch: ReadonlyArray<CustomerId> = yield* repo.customersToReport(month, firstDayOf(month), lastDayOf(month), after, batchSize)
      if (batch.length === 0) break
      const outcomes = yield* Effect.forEach(batch, (id) => reportOne(id, month, at), { concurrency: options.concurrency ?? 4 })
      for (const o of outcomes) counts[o]++
      after = batch[batch.length - 1]!
      if (batch.length < batchSize) break
    }
    return { month, ...counts } satisfies MonthlyRun
  }).pipe(withSpan("Spendings.sendMonthlyReports"))
