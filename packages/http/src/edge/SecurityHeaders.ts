/**
 * Headers every response carries, whatever answered it (a handler, the error middleware, CORS, the
 * body-size guard, the request time limit):
 * - `X-Content-Type-Options: nosniff`: browsers take JSON as JSON, never as script or HTML;
 * - `Referrer-Policy: no-referrer`: no URL (with ids in it) leaks to another site;
 * - `X-Frame-Options: DENY`: nothing of ours is framed (clickjacking);
 * - `Cache-Control: no-store` unless the handler set one: balances, statements and tokens must not
 *   be kept by browsers or shared caches;
 * - `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` on everything but the
 *   /docs page (whose inline script and style a strict policy would block): an API response is
 *   never a document that may load anything;
 * - `Strict-Transport-Security: max-age=31536000; includeSubDomains` in production only (TLS is
 *   terminated in front of the service there; on a laptop it would pin localhost to https).
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { AppEnv } from "@app/adapters"
import { Effect } from "effect"

export const HSTS = "max-age=31536000; includeSubDomains"
export const API_CSP = "default-src 'none'; frame-ancestors 'none'"

const isDocsPage = (url: string) => url === "/docs" || url.startsWith("/docs/") || url.startsWith("/docs?")

export const securityHeaders = (appEnv: AppEnv) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const add = (response: HttpServerResponse.HttpServerResponse) =>
      withSecurityHeaders(response, { appEnv, docs: isDocsPage(request.url) })
    // the app's own answers are written inside it, through the pre-response handlers …
    yield* HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(add(response)))
    // … while an answer made by a middleware without calling the app (the body-size guard, a CORS
    // preflight, the request time limit) comes back here and is written after
    return add(yield* app)
  })

const withSecurityHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  { appEnv, docs }: { readonly appEnv: AppEnv; readonly docs: boolean }
): HttpServerResponse.HttpServerResponse => {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY"
  }
  if (response.headers["cache-control"] === undefined) headers["cache-control"] = "no-store"
  if (!docs) headers["content-security-policy"] = API_CSP
  if (appEnv === "production") headers["strict-transport-security"] = HSTS
  return HttpServerResponse.setHeaders(response, headers)
}
