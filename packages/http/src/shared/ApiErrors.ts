/**
 * The failures any endpoint can answer, whatever it does: bad input (a schema's decode failure, or
 * a body that is not JSON or too large), an unknown route, and a defect. ErrorMiddleware answers
 * them; Api.ts declares them for every operation.
 */
import { Failure, ProviderMisconfigured, ProviderRefused, ProviderUnknownOutcome, validation, ValidationKind } from "@app/domain"
import type { FieldErrors } from "./Envelope.js"

/** Bad input: what the request's schema refused, by field, and what is wrong with the whole request. */
export class ValidationError extends Failure("ValidationError", ValidationKind)<{
  readonly fieldErrors: FieldErrors
  readonly formErrors: ReadonlyArray<string>
}> {
  override answer() {
    return validation(this.fieldErrors, this.formErrors)
  }
}

export class RouteNotFound extends Failure("RouteNotFound", {
  status: 404,
  code: "ROUTE_NOT_FOUND",
  message: "Route not found",
  meaning: "No endpoint at this method and path"
}) {}

/** A defect: the cause is logged under the correlation id, never sent. */
export class InternalError extends Failure("InternalError", {
  status: 500,
  code: "INTERNAL_ERROR",
  message: "Something went wrong on our side. Please try again; if it persists, contact support with the correlation id.",
  meaning: "Something failed on our side; nothing secret is returned. Quote `error.correlationId` to support."
})<{ readonly correlationId: string }> {
  override answer() {
    return { ...super.answer(), detail: { correlationId: this.correlationId } }
  }
}

/** The core banking provider's failures, for the endpoints that call the bank: `errors(...BankFailures, …)`. */
export const BankFailures = [ProviderRefused, ProviderUnknownOutcome, ProviderMisconfigured] as const
