/** The typed client of the service, derived from its API definition (see docs/architecture.md). */
export * as ApiClient from "./ApiClient.js"
export { ApiFailure, INVALID_REQUEST, REQUEST_FAILED, toApiFailure, normalise, UNEXPECTED_RESPONSE } from "./ApiFailure.js"
export { makeClient, type PromiseClient, type PromiseClientOptions, type RequestOf, type SuccessOf } from "./Promises.js"
export type { ClientOptions, Token } from "./ApiClient.js"
