/**
 * The metrics endpoint on METRICS_PORT (Prometheus text, Prometheus.ts) and the gauge sampler
 * (Sampler.ts); nothing when METRICS_PORT=0. Apart from Telemetry.ts so that a runnable without
 * tracing never loads OpenTelemetry.
 */
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../AppConfig.js"
import { MetricsServer } from "./Prometheus.js"
import { GaugeSamplerLive } from "./Sampler.js"

export const MetricsLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.isNone(config.metricsPort)
      ? Layer.empty
      : Layer.merge(MetricsServer(config.metricsPort, config.metricsHost), GaugeSamplerLive))
)
