/**
 * Metrics and traces of a runnable: adapters' `MetricsLive` (ops/MetricsLive.ts), and its
 * `TracingLive` (ops/Telemetry.ts, which says what it does), except that OpenTelemetry is loaded only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: ops/Telemetry.ts (and with it the OpenTelemetry SDK and the
 * OTLP exporter, a few hundred ms of module loading) is imported on demand, so a process without
 * tracing never loads it (the build puts it in a chunk of its own, see scripts/build.mjs).
 */
import { AppConfig } from "@app/adapters"
import { Effect, Layer, Option } from "effect"

/** The metrics endpoint on METRICS_PORT and the gauge sampler (adapters' ops/MetricsLive.ts). */
export { MetricsLive } from "@app/adapters/ops/MetricsLive"

/** OTEL_EXPORTER_OTLP_ENDPOINT set: ops/Telemetry.ts's `TracingLive` (spans batched to it); unset: nothing is loaded. */
export const TracingLive = (serviceName: string): Layer.Layer<never, never, AppConfig> =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      Option.isNone(config.otlpEndpoint)
        ? Layer.empty
        : Layer.unwrapEffect(Effect.promise(() => import("@app/adapters/ops/Telemetry")).pipe(Effect.map((telemetry) => telemetry.TracingLive(serviceName)))))
  )
