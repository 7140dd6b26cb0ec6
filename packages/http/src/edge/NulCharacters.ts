/**
 * A NUL character (U+0000) in the URL or in a JSON body is a 400, refused before any handler runs.
 * PostgreSQL cannot store it in text, so it used to reach the database and come back as a 500 (a
 * spending's category, a ticket's subject, a sign-up's email, a search filter). JSON bodies are
 * parsed here only to look at their strings (keys included); a body that is not JSON goes on to its
 * handler, whose decoding reports it. The body is read once: the platform caches it for the handler,
 * and this runs inside the body size limit.
 */
import { type HttpApp, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { apiObjectForUrl, requestRefused } from "../ErrorMiddleware.js"
import { failureResponse } from "../shared/Envelope.js"

export const NUL_MESSAGE = "Text must not contain NUL characters (U+0000)"

const hasNul = (value: unknown): boolean =>
  typeof value === "string"
    ? value.includes("\u0000")
    : Array.isArray(value)
    ? value.some(hasNul)
    : typeof value === "object" && value !== null
    ? Object.entries(value).some(([k, v]) => k.includes("\u0000") || hasNul(v))
    : false

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export const rejectNulCharacters = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // built only when sent: this runs on every request
    const refuse = () => failureResponse(requestRefused(apiObjectForUrl(request.url), NUL_MESSAGE))
    if (/%00/i.test(request.url) || request.url.includes("\u0000")) return refuse()
    if ((request.headers["content-type"] ?? "").includes("json")) {
      // a body that cannot be read (too large, cut off) fails the same way in its handler
      const text = yield* Effect.orElseSucceed(request.text, () => "")
      if (text.includes("\u0000") || (/\\u0000/i.test(text) && hasNul(parsed(text)))) return refuse()
    }
    return yield* app
  })
