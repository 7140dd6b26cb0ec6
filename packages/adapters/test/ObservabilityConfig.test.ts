/** METRICS_PORT and OTEL_EXPORTER_OTLP_ENDPOINT: defaults, turning off, bad values named. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { AppConfigTest, AppConfig, DEFAULT_METRICS_PORT, describeConfigError, loadAppConfig } from "../src/AppConfig.js"
import { serveMetrics } from "../src/ops/Prometheus.js"

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

  describe("METRICS_HOST (issue 37: the metrics port listened on every interface without auth)", () => {
    it.effect("defaults to loopback; an address or 0.0.0.0 when configured; anything else is named", () =>
      Effect.gen(function*() {
        expect((yield* load({})).metricsHost).toBe("127.0.0.1")
        expect((yield* load({ METRICS_HOST: "0.0.0.0" })).metricsHost).toBe("0.0.0.0")
        expect((yield* load({ METRICS_HOST: "::1" })).metricsHost).toBe("::1")
        expect(describeConfigError(yield* Effect.flip(load({ METRICS_HOST: "everywhere" })))).toBe(
          "METRICS_HOST: an IP address to listen on (default 127.0.0.1, loopback only; 0.0.0.0 for every interface)"
        )
      }))

    it.scoped("the endpoint listens on the host it is given, loopback by default", () =>
      Effect.gen(function*() {
        const bound = yield* serveMetrics(0, (yield* load({})).metricsHost)
        expect(bound.address).toBe("127.0.0.1")
        const reply = yield* Effect.promise(() => fetch(`http://127.0.0.1:${bound.port}/metrics`))
        expect(reply.status).toBe(200)
      }))
  })
})
