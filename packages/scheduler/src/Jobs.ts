/**
 * Scheduled jobs on croner. Each job is a domain use case; croner only says when. A job never
 * overlaps itself in one process (`protect`); jobs that move money will also claim their work in
 * the database (SKIP LOCKED) so several scheduler processes can run side by side. A failing run is
 * logged and the job keeps its schedule; stopping the layer stops every timer and interrupts the
 * runs in progress (safe: money-moving jobs journal every step and resume from the journal).
 */
import { Banking, Housekeeping, Plans, Transfers } from "@app/domain"
import { Cron } from "croner"
import { Cause, Config, Effect, FiberSet, Layer } from "effect"

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
        const once = job.run.pipe(
          Effect.timed,
          Effect.tap(([took, result]) =>
            Effect.logInfo("job finished").pipe(Effect.annotateLogs({ job: job.name, millis: took.value, result }))
          ),
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.void
              : Effect.logError("job failed").pipe(Effect.annotateLogs({ job: job.name, cause: Cause.pretty(cause) }))
          ),
          Effect.withSpan(`job.${job.name}`)
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
        yield* Effect.logInfo("job scheduled").pipe(
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
    // backoff (TransferPolicy), so running every minute asks the bank no more often than that.
    { name: "process-transfers", schedule: "* * * * *", run: Transfers.processDue(), runOnStart: true },
    { name: "purge-expired-secrets", schedule: "17 3 * * *", run: Housekeeping.purgeExpiredSecrets, runOnStart: true },
    // deposits whose webhook was lost are recorded within 5 minutes (recording is idempotent)
    { name: "reconcile-deposits", schedule: "*/5 * * * *", run: Banking.reconcileDeposits() }
  ])
))
