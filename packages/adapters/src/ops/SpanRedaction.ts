/**
 * What leaves the process in a trace: every span (with its events: Effect logs written inside a
 * span become events carrying the log's annotations) passes through `RedactingSpanExporter` before any
 * exporter sees it, so no attribute, event or status names a customer, a secret or a raw URL,
 * whatever code created the span (our use cases, @effect/platform's HTTP server and client spans,
 * @effect/sql's statements).
 *
 * - Dropped keys: `url.full`, `url.query`, `client.address`, `user_agent.original`,
 *   `network.peer.address`, `http.url`, `http.target`, `url`, every `http.request.header.*` / `http.response.header.*`, and any key
 *   naming personal data or a secret (email, phone, bvn, account number, token, password, secret,
 *   otp, pin).
 * - `url.path` becomes the span's `http.route` (the route template the router matched, e.g.
 *   `/api/v1/admin/auth/links/:token`), or is dropped when there is none.
 * - In every remaining string (attributes, event attributes, the status message): emails, runs of
 *   10 to 13 digits (account numbers, BVNs, phones) and long opaque tokens (≥ 32 base64url
 *   characters, e.g. a link token) are replaced by `[redacted]`. UUIDs (our ids) are kept.
 */
import type { Attributes, AttributeValue } from "@opentelemetry/api"
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base"

const DROPPED_KEYS = new Set([
  "url.full",
  "url.query",
  "client.address",
  "user_agent.original",
  "network.peer.address",
  // older conventions, and the request log's annotations (logs become span events)
  "http.url",
  "http.target",
  "url",
  "http.client_ip"
])
const DROPPED_PREFIXES = ["http.request.header.", "http.response.header."]
const PERSONAL_KEY = /(^|[._-])(e-?mail|phone|msisdn|bvn|nin|password|passcode|secret|token|otp|pin|recipient)([._-]|$)|account_?number/i

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g
const DIGITS = /(?<![\d])\+?\d{10,13}(?![\d])/g
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const OPAQUE = /[A-Za-z0-9_-]{32,}/g

export const REDACTED = "[redacted]"

/** A string with emails, long digit runs and opaque tokens replaced. */
export const scrub = (value: string): string =>
  // opaque tokens first: a token may contain a digit run, which must not split it
  value
    .replace(OPAQUE, (match) => (UUID.test(match) ? match : REDACTED))
    .replace(EMAIL, REDACTED)
    .replace(DIGITS, REDACTED)

const scrubValue = (value: AttributeValue | undefined): AttributeValue | undefined =>
  typeof value === "string"
    ? scrub(value)
    : Array.isArray(value)
    ? (value as Array<unknown>).map((v) => (typeof v === "string" ? scrub(v) : v)) as AttributeValue
    : value

/** `userEmail`, `otpCode` → `user_Email`, `otp_Code`: camelCase words are words too. */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2")

const isDropped = (key: string) =>
  DROPPED_KEYS.has(key) || DROPPED_PREFIXES.some((p) => key.startsWith(p)) || PERSONAL_KEY.test(words(key))

/** The attributes that may be exported. */
export const redactAttributes = (attributes: Attributes): Attributes => {
  const out: Attributes = {}
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "url.path") {
      const route = attributes["http.route"]
      if (typeof route === "string") out[key] = route
      continue
    }
    if (isDropped(key)) continue
    out[key] = scrubValue(value)
  }
  return out
}

/** The span as it may be exported: the same span with its attributes, events and status redacted. */
export const redactSpan = (span: ReadableSpan): ReadableSpan =>
  Object.create(span, {
    attributes: { value: redactAttributes(span.attributes), enumerable: true },
    events: {
      value: span.events.map((event) => ({
        ...event,
        attributes: event.attributes === undefined ? undefined : redactAttributes(event.attributes)
      })),
      enumerable: true
    },
    status: {
      value: span.status.message === undefined ? span.status : { ...span.status, message: scrub(span.status.message) },
      enumerable: true
    },
    links: {
      value: span.links.map((link) => ({ ...link, attributes: link.attributes && redactAttributes(link.attributes) })),
      enumerable: true
    }
  }) as ReadableSpan

/** Redacts every span, then hands it to `inner` (OTLP, or in-memory in tests). */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}
  export(spans: Array<ReadableSpan>, resultCallback: Parameters<SpanExporter["export"]>[1]): void {
    this.inner.export(spans.map(redactSpan), resultCallback)
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown()
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve()
  }
}
