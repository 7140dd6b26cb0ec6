/**
 * The service's metrics, as Effect `Metric`s (one registry per process), exposed in the Prometheus
 * text format by `Prometheus.ts`. Labels are bounded sets (route templates, operation names,
 * outcomes, job names): never an id, a path, an email, a phone or an account number.
 *
 * Defined elsewhere with the same names (Effect keys metrics by name, type and labels, so both
 * places update one series): `payouts_total{outcome}` in the domain (plans/Payouts.ts).
 */
import { Cause, Duration, Effect, Metric, MetricBoundaries, MetricLabel, Option } from "effect"

/** Seconds buckets from 5 ms to ~82 s (HTTP requests, provider calls, job runs). */
export const secondsBoundaries = MetricBoundaries.exponential({ start: 0.005, factor: 2, count: 16 })

/** A counter that only goes up (Prometheus's `_total`). */
const counterOf = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

/** A histogram of durations in seconds, on `secondsBoundaries`. */
const secondsHistogramOf = (name: string, description: string) => Metric.histogram(name, secondsBoundaries, description)

const gaugeOf = (name: string, description: string) => Metric.gauge(name, { description })

export const httpRequestsTotal = counterOf("http_requests_total", "HTTP requests answered, by route template, method and status")

export const httpRequestDuration = secondsHistogramOf("http_request_duration_seconds", "Time to answer an HTTP request, by route template and method")

export const providerCallsTotal = counterOf("provider_calls_total", "Core banking provider calls, by operation and outcome (ok, refused, unknown, misconfigured, defect, interrupted)")

export const providerCallDuration = secondsHistogramOf("provider_call_duration_seconds", "Duration of a core banking provider call (all its attempts), by operation")

export const notificationsSentTotal = counterOf("notifications_sent_total", "Email and SMS send attempts, by channel and outcome (sent, failed)")

export const jobRunsTotal = counterOf("job_runs_total", "Scheduled job runs, by job and result (ok, failed)")

export const jobDuration = secondsHistogramOf("job_duration_seconds", "Duration of a scheduled job run, by job")

export const movementsPending = gaugeOf("movements_pending", "Money movements (transactions) still pending, sampled every 15 s")

export const outboxDepth = gaugeOf("outbox_depth", "Notification outbox rows by status (pending, sent, failed), sampled every 15 s")

/** Adds one to `counter` with the given labels. */
export const count = (counter: Metric.Metric.Counter<number>, labels: Record<string, string>) => update(counter, 1, labels)

/** Records `duration` in seconds in `histogram` with the given labels. */
export const observeSeconds = (
  histogram: Metric.Metric.Histogram<number>,
  labels: Record<string, string>,
  duration: Duration.Duration
) => update(histogram, Duration.toMillis(duration) / 1000, labels)

export const setGauge = (gauge: Metric.Metric.Gauge<number>, labels: Record<string, string>, value: number) =>
  update(gauge, value, labels)

/**
 * One labels array per distinct label set, kept for the life of the process. An Effect metric finds
 * the series of an update by the identity of the labels array it is given (then by hashing a new
 * key in the registry); `Metric.tagged` builds a new array, and so a new key, on every update, which
 * was a few percent of the CPU of a request and of a provider call. Label sets are bounded (see
 * above), so this map is too. The labels are in the order given, as `Metric.tagged` applied one by
 * one put them, so the series are the same ones. (Labels set on the fiber with `Metric.tagged`
 * around an effect, `currentMetricLabels`, are not added: nothing here uses them.)
 */
const labelSets = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

const labelSet = (labels: Record<string, string>): ReadonlyArray<MetricLabel.MetricLabel> => {
  const entries = Object.entries(labels)
  const id = entries.map(([key, value]) => `${key}\u0000${value}`).join("\u0001")
  let set = labelSets.get(id)
  if (set === undefined) {
    set = entries.map(([key, value]) => MetricLabel.make(key, value))
    labelSets.set(id, set)
  }
  return set
}

/** Updates `metric` with `input` under `labels` now, outside an effect (for code that is one already). */
export const unsafeRecord = <In>(metric: Metric.Metric<any, In, any>, input: In, labels: Record<string, string>): void =>
  metric.unsafeUpdate(input, labelSet(labels))

const update = <In>(metric: Metric.Metric<any, In, any>, input: In, labels: Record<string, string>) =>
  Effect.sync(() => unsafeRecord(metric, input, labels))

/** The outcome label of a provider call from its result: `ok` or the failure's class. */
export const providerOutcome = (failureTag: string | undefined): string => {
  switch (failureTag) {
    case undefined:
      return "ok"
    case "ProviderRefused":
      return "refused"
    case "ProviderUnknownOutcome":
      return "unknown"
    case "ProviderMisconfigured":
      return "misconfigured"
    default:
      return "error"
  }
}

/** The outcome label of a provider call that failed, from its cause: the error's class, a defect, or an interruption. */
const failureOutcome = <E extends { readonly _tag: string }>(cause: Cause.Cause<E>): string =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => (Cause.isInterruptedOnly(cause) ? "interrupted" : "defect"),
    onSome: (error) => providerOutcome(error._tag)
  })

/**
 * One operation's label sets: its duration's, and its count's by outcome, each made once so that a
 * call looks them up instead of building and joining a key (labelSet).
 */
const providerCallLabels = new Map<string, { readonly duration: ReadonlyArray<MetricLabel.MetricLabel>; readonly outcome: (outcome: string) => ReadonlyArray<MetricLabel.MetricLabel> }>()

const providerCallLabelsOf = (operation: string) => {
  let labels = providerCallLabels.get(operation)
  if (labels === undefined) {
    const byOutcome = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
    labels = {
      duration: labelSet({ operation }),
      outcome: (outcome) => {
        let set = byOutcome.get(outcome)
        if (set === undefined) {
          set = labelSet({ operation, outcome })
          byOutcome.set(outcome, set)
        }
        return set
      }
    }
    providerCallLabels.set(operation, labels)
  }
  return labels
}

/**
 * Runs `effect`, counting it in `provider_calls_total` and timing it in
 * `provider_call_duration_seconds`, on the fiber's Clock (as `Effect.timed` does). It runs on every
 * provider call, so it is written as one clock read and one `matchCauseEffect` (3 of Effect's
 * runtime steps, where `Effect.timed` around `Effect.exit` took ~12).
 */
export const measureProviderCall = (operation: string) => <A, E extends { readonly _tag: string }, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => {
  const labels = providerCallLabelsOf(operation)
  return Effect.clockWith((clock) => {
    const start = clock.unsafeCurrentTimeNanos()
    const record = (outcome: string) => {
      providerCallsTotal.unsafeUpdate(1, labels.outcome(outcome))
      providerCallDuration.unsafeUpdate(Number(clock.unsafeCurrentTimeNanos() - start) / 1e9, labels.duration)
    }
    return Effect.matchCauseEffect(effect, {
      onSuccess: (a) => {
        record("ok")
        return Effect.succeed(a)
      },
      onFailure: (cause) => {
        record(failureOutcome(cause))
        return Effect.failCause(cause)
      }
    })
  })
}
