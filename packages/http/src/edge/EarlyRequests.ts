/**
 * The platform's Node server listens as soon as its layer is built, and the API's handler is
 * attached a little later (HttpApiBuilder.serve, once every route and middleware exists: 0.2 to
 * 0.7 s on a cold start). Node answers nothing to a request that arrives in between: with no
 * `request` listener it is simply never handled, and the client waits until it gives up.
 *
 * `holdEarlyRequests` makes such a request wait instead: until the first real `request` listener
 * is attached, requests are held in arrival order, then handed to it; from then on nothing of this
 * module runs. A probe or a client that connects the moment the port opens gets its answer as soon
 * as the routes exist.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"

export const holdEarlyRequests = <S extends Server>(server: S): S => {
  const held: Array<readonly [IncomingMessage, ServerResponse]> = []
  const hold = (request: IncomingMessage, response: ServerResponse) => {
    held.push([request, response])
  }
  const onNewListener = (event: string | symbol, listener: unknown) => {
    if (event !== "request" || listener === hold) return
    server.off("newListener", onNewListener)
    server.off("request", hold)
    // `newListener` fires before the listener is added: hand the held requests over after it is
    process.nextTick(() => {
      for (const [request, response] of held.splice(0)) server.emit("request", request, response)
    })
  }
  server.on("request", hold)
  server.on("newListener", onNewListener)
  return server
}
