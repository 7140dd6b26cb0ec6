/**
 * The attacker who holds connections open by sending a request's headers slowly (a byte now and
 * then, never the blank line that ends them): the server answers 408 and disconnects once the
 * headers limit has passed, instead of holding the connection for Node's 60 s plus its 30 s check.
 */
import { describe, expect, it } from "vitest"
import { connect } from "node:net"
import type { AddressInfo } from "node:net"
import { nodeServer } from "../src/edge/NodeServer.js"

const slowClient = (port: number, byteEveryMs: number) =>
  new Promise<{ readonly answer: string; readonly closedAfterMs: number }>((resolve) => {
    const started = Date.now()
    let answer = ""
    const socket = connect(port, "127.0.0.1", () => socket.write("GET /health HTTP/1.1\r\nHost: x\r\n"))
    // a header line that never ends, one byte at a time
    const drip = setInterval(() => socket.writable && socket.write("a"), byteEveryMs)
    socket.on("data", (chunk) => (answer += chunk.toString()))
    socket.on("error", () => {})
    socket.on("close", () => {
      clearInterval(drip)
      resolve({ answer, closedAfterMs: Date.now() - started })
    })
  })

describe("slow clients", () => {
  it("a client dripping its headers is answered 408 and disconnected within the headers limit (plus the 1 s check), not held for a minute", async () => {
    const server = nodeServer({ headersTimeoutMs: 2_000 })
    server.on("request", (_req, res) => res.end("ok"))
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    try {
      const { answer, closedAfterMs } = await slowClient((server.address() as AddressInfo).port, 200)
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      expect(closedAfterMs).toBeGreaterThanOrEqual(1_900)
      expect(closedAfterMs).toBeLessThan(5_000)
    } finally {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  }, 20_000)

  it("the service's own limit is 10 s, checked every second", async () => {
    const { CONNECTIONS_CHECKING_INTERVAL_MS, HEADERS_TIMEOUT_MS } = await import("../src/edge/NodeServer.js")
    const server = nodeServer()
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS)
    expect(HEADERS_TIMEOUT_MS).toBe(10_000)
    expect(CONNECTIONS_CHECKING_INTERVAL_MS).toBe(1_000)
  })
})
