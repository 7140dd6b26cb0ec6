/**
 * How a feature's domain failures answer over HTTP: one table per feature (`<feature>/Errors.ts`),
 * keyed by the failure's tag, each entry given the failure itself. The root (DomainErrors.ts)
 * combines the tables and checks that every domain failure has an entry.
 */
import { type FailureStatus, type FieldErrors, validationDetail, VALIDATION_MESSAGE } from "./Envelope.js"

export interface ErrorEntry {
  readonly status: FailureStatus
  /** stable, UPPER_SNAKE; not in response bodies yet */
  readonly code: Uppercase<string>
  readonly message: string
  /** the envelope's `error` */
  readonly detail?: unknown
}

/**
 * An entry for each tag of E. Declare a table with `satisfies ErrorTable<E>` (not `: ErrorTable<E>`):
 * its statuses then stay literal types, which is what lets handlers' failures be checked against
 * the statuses their endpoints declare.
 */
export type ErrorTable<E extends { readonly _tag: string }> = {
  readonly [Tag in E["_tag"]]: (e: Extract<E, { readonly _tag: Tag }>) => ErrorEntry
}

/** A failure that answers exactly what a schema validation failure answers: 400 with fieldErrors. */
export const validationError = (fieldErrors: FieldErrors) => ({
  status: 400 as const,
  code: "VALIDATION_ERROR" as const,
  message: VALIDATION_MESSAGE,
  detail: validationDetail(fieldErrors)
})
