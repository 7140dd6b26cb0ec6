/**
 * Scheduled jobs on croner. Each job is a domain use case; croner only says when. A job never
 * overlaps itself in one process (`protect`); jobs that move money will also claim their work in
 * the database (SKIP LOCKED) so several scheduler processes can run side by side. A failing run is
 * logged and the job keeps its schedule; stopping the layer stops every timer and interrupts the
 * runs in progress (safe: money-moving jobs journal every step and resume from the journal).
 */
import { deliverQueuedNotifications } from "@app/adapters/notifications/OutboxDelivery"
import { Banking, Housekeeping, Lifecycle, Plans, Spans, Spendings, StaffAccess, Throttle } from "@app/domain"
import { Cron } from "croner"
import { count, jobDuration, jobRunsTotal, observeSeconds } from "@app/adapters/ops/Metrics"
import { withUnreceivedSpansOff } from "@app/adapters/ops/UnreceivedSpans"
import { Cause, Config, Duration, Effect, Exit, FiberSet, Layer } from "effect"

/**
 * Whether a job's result says it did nothing: nothing returned, a zero, an empty list, or an object
 * whose counts are all zero (`{ plans: 0, paid: 0, failed: 0 }`); text in it counts for nothing.
 */
export const isIdle = (result: unknown): boolean => {
  if (result === undefined || result === null) return true
  if (typeof result === "number" || typeof result === "bigint") return result == 0
  if (Array.isArray(result)) return result.length === 0
  if (typeof result === "object") return Object.values(result).every((v) => typeof v === "string" || typeof v === "boolean" || isIdle(v))
  return true
}

export interface JobSpec<R> {
  readonly name: string
  /** croner pattern, evaluated in UTC */
  readonly schedule: string
  readonly run: Effect.Effect<unknown, unknown, R>
  /** also run once at start-up */
  readonly runOnStart?: boolean
}

export const scheduleJobs = <const Jobs extends ReadonlyArray<JobSpec<any>>>(
  jobs: Jobs
): Layer.Layer<never, never, Effect.Effect.Context<Jobs[number]["run"]>> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const running = yield* FiberSet.make()
      const runFork = yield* FiberSet.runtime(running)<Effect.Effect.Context<Jobs[number]["run"]>>()
      for (const job of jobs) {
        // job_runs_total{job,result} and job_duration_seconds{job} (ops/Metrics.ts); a run
        // interrupted by shutdown is not counted
        const measured = (took: Duration.Duration, result: "ok" | "failed") =>
          Effect.all([
            count(jobRunsTotal, { job: job.name, result }),
            observeSeconds(jobDuration, { job: job.name }, took),
            Effect.annotateCurrentSpan("result", result)
          ], { discard: true })
        const once = Effect.timed(Effect.exit(job.run)).pipe(
          Effect.flatMap(([took, exit]) =>
            Exit.isSuccess(exit)
              // a run that did nothing (most runs of the minute and 10-second jobs) at debug: an idle
              // service logged ~80 lines a minute of them
              ? (isIdle(exit.value) ? Effect.logDebug("job finished") : Effect.logInfo("job finished")).pipe(
                Effect.annotateLogs({ job: job.name, millis: Duration.toMillis(took), result: exit.value }),
                Effect.zipRight(measured(took, "ok"))
              )
              : Cause.isInterruptedOnly(exit.cause)
              ? Effect.void
              : Effect.logError("job failed").pipe(
                Effect.annotateLogs({ job: job.name, cause: Cause.pretty(exit.cause) }),
                Effect.zipRight(measured(took, "failed"))
              )
          ),
          Spans.withSpan(`job.${job.name}`),
          // without a tracer that receives them, runs make no spans (adapters' ops/UnreceivedSpans.ts)
          withUnreceivedSpansOff
        )
        let inFlight = false
        const trigger = () => {
          if (inFlight) return
          inFlight = true
          runFork(once).addObserver(() => (inFlight = false))
        }
        const cron = new Cron(job.schedule, { name: job.name, timezone: "UTC", protect: true }, trigger)
        yield* Effect.addFinalizer(() => Effect.sync(() => cron.stop()))
        if (job.runOnStart === true) trigger()
        yield* Effect.logDebug("job scheduled").pipe(
          Effect.annotateLogs({ job: job.name, schedule: job.schedule, next: cron.nextRun()?.toISOString() ?? "never" })
        )
      }
    })
  )

/** A croner pattern that croner accepts (checked at start-up, like every setting). */
const cronPattern = (name: string, defaultValue: string) =>
  Config.string(name).pipe(
    Config.withDefault(defaultValue),
    Config.validate({
      message: `${name}: must be a croner pattern, e.g. "* * * * *" (every minute)`,
      validation: (pattern) => {
        try {
          new Cron(pattern, { paused: true }).stop()
          return true
        } catch {
          return false
        }
      }
    })
  )

