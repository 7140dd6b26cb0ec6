/**
 * An API path that is not validly percent-encoded (`%ZZ`, a lone `%`, a cut-off or invalid UTF-8
 * sequence such as `%C3%28`) is a 400, refused before routing. The router cannot decode such a path
 * and matched no route, so a malformed id like `/admin/staff/%ZZ/role` answered 404 "Route not
 * found", where one that decodes but is not a UUID is a 400 naming `id`. Only paths under /api/:
 * the console's and the docs' own paths keep their answers. A path without `%` costs one scan.
 */
import { type HttpApp, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { apiObjectForUrl, requestRefused } from "../ErrorMiddleware.js"
import { failureResponse } from "../shared/Envelope.js"

export const PERCENT_MESSAGE = "The URL's path is not validly percent-encoded"

const decodes = (path: string): boolean => {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

export const rejectUndecodablePaths = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const url = request.url
    if (!url.includes("%") || !url.startsWith("/api/")) return app
    const query = url.indexOf("?")
    const path = query === -1 ? url : url.slice(0, query)
    return decodes(path) ? app : Effect.succeed(failureResponse(requestRefused(apiObjectForUrl(url), PERCENT_MESSAGE)))
  })
