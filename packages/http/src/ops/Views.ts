/** What GET /health and GET /ready answer. */
import { Schema } from "effect"

export const HealthView = Schema.Struct({
  /** always "up" while the process serves requests */
  status: Schema.Literal("up")
}).annotations({ examples: [{ status: "up" }] })

/** Each check: "ok", or a short reason it failed (no secrets). */
export const ReadinessChecksView = Schema.Struct({
  /** the database answers a query */
  database: Schema.String,
  /** every migration this build knows is applied */
  migrations: Schema.String,
  /** the core banking provider answers a cheap call (the bank list) in time */
  provider: Schema.String
})

export const ReadinessView = Schema.Struct({
  ready: Schema.Literal(true),
  checks: ReadinessChecksView
}).annotations({ examples: [{ ready: true, checks: { database: "ok", migrations: "ok", provider: "ok" } }] })
