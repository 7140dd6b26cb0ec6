/**
 * Whether anything receives the spans a process makes. Without OTEL_EXPORTER_OTLP_ENDPOINT no
 * tracer is installed but Effect's own, which keeps nothing (runtime/Telemetry.ts): every span is
 * built and dropped. The HTTP server (http edge/UnreceivedSpans.ts) and the scheduler's jobs then
 * run with Effect's tracer off, so that spans are no-op spans and the domain's `Spans` skip them
 * altogether (domain shared/Spans.ts). With a tracer installed (OpenTelemetry, or a test's),
 * nothing changes.
 */
import { Effect } from "effect"

/** The tracer of a fiber no tracer was installed for (Effect's default services). */
const effectsOwnTracer = Effect.runSync(Effect.tracer)

/** True when the fiber's tracer is one that receives spans (not Effect's own). */
export const spansReceived: Effect.Effect<boolean> = Effect.map(Effect.tracer, (tracer) => tracer !== effectsOwnTracer)

/** `self` with Effect's tracer off when nothing receives its spans; as it is otherwise. */
export const withUnreceivedSpansOff = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(spansReceived, (received) => (received ? self : Effect.withTracerEnabled(self, false)))
