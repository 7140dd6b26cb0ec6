/**
 * Prometheus exposition of the process's Effect metrics: `GET /metrics` in the text format 0.0.4 on
 * its own port (METRICS_PORT; 0 = no metrics endpoint), apart from the API so it is never exposed
 * through the public load balancer. Written from `Metric.unsafeSnapshot()`: counters and gauges as
 * they are, histograms as cumulative `_bucket{le=…}` series with `_sum` and `_count`, frequencies
 * as one counter series per value. Nothing here reads a request or writes personal data.
 */
import { Effect, Layer, Metric, MetricState, Option } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")
const metricName = (name: string) => name.replace(/[^a-zA-Z0-9_:]/g, "_")
const labelName = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, "_")

const formatValue = (value: number | bigint) =>
  typeof value === "bigint"
    ? value.toString()
    : Number.isNaN(value)
    ? "NaN"
    : value === Infinity
    ? "+Inf"
    : value === -Infinity
    ? "-Inf"
    : String(value)

const labelSet = (labels: ReadonlyArray<readonly [string, string]>) =>
  labels.length === 0 ? "" : `{${labels.map(([k, v]) => `${labelName(k)}="${escapeLabel(v)}"`).join(",")}}`

interface Family {
  type: "counter" | "gauge" | "histogram"
  help: string | undefined
  lines: Array<string>
}

/** The text exposition of every metric of this process. */
export const renderMetrics = (): string => {
  const families = new Map<string, Family>()
  const family = (name: string, type: Family["type"], help: Option.Option<string>) => {
    let f = families.get(name)
    if (f === undefined) {
      f = { type, help: Option.getOrUndefined(help), lines: [] }
      families.set(name, f)
    }
    return f
  }
  for (const { metricKey, metricState } of Metric.unsafeSnapshot()) {
    const name = metricName(metricKey.name)
    const labels = metricKey.tags.map((t) => [t.key, t.value] as const)
    if (MetricState.isCounterState(metricState)) {
      family(name, "counter", metricKey.description).lines.push(`${name}${labelSet(labels)} ${formatValue(metricState.count)}`)
    } else if (MetricState.isGaugeState(metricState)) {
      family(name, "gauge", metricKey.description).lines.push(`${name}${labelSet(labels)} ${formatValue(metricState.value)}`)
    } else if (MetricState.isHistogramState(metricState)) {
      const f = family(name, "histogram", metricKey.description)
      for (const [boundary, cumulated] of metricState.buckets) {
        f.lines.push(`${name}_bucket${labelSet([...labels, ["le", formatValue(boundary)]])} ${cumulated}`)
      }
      f.lines.push(`${name}_sum${labelSet(labels)} ${formatValue(metricState.sum)}`)
      f.lines.push(`${name}_count${labelSet(labels)} ${metricState.count}`)
    } else if (MetricState.isFrequencyState(metricState)) {
      const f = family(name, "counter", metricKey.description)
      for (const [value, n] of metricState.occurrences) {
        f.lines.push(`${name}${labelSet([...labels, ["value", value]])} ${n}`)
      }
    }
    // summaries are not used by the service
  }
  const out: Array<string> = []
  for (const [name, f] of [...families.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (f.help !== undefined) out.push(`# HELP ${name} ${escapeHelp(f.help)}`)
    out.push(`# TYPE ${name} ${f.type}`, ...f.lines)
  }
  return out.join("\n") + "\n"
}

/**
 * A Node HTTP server answering `GET /metrics` on `port` (0 = a free port, for tests), bound while
 * the layer's scope is open. Returns the bound address and port.
 */
export const serveMetrics = (port: number, host?: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: http.Server; readonly port: number; readonly address: string }, Error>((resume) => {
      const server = http.createServer((request, response) => {
        const path = (request.url ?? "/").split("?")[0]
        if (path !== "/metrics") {
          response.writeHead(404, { "content-type": "text/plain" }).end("not found\n")
        } else if (request.method !== "GET" && request.method !== "HEAD") {
          response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n")
        } else {
          const body = renderMetrics()
          response.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" })
          response.end(request.method === "HEAD" ? undefined : body)
        }
      })
      server.once("error", (error) => resume(Effect.fail(error)))
      server.listen(port, host, () => {
        const bound = server.address() as AddressInfo
        resume(Effect.succeed({ server, port: bound.port, address: bound.address }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
  ).pipe(Effect.map(({ address, port }) => ({ address, port })))

/**
 * The metrics endpoint as a layer: none when `port` is none (METRICS_PORT=0). It has no
 * authentication, so it listens on `host` only (METRICS_HOST, loopback by default).
 */
export const MetricsServer = (port: Option.Option<number>, host = "127.0.0.1") =>
  Option.match(port, {
    onNone: () => Layer.empty,
    onSome: (p) =>
      Layer.scopedDiscard(
        serveMetrics(p, host).pipe(
          Effect.tap((bound) =>
            Effect.logInfo("metrics endpoint listening").pipe(Effect.annotateLogs({ port: bound.port, host: bound.address }))
          ),
          Effect.orDie
        )
      )
  })
