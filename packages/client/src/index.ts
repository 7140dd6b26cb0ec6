/** The typed client of the service, derived from its API definition (see docs/architecture.md). */
export * as ApiClient from "./ApiClient.js"
export { ApiFailure, INVALID_REQUEST, REQUEST_FAILED, toApiFailure, normalise, UNEXPECTED_RESPONSE } from "./ApiFailure.js"
export { makeClient, type PromiseClient, type PromiseClientOptions, type RequestOf, type SuccessOf } from "./Promises.js"
export type { ClientOptions, Token } from "./ApiClient.js"
/** The ids' brands, for a caller that holds an id as a plain string (a URL's path, a form): `CustomerId.make(s)`. */
export {
  AccountId, AlertId, ApprovalId, BeneficiaryId, CustomerId, DeletionId, FreezeId, SpendingId, StaffId, TicketId, TransactionId
} from "@app/domain"
