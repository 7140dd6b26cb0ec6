/**
 * The typed client of the service, derived from the same API definition as the server
 * (`Api`, packages/http/src/Api.ts) by HttpApiClient: one method per endpoint, grouped as the
 * API groups them (`client.adminCustomers.list({ urlParams })`), with the request and success
 * types of the endpoint's schemas. For Effect callers; see Promises.ts for everyone else.
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api } from "@app/http/Api"
import { Effect, FiberRef, Option } from "effect"
import { lastStatus } from "./ApiFailure.js"

/** A bearer token (staff or customer), or where to read it at each request; none: no header. */
export type Token = string | null | undefined | (() => string | null | undefined)

export interface ClientOptions {
  /** the service's origin, e.g. http://127.0.0.1:3000; none in a browser: the page's origin */
  readonly baseUrl?: string | URL | undefined
  /** sent as `Authorization: Bearer …`: a staff token for /admin, a customer's for the rest */
  readonly token?: Token
}

const tokenNow = (token: Token): string | null | undefined => (typeof token === "function" ? token() : token)

/** The derived client; needs an HttpClient (FetchHttpClient.layer in a browser or on Node). */
export const make = (options: ClientOptions = {}) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      client.pipe(
        HttpClient.mapRequest((request) => {
          const token = tokenNow(options.token)
          return token === null || token === undefined || token === "" ? request : HttpClientRequest.bearerToken(request, token)
        }),
        // the status of an answer, for an undecodable one (ApiFailure.toApiFailure)
        HttpClient.transformResponse(Effect.tap((response) => FiberRef.set(lastStatus, Option.some(response.status))))
      )
  })

/** The derived client's type: its groups, each with its endpoints' methods. */
export type Client = Effect.Effect.Success<ReturnType<typeof make>>