const positive = (name: string, defaultValue: number, max: number) =>
  Config.integer(name).pipe(
    Config.withDefault(defaultValue),
    Config.validate({ message: `${name}: must be between 1 and ${max}`, validation: (n) => n >= 1 && n <= max })
  )

/** How the due-payout job runs: when, how many plans per claim, how many payouts at once. */
export const PayoutJobConfig = Config.all({
  schedule: cronPattern("PAYOUT_SCHEDULE", "* * * * *"),
  batchSize: positive("PAYOUT_BATCH_SIZE", 200, 10_000),
  concurrency: positive("PAYOUT_CONCURRENCY", 16, 1_000)
})

/**
 * Last month's spending report to every customer with email on and a spending in it: hourly from
 * 06:00 to 23:00 Africa/Lagos (05:00–22:00 UTC; Lagos is UTC+1 all year) on the 1st to the 3rd, so
 * a scheduler down all day on the 1st still sends them on the 2nd or 3rd (every run reports the
 * month before "now", which is last month on all three days). Each customer's month is claimed in
 * the database before its email is sent, so the later runs (and other scheduler processes) only
 * pick up who an earlier run missed: at most one email per customer and month.
 */
export const monthlySpendingReportsJob = {
  name: "monthly-spending-reports",
  schedule: "0 5-22 1-3 * *",
  run: Spendings.sendMonthlyReports()
} satisfies JobSpec<unknown>

/** Every job of the service. */
export const SchedulerLive = Layer.unwrapEffect(Effect.map(PayoutJobConfig, (payouts) =>
  scheduleJobs([
    // due plan payouts: claimed in batches (SKIP LOCKED + lease), missed cycles caught up in order;
    // at start-up too, so a restart pays what fell due while the service was down
    {
      name: "due-payouts",
      schedule: payouts.schedule,
      run: Plans.processDuePayouts({ batchSize: payouts.batchSize, concurrency: payouts.concurrency }),
      runOnStart: true
    },
    // plans whose wallet now covers them start (or resume after running dry)
    { name: "activate-plans", schedule: "* * * * *", run: Plans.activateFundedPlans(), runOnStart: true },
    // saga recovery (drivers that died) and reconciliation of pending transfers; once at start-up too,
    // so a crash is recovered as soon as the service is back. Requeries follow each transfer's own
    // backoff (TransferPolicy), so running every minute asks the bank no more often than that. A
    // payout whose outcome it learns is settled at once (its instalment paid, its plan moved on).
    { name: "process-transfers", schedule: "* * * * *", run: Plans.processDueMovements(), runOnStart: true },
    { name: "purge-expired-secrets", schedule: "17 3 * * *", run: Housekeeping.purgeExpiredSecrets, runOnStart: true },
    // failed staff sign-ins past the throttle window count for nothing: forget them
    { name: "purge-sign-in-failures", schedule: "23 * * * *", run: StaffAccess.purgeSignInFailures },
    // throttle rows (sign-in, one-time codes, BVN failures, name enquiries) whose windows are long over
    { name: "purge-throttles", schedule: "29 * * * *", run: Throttle.purgeStaleThrottles },
    // deposits whose webhook was lost are recorded within 5 minutes (recording is idempotent)
    { name: "reconcile-deposits", schedule: "*/5 * * * *", run: Banking.reconcileDeposits() },
    monthlySpendingReportsJob,
    // account closures whose sweep reconciliation settled (freeze, plan ended, customer closed,
    // statement) and the deletions that follow them; claimed with a lease (SKIP LOCKED)
    { name: "finish-closures", schedule: "* * * * *", run: Lifecycle.processClosures(), runOnStart: true },
    // transactions and KYC records of deleted customers, past their 5-year retention
    { name: "purge-retained-records", schedule: "41 3 * * *", run: Lifecycle.purgeRetained },
    // staff freezes that waited for a movement in flight: the core account is frozen once it is done
    { name: "finish-freezes", schedule: "*/15 * * * * *", run: StaffAccess.Freezes.finishPendingFreezes(), runOnStart: true },
    // every movement state change (captured by a trigger) chained into the audit log
    { name: "audit-movements", schedule: "*/10 * * * * *", run: StaffAccess.MovementAudit.foldMovementChanges, runOnStart: true },
    // queued emails and SMS (notification_outbox): claimed with SKIP LOCKED, retried with backoff
    { name: "deliver-notifications", schedule: "*/10 * * * * *", run: deliverQueuedNotifications(), runOnStart: true }
  ])
))

/** When the due-payout job next runs after `after` (PAYOUT_SCHEDULE, UTC); null if never. */
export const nextPayoutRun = (after: Date) =>
  Effect.map(PayoutJobConfig, (payouts) => new Cron(payouts.schedule, { timezone: "UTC" }).nextRun(after))
