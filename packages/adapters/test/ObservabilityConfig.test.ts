/** METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT: defaults, turning off, bad values named. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { AppConfigTest, AppConfig, DEFAULT_METRICS_PORT, describeConfigError, loadAppConfig } from "../src/AppConfig.js"

const load = (env: Record<string, string>) =>
  loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("AppConfig: metrics and traces", () => {
  it.effect("defaults: metrics on 9464, no trace export", () =>
    Effect.gen(function*() {
      const config = yield* load({})
      expect(DEFAULT_METRICS_PORT).toBe(9464)
      expect(config.metricsPort).toEqual(Option.some(9464))
      expect(config.otlpEndpoint).toEqual(Option.none())
    }))

  it.effect("METRICS_PORT: a port, or 0 for no metrics endpoint", () =>
    Effect.gen(function*() {
      expect((yield* load({ METRICS_PORT: "9100" })).metricsPort).toEqual(Option.some(9100))
      expect((yield* load({ METRICS_PORT: "0" })).metricsPort).toEqual(Option.none())
    }))

  it.effect("METRICS_PORT: out of range or not a number is named", () =>
    Effect.gen(function*() {
      for (const bad of ["70000", "-1"]) {
        expect(describeConfigError(yield* Effect.flip(load({ METRICS_PORT: bad })))).toContain(
          "METRICS_PORT: must be a port between 1 and 65535, or 0"
        )
      }
      expect(describeConfigError(yield* Effect.flip(load({ METRICS_PORT: "http" })))).toContain("METRICS_PORT")
    }))

  it.effect("OTEL_EXPORTER_OTLP_ENDPOINT: an http(s) URL, trailing slash dropped; anything else named", () =>
    Effect.gen(function*() {
      expect((yield* load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector:4318/" })).otlpEndpoint).toEqual(
        Option.some("http://otel-collector:4318")
      )
      expect((yield* load({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com/otlp" })).otlpEndpoint).toEqual(
        Option.some("https://otlp.example.com/otlp")
      )
      expect(describeConfigError(yield* Effect.flip(load({ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://collector" })))).toContain(
        "OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL"
      )
      expect(describeConfigError(yield* Effect.flip(load({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })))).toContain(
        "OTEL_EXPORTER_OTLP_ENDPOINT"
      )
    }))

  it.effect("tests run without a metrics endpoint or trace export", () =>
    Effect.gen(function*() {
      const config = yield* AppConfig
      expect(config.metricsPort).toEqual(Option.none())
      expect(config.otlpEndpoint).toEqual(Option.none())
    }).pipe(Effect.provide(AppConfigTest())))
})
