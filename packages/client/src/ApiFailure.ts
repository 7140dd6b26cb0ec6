/**
 * The one failure callers of the client see: the HTTP status, the envelope's stable `error.code`,
 * its message and the rest of `error` (fieldErrors, retryAfterSeconds…). Built from whatever the
 * derived client fails with, so callers never branch on HttpFailure, HttpClientError or ParseError.
 */
import { HttpClientError } from "@effect/platform"
import { HttpFailure } from "@app/http/shared/Envelope"
import { Data, Effect, FiberRef, Option, ParseResult } from "effect"

export class ApiFailure extends Data.TaggedError("ApiFailure")<{
  /** the HTTP status; 0 when no answer came (network) or the request was never sent */
  readonly status: number
  /** the envelope's `error.code`, or one of the client's own codes below */
  readonly code: string
  readonly message: string
  /** the envelope's `error` beside `code` (e.g. `fieldErrors`, `formErrors`) */
  readonly detail: Readonly<Record<string, unknown>>
}> {}

/** An answer that is not the envelope its endpoint declares (a proxy's page, a crash, a newer server). */
export const UNEXPECTED_RESPONSE = "UNEXPECTED_RESPONSE"
/** No answer at all: the network or the server is down. */
export const REQUEST_FAILED = "REQUEST_FAILED"
/** The request could not be encoded from what the caller passed (the schema refused it). */
export const INVALID_REQUEST = "INVALID_REQUEST"

/** The status of the last answer the client received in this fiber (see ApiClient.make). */
export const lastStatus: FiberRef.FiberRef<Option.Option<number>> = FiberRef.unsafeMake(Option.none())

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The failure envelope `{status: "failure", message, error: {code, …}}` of `body`, if it is one. */
export const fromEnvelope = (status: number, body: unknown): Option.Option<ApiFailure> => {
  if (!isRecord(body) || body.status !== "failure" || !isRecord(body.error) || typeof body.error.code !== "string") {
    return Option.none()
  }
  const { code, ...detail } = body.error
  const message = typeof body.message === "string" ? body.message : `Request failed (${status})`
  return Option.some(new ApiFailure({ status, code, message, detail }))
}

const unexpected = (status: number, why: string) =>
  new ApiFailure({ status, code: UNEXPECTED_RESPONSE, message: `Unexpected answer from the service (${status}): ${why}`, detail: {} })

/** A request the endpoint's schemas refused before it was sent: its issues by field, as the server's 400. */
const invalidRequest = (error: ParseResult.ParseError) => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const fieldErrors: Record<string, Array<string>> = {}
  for (const issue of issues) (fieldErrors[issue.path.join(".")] ??= []).push(issue.message)
  const first = issues[0]
  const field = first !== undefined && first.path.length > 0 ? { field: first.path.join(".") } : {}
  return new ApiFailure({ status: 0, code: INVALID_REQUEST, message: first?.message ?? error.message, detail: { fieldErrors, ...field } })
}

/**
 * Any failure of a derived-client call as an ApiFailure: a declared failure (HttpFailure) as it is;
 * an answer whose status the endpoint does not declare, read as a failure envelope when it is one;
 * anything undecodable as UNEXPECTED_RESPONSE with its status.
 */
export const toApiFailure = (error: unknown): Effect.Effect<ApiFailure> => {
  if (error instanceof ApiFailure) return Effect.succeed(error)
  if (error instanceof HttpFailure) {
    return Effect.succeed(
      new ApiFailure({ status: error.status, code: error.code, message: error.message, detail: error.detail ?? {} })
    )
  }
  if (HttpClientError.isHttpClientError(error)) {
    if (error._tag === "RequestError") {
      return Effect.succeed(new ApiFailure({ status: 0, code: REQUEST_FAILED, message: error.message, detail: {} }))
    }
    const status = error.response.status
    return error.response.json.pipe(
      Effect.map((body) => Option.getOrElse(fromEnvelope(status, body), () => unexpected(status, error.reason))),
      Effect.orElseSucceed(() => unexpected(status, "not JSON"))
    )
  }
  if (ParseResult.isParseError(error)) {
    return Effect.map(FiberRef.get(lastStatus), (status) =>
      Option.match(status, {
        // no answer yet: the request itself did not encode
        onNone: () => invalidRequest(error),
        onSome: (status) => unexpected(status, error.message)
      }))
  }
  return Effect.succeed(unexpected(0, String(error)))
}

/** `self` with every failure as an ApiFailure (see toApiFailure). */
export const normalise = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, ApiFailure, R> =>
  self.pipe(Effect.catchAll((e) => Effect.flip(toApiFailure(e))), Effect.locally(lastStatus, Option.none()))
