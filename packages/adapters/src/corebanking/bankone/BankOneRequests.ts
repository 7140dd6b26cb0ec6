/**
 * The BankOne adapter's requests and the readings of their answers: each request built with the
 * token where BankOne wants it for that call (body, query or path; BankOneWire.ts), amounts in the
 * unit that call takes (BankOneMoney.ts); each answer decoded with its schema and read with
 * BankOneOutcomes.ts into the transport's Either (`Done` → right; refused → ProviderRefused; unknown
 * → ProviderUnknownOutcome for a write, a transient failure for a read, retried).
 */
import { ProviderRefused, ProviderUnknownOutcome } from "@app/domain"
import { Either, Schema } from "effect"
import type { AttemptError } from "../Attempt.js"
import { issuePaths, refuse, segment } from "../Mapping.js"
import { Transient, type WireRequest } from "../Sender.js"
import type { Outcome } from "./BankOneOutcomes.js"

export const post = <A, I>(path: string, schema: Schema.Schema<A, I>, body: A): WireRequest => ({
  method: "POST",
  path,
  body: JSON.stringify(Schema.encodeSync(schema)(body))
})

export const get = (path: string, query?: Record<string, string>): WireRequest => ({
  method: "GET",
  path: query === undefined ? path : `${path}?${new URLSearchParams(query)}`
})

/** BankOneWebAPI: the token as the `authtoken` query parameter (B28). */
export const webApi = (path: string, token: string, query: Record<string, string> = {}): WireRequest =>
  get(path, { authtoken: token, ...query })

export const webApiPost = <A, I>(path: string, token: string, schema: Schema.Schema<A, I>, body: A): WireRequest => ({
  ...post(path, schema, body),
  path: `${path}?${new URLSearchParams({ authtoken: token })}`
})

/** The token as the last path segment (GetCommercialBanks, B36). */
export const inPath = (path: string, token: string): WireRequest => get(`${path}/${segment(token)}`)

/** Decodes an answer; a malformed one is unknown for a write and transient for a read. */
export const decoded = <A, I>(operation: string, schema: Schema.Schema<A, I>, write: boolean) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (json: unknown): Either.Either<A, AttemptError> =>
    Either.mapLeft(decode(json), (error) =>
      write
        ? new ProviderUnknownOutcome({ operation, detail: `malformed answer (${issuePaths(error)})` })
        : new Transient({ detail: `malformed answer (${issuePaths(error)})` }))
}

/** An Outcome as the transport's Either. */
export const settle = <A>(operation: string, write: boolean, outcome: Outcome<A>): Either.Either<A, AttemptError> => {
  switch (outcome._tag) {
    case "Done":
      return Either.right(outcome.value)
    case "Refused":
      return Either.left(new ProviderRefused({ operation, code: outcome.code, reason: outcome.reason }))
    case "Unknown":
      return Either.left(
        write ? new ProviderUnknownOutcome({ operation, detail: outcome.detail }) : new Transient({ detail: outcome.detail })
      )
  }
}

/** Decode, then read the decoded answer. */
export const reading = <A, I, B>(
  operation: string,
  schema: Schema.Schema<A, I>,
  write: boolean,
  read: (answer: A) => Outcome<B>
) => {
  const decode = decoded(operation, schema, write)
  return (json: unknown) => Either.flatMap(decode(json), (answer) => settle(operation, write, read(answer)))
}

export { refuse }

/** BankOne narrations are at most 100 characters (B18). */
export const narration = (text: string): string => (text.length <= 100 ? text : text.slice(0, 100))
