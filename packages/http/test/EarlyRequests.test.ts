/**
 * A request accepted between the moment the server listens and the moment the API's handler is
 * attached is answered once the handler exists (edge/EarlyRequests.ts), on a bare Node server and
 * through NodeServerLive, the platform's NodeHttpServer as the service builds it.
 */
import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { AppConfigTest } from "@app/adapters"
import { Effect, Fiber, Layer } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { describe, expect, it } from "vitest"
import { holdEarlyRequests } from "../src/edge/EarlyRequests.js"
import { NodeServerLive } from "../src/Server.js"

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))

describe("requests that arrive before the handler", () => {
  it("are held in arrival order and answered once the handler is attached; later ones go straight to it", async () => {
    const server = holdEarlyRequests(createServer())
    const port = await listen(server)
    try {
      const first = fetch(`http://127.0.0.1:${port}/one`).then((r) => r.text())
      const second = fetch(`http://127.0.0.1:${port}/two`).then((r) => r.text())
      await sleep(300)
      const seen: Array<string> = []
      server.on("request", (request, response) => {
        seen.push(request.url ?? "")
        response.end(`answered ${request.url}`)
      })
      expect(await first).toBe("answered /one")
      expect(await second).toBe("answered /two")
      expect(seen).toEqual(["/one", "/two"])
      // the holding listener is gone: only the handler is left
      expect(server.listenerCount("request")).toBe(1)
      expect(await fetch(`http://127.0.0.1:${port}/three`).then((r) => r.text())).toBe("answered /three")
      expect(seen).toEqual(["/one", "/two", "/three"])
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it("NodeServerLive (the service's server): a request sent before the app is served gets the app's answer", async () => {
    const program = Effect.gen(function*() {
      const address = (yield* HttpServer.HttpServer).address
      const port = address._tag === "TcpAddress" ? address.port : 0
      const early = yield* Effect.fork(Effect.promise(() => fetch(`http://127.0.0.1:${port}/hello`).then((r) => r.text())))
      yield* Effect.sleep("300 millis")
      yield* Effect.forkScoped(HttpServer.serveEffect(HttpRouter.empty.pipe(HttpRouter.get("/hello", HttpServerResponse.text("hello")))))
      return yield* Fiber.join(early)
    })
    const answer = await Effect.runPromise(
      Effect.scoped(program).pipe(Effect.provide(NodeServerLive.pipe(Layer.provide(AppConfigTest({ port: 0 })))))
    )
    expect(answer).toBe("hello")
  })
})
