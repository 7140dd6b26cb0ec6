/**
 * Node's HTTP server as the API runs on it, with the limits a slow client meets before any request
 * reaches Effect: a client that opens a connection and sends its headers a byte at a time (a
 * "slowloris") is answered 408 and disconnected once HEADERS_TIMEOUT_MS has passed since it
 * connected. Node's defaults (60 s, checked every 30 s) held such a connection for up to 90 s.
 * A whole request (headers and body) is bounded by REQUEST_TIMEOUT_MS in the edge (RequestTimeout.ts),
 * and the number of connections by the load balancer in front (docs/decisions/slow-clients.md).
 */
import { createServer, type Server } from "node:http"
import { holdEarlyRequests } from "./EarlyRequests.js"

/** How long a client may take to send a request's headers. */
export const HEADERS_TIMEOUT_MS = 10_000
/** How often Node looks for connections past that limit. */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000

export const nodeServer = (options: { readonly headersTimeoutMs?: number } = {}): Server =>
  holdEarlyRequests(createServer({
    headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS
  }))
