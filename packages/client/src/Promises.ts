/**
 * The derived client for callers that do not use Effect (the console, scripts, tests): the same
 * groups and methods as ApiClient's, each returning a Promise of the endpoint's success value that
 * rejects with an ApiFailure. The type is a mapped type over the API's groups and endpoints, as
 * HttpApiClient's own, so a new endpoint appears here without a line written for it.
 */
import { FetchHttpClient, type HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "@effect/platform"
import type { Api } from "@app/http/Api"
import { Cause, Effect, Exit, identity, Option } from "effect"
import type { Simplify } from "effect/Types"
import { make, type ClientOptions } from "./ApiClient.js"
import { ApiFailure, normalise } from "./ApiFailure.js"

type GroupsOf<A> = A extends HttpApi.HttpApi<infer _Id, infer Groups, infer _E, infer _R> ? Groups : never

/** What a method takes: the endpoint's path, urlParams, payload and headers, as HttpApiClient's. */
export type RequestOf<Endpoint> = Endpoint extends HttpApiEndpoint.HttpApiEndpoint<
  infer _Name,
  infer _Method,
  infer Path,
  infer UrlParams,
  infer Payload,
  infer Headers,
  infer _Success,
  infer _Error,
  infer _R,
  infer _RE
> ? Simplify<HttpApiEndpoint.HttpApiEndpoint.ClientRequest<Path, UrlParams, Payload, Headers, false>>
  : never

/** What a method resolves to: the endpoint's success value (the envelope's `result`, decoded). */
export type SuccessOf<Endpoint> = Endpoint extends HttpApiEndpoint.HttpApiEndpoint<
  infer _Name,
  infer _Method,
  infer _Path,
  infer _UrlParams,
  infer _Payload,
  infer _Headers,
  infer Success,
  infer _Error,
  infer _R,
  infer _RE
> ? Success
  : never

export type PromiseMethod<Endpoint> = (request: RequestOf<Endpoint>) => Promise<SuccessOf<Endpoint>>

export type PromiseGroup<Group> = Group extends HttpApiGroup.HttpApiGroup<infer _Id, infer Endpoints, infer _E, infer _R> ?
  { readonly [Endpoint in Endpoints as HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>]: PromiseMethod<Endpoint> }
  : never

/** The promise client of `Api`: `client.<group>.<endpoint>(request)`. */
export type PromiseClient = {
  readonly [Group in GroupsOf<typeof Api> as HttpApiGroup.HttpApiGroup.Name<Group>]: PromiseGroup<Group>
}

export interface PromiseClientOptions extends ClientOptions {
  /** called with every failure before the promise rejects with it (e.g. a 401 ends the console's session) */
  readonly onFailure?: (failure: ApiFailure) => void
  /** the fetch to send with (default: the global one), e.g. one that also prints each exchange */
  readonly fetch?: typeof globalThis.fetch
}

const run = <A>(effect: Effect.Effect<A, unknown>, onFailure: PromiseClientOptions["onFailure"]): Promise<A> =>
  Effect.runPromiseExit(normalise(effect)).then((exit) => {
    if (Exit.isSuccess(exit)) return exit.value
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) {
      onFailure?.(failure.value)
      throw failure.value
    }
    throw Cause.squash(exit.cause)
  })

/**
 * A promise client over fetch: `makeClient({ baseUrl, token })`. `token` may be a function, read at
 * each request (the console's stored session); for another identity, make another client.
 */
export const makeClient = (options: PromiseClientOptions = {}): PromiseClient => {
  const withFetch = options.fetch
  const client = Effect.runSync(
    make(options).pipe(
      Effect.provide(FetchHttpClient.layer),
      withFetch === undefined ? identity : Effect.provideService(FetchHttpClient.Fetch, withFetch)
    )
  ) as unknown as Record<
    string,
    Record<string, (request: unknown) => Effect.Effect<unknown, unknown>>
  >
  const promised: Record<string, Record<string, (request: unknown) => Promise<unknown>>> = {}
  for (const [group, methods] of Object.entries(client)) {
    const out: Record<string, (request: unknown) => Promise<unknown>> = {}
    for (const [name, method] of Object.entries(methods)) out[name] = (request) => run(method(request), options.onFailure)
    promised[group] = out
  }
  return promised as unknown as PromiseClient
}
