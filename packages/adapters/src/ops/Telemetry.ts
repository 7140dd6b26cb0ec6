/**
 * Traces and metrics of a process (@effect/opentelemetry).
 *
 * Traces: every Effect span (`http.server` per request from @effect/platform, one per use case,
 * `CoreBanking.<operation>` per provider call, `Notification.send` per email/SMS attempt,
 * `job.<name>` per scheduled run) becomes an OpenTelemetry span. With OTEL_EXPORTER_OTLP_ENDPOINT
 * set they are batched to `<endpoint>/v1/traces` (OTLP over HTTP/JSON); unset, no OpenTelemetry
 * tracer is installed and nothing leaves the process. Either way every exported span passes
 * through `RedactingSpanExporter` first (SpanRedaction.ts). Tests install an in-memory exporter
 * with `tracingLayer`.
 *
 * Metrics: METRICS_PORT serves `GET /metrics` (Prometheus.ts) and starts the gauge sampler
 * (Sampler.ts); METRICS_PORT=0 turns both off.
 */
import * as Resource from "@effect/opentelemetry/Resource"
import * as Tracer from "@effect/opentelemetry/Tracer"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter
} from "@opentelemetry/sdk-trace-base"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../AppConfig.js"
import { RedactingSpanExporter } from "./SpanRedaction.js"

export interface TracingOptions {
  readonly serviceName: string
  readonly exporter: SpanExporter
  /** batch spans before export (production); false = export each span as it ends (tests) */
  readonly batch: boolean
}

/**
 * An OpenTelemetry tracer for every Effect span, exporting through the redaction. Provide it
 * before (below, in a `Layer.provide` chain) the layers whose spans it should see.
 */
export const tracingLayer = (options: TracingOptions): Layer.Layer<Tracer.OtelTracer> => {
  const exporter = new RedactingSpanExporter(options.exporter)
  const provider = Layer.scoped(
    Tracer.OtelTracerProvider,
    Effect.flatMap(Resource.Resource, (resource) =>
      Effect.acquireRelease(
        Effect.sync(() =>
          new BasicTracerProvider({
            resource,
            spanProcessors: [options.batch ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter)]
          })
        ),
        // flushes what is batched: the last spans of a stopping process are not lost
        (tracerProvider) => Effect.promise(() => tracerProvider.shutdown()).pipe(Effect.timeout("5 seconds"), Effect.ignore)
      ))
  )
  return Tracer.layer.pipe(
    Layer.provide(provider),
    Layer.provide(Resource.layer({ serviceName: options.serviceName }))
  )
}

/** OTEL_EXPORTER_OTLP_ENDPOINT set: spans batched to it over OTLP/HTTP; unset: no OpenTelemetry tracer. */
export const TracingLive = (serviceName: string): Layer.Layer<never, never, AppConfig> =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      Option.match(config.otlpEndpoint, {
        onNone: () => Layer.empty,
        onSome: (endpoint) =>
          tracingLayer({
            serviceName,
            exporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
            batch: true
          }).pipe(Layer.discard)
      }))
  )

// The metrics endpoint (`MetricsLive`) is in MetricsLive.ts: it must load without OpenTelemetry.
