/**
 * The API-level middleware that guarantees the envelope on every failure:
 * - HttpFailure (domain and auth failures) passes through to its schema;
 * - HttpApiDecodeError (bad body, query or path) → 400 'Validation error' with fieldErrors
 *   (issues grouped by field path) and formErrors (issues about the whole body);
 * - a body that is not JSON → 400 'Validation error' with a formError (bodies over the size limit
 *   are refused before they are read, see `rejectOversizedBodies`);
 * - an unknown route → 404;
 * - anything else (a defect) → 500 with a generic message and a correlation id; the cause is
 *   logged with that id and never sent.
 */
import { HttpApiBuilder, HttpApiError, type HttpApp, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { Api } from "./Api.js"
import { currentCorrelationId } from "./edge/Correlation.js"
import { InternalError, RouteNotFound, ValidationError } from "./shared/ApiErrors.js"
import { failureResponse, HttpFailure, toHttpFailure } from "./shared/Envelope.js"

const apiObjects: ReadonlyArray<readonly [string, string]> = [
  ["/api/v1/auth", "Auth"],
  ["/api/v1/oauth", "Auth"],
  ["/api/v1/customers", "Customer"],
  ["/api/v1/disbursements", "Disbursement"],
  ["/api/v1/transactions", "Transaction"],
  ["/api/v1/beneficiaries", "Beneficiary"],
  ["/api/v1/banks", "Bank"],
  ["/api/v1/spendings", "Spending"],
  ["/api/v1/support", "Support"],
  ["/api/v1/admin", "Admin"],
  ["/api/v1/webhooks", "Webhook"],
  ["/users", "User"]
]

export const apiObjectForUrl = (url: string): string =>
  apiObjects.find(([prefix]) => url === prefix || url.startsWith(prefix + "/") || url.startsWith(prefix + "?"))?.[1] ??
    "Api"

const decodeFailure = (apiObject: string, error: HttpApiError.HttpApiDecodeError) => {
  const fieldErrors: Record<string, Array<string>> = {}
  const formErrors: Array<string> = []
  for (const issue of error.issues) {
    const message = issue._tag === "Missing" ? "Required" : issue.message
    // "Expected { readonly email: … }, actual null" describes our schema, not the client's mistake
    if (issue.path.length === 0) formErrors.push(message.startsWith("Expected ") ? "The request body must be a JSON object" : message)
    else (fieldErrors[issue.path.map(String).join(".")] ??= []).push(message)
  }
  return toHttpFailure(apiObject)(new ValidationError({ fieldErrors, formErrors }))
}

/** A 400 about the request as a whole (not JSON, too large, a NUL character…). */
export const requestRefused = (apiObject: string, formError: string) =>
  toHttpFailure(apiObject)(new ValidationError({ fieldErrors: {}, formErrors: [formError] }))

const describeRequestError = (error: HttpServerError.RequestError) => {
  const text = String((error.cause as { message?: unknown } | undefined)?.message ?? error.description ?? "")
  return /too large|maximum|exceed/i.test(text) ? "Request body is too large" : "Request body is not valid JSON"
}

/**
 * The messages of an error and of the errors it wraps (`cause`), outermost first: "SqlError: Failed
 * to execute statement ← error: relation \"x\" does not exist". Cause.pretty shows only the outer one.
 */
export const reasonChain = (error: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    parts.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current))
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined
  }
  return parts.join(" ← ")
}

export const ErrorEnvelopeMiddleware = HttpApiBuilder.middleware(
  Api,
  Effect.succeed((app) =>
    Effect.catchAllCause(app, (cause) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const apiObject = apiObjectForUrl(request.url)
        // HttpApiBuilder reads the body with Effect.orDie, so a malformed or oversized body arrives
        // as a defect carrying a RequestError, not as a failure.
        const error: unknown = Option.getOrUndefined(Option.orElse(Cause.failureOption(cause), () => Cause.dieOption(cause)))
        if (error instanceof HttpFailure) return failureResponse(error)
        if (error instanceof HttpApiError.HttpApiDecodeError) return failureResponse(decodeFailure(apiObject, error))
        if (HttpServerError.isServerError(error)) {
          if (error._tag === "RouteNotFound") {
            return failureResponse(toHttpFailure(apiObject)(new RouteNotFound()))
          }
          if (error._tag === "RequestError") {
            return failureResponse(requestRefused(apiObject, describeRequestError(error)))
          }
        }
        const correlationId = yield* currentCorrelationId
        yield* Effect.logError("request failed").pipe(
          Effect.annotateLogs({
            method: request.method,
            url: request.url,
            reason: reasonChain(Cause.squash(cause)),
            cause: Cause.pretty(cause)
          })
        )
        return failureResponse(toHttpFailure(apiObject)(new InternalError({ correlationId })))
      }))
  ),
  { withContext: true }
)

/**
 * Refuses a request whose declared Content-Length exceeds the limit before reading it, with the same
 * 400 envelope. (The body reader enforces the limit too, for chunked bodies, but it can only abort the
 * stream, which the client sees as a reset connection.)
 */
export const rejectOversizedBodies = (maxBytes: number) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const declared = Number(request.headers["content-length"] ?? "0")
    return Number.isFinite(declared) && declared > maxBytes
      ? Effect.succeed(
        failureResponse(requestRefused(apiObjectForUrl(request.url), "Request body is too large")).pipe(
          HttpServerResponse.setHeader("connection", "close")
        )
      )
      : app
  })
