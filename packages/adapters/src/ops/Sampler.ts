/**
 * Gauges read from the database by a background fiber every SAMPLE_EVERY, in the processes that
 * serve metrics: `movements_pending` (transactions whose movement is not final yet) and
 * `outbox_depth{status}` (notification_outbox rows per status). Counts only: no row is read. A
 * failed sample is logged at debug and the gauges keep their last value until the next one.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Duration, Effect, Layer, Schedule } from "effect"
import { movementsPending, outboxDepth, setGauge } from "./Metrics.js"

export const SAMPLE_EVERY = Duration.seconds(15)

const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const

/** One sample: both gauges set from two COUNT queries. */
export const sampleGauges = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pending = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM transactions WHERE status = 'pending'`
  yield* setGauge(movementsPending, {}, Number(pending[0]?.n ?? 0))
  const outbox = yield* sql<{ status: string; n: number | string }>`
    SELECT status, COUNT(*) AS n FROM notification_outbox GROUP BY status`
  const byStatus = new Map(outbox.map((r) => [r.status, Number(r.n)]))
  yield* Effect.forEach(OUTBOX_STATUSES, (status) => setGauge(outboxDepth, { status }, byStatus.get(status) ?? 0), {
    discard: true
  })
})

/** The sampler fiber, running while the layer is up. */
export const GaugeSamplerLive = Layer.scopedDiscard(
  Effect.forkScoped(
    sampleGauges.pipe(
      Effect.catchAllCause((cause) => Effect.logDebug("metrics sample failed").pipe(Effect.annotateLogs("cause", String(cause)))),
      Effect.repeat(Schedule.spaced(SAMPLE_EVERY)),
      // a trace every 15 s of two COUNTs would drown the traces worth reading
      Effect.withTracerEnabled(false)
    )
  )
)
