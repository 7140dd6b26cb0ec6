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
 * Applied around every request by edge/AroundRequests.ts.
 */
import { HttpServerResponse } from "@effect/platform"
import type { AppEnv } from "@app/adapters"

export const HSTS = "max-age=31536000; includeSubDomains"
export const API_CSP = "default-src 'none'; frame-ancestors 'none'"

export const isDocsPage = (url: string) => url === "/docs" || url.startsWith("/docs/") || url.startsWith("/docs?")

/** `response` with the headers above: `docs` for the /docs page, whose inline script and style need no CSP. */
export const withSecurityHeaders = (
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
