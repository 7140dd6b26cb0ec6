/** Misbehaving peers on loopback for HTTP tests: a port nobody listens on, a server that never answers. */
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

/** A loopback port nobody listens on (connection refused). */
export const closedPort = Effect.async<number>((resume) => {
  const server = http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** The base URL of a server that accepts connections and never answers, for the scope's life. */
export const hangingServer = Effect.acquireRelease(
  Effect.async<http.Server>((resume) => {
    const server = http.createServer(() => {})
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))
