/**
 * How failures answer over HTTP, and the catalogue of their codes.
 *
 * - One table per feature (`<feature>/Errors.ts`), keyed by the domain failure's tag, each entry
 *   given the failure itself: its status, stable `code`, message and detail.
 * - Next to it, the feature's catalogue: every code its table (or its handlers) can answer, with its
 *   status and meaning. Its type is derived from the table, so a code missing from the catalogue, or
 *   listed with another status than the table gives it, does not compile.
 * - The root (DomainErrors.ts) combines the tables (every domain failure must have an entry) and
 *   the catalogues into `errorCatalogue`, the one list of codes docs/errors.md and /docs publish.
 *
 * Every failure envelope carries `error.code`; clients branch on it, never on the message.
 */
import { type FailureStatus, type FieldErrors, httpFailure, validationDetail, VALIDATION_MESSAGE } from "./Envelope.js"

/** A stable, machine-readable failure code: UPPER_SNAKE. */
export type ErrorCode = Uppercase<string>

export interface ErrorEntry {
  readonly status: FailureStatus
  readonly code: ErrorCode
  readonly message: string
  /** more of the envelope's `error`, beside `code` (fieldErrors, retryAfterSeconds…) */
  readonly detail?: Readonly<Record<string, unknown>>
}

/**
 * An entry for each tag of E. Declare a table with `satisfies ErrorTable<E>` (not `: ErrorTable<E>`):
 * its statuses and codes then stay literal types, which is what lets handlers' failures be checked
 * against the statuses their endpoints declare, and catalogues against the table.
 */
export type ErrorTable<E extends { readonly _tag: string }> = {
  readonly [Tag in E["_tag"]]: (e: Extract<E, { readonly _tag: Tag }>) => ErrorEntry
}

/** One line of the catalogue. */
export interface CodeInfo {
  readonly status: FailureStatus
  /** what happened and what the client can do, for the published catalogue */
  readonly meaning: string
}

type EntryOf<T> = { [K in keyof T]: T[K] extends (...args: never) => infer R ? R : never }[keyof T]

/** The codes a table can answer, except the shared VALIDATION_ERROR. */
export type CodesOf<T> = Exclude<EntryOf<T> extends { readonly code: infer C } ? C : never, "VALIDATION_ERROR">

type StatusOfCode<Entry, C> = Entry extends { readonly code: C; readonly status: infer S } ? S : never

/**
 * A feature's catalogue: exactly the codes of its table T, each with the status T gives it (plus
 * codes its handlers answer directly, checked by `failure`).
 */
export type Catalogue<T> = {
  readonly [C in CodesOf<T> & string]: { readonly status: StatusOfCode<EntryOf<T>, C>; readonly meaning: string }
}

/** Codes the API middleware answers for every endpoint. */
export const sharedCodes = {
  VALIDATION_ERROR: {
    status: 400,
    meaning:
      "The request is malformed: `error.fieldErrors` lists the problems by field, `error.formErrors` those about the whole request (not JSON, too large, …)"
  },
  ROUTE_NOT_FOUND: { status: 404, meaning: "No endpoint at this method and path" },
  INTERNAL_ERROR: {
    status: 500,
    meaning: "Something failed on our side; nothing secret is returned. Quote `error.correlationId` to support."
  }
} as const satisfies Record<string, CodeInfo>

/** A failure that answers exactly what a schema validation failure answers: 400 with fieldErrors. */
export const validationError = (fieldErrors: FieldErrors) => ({
  status: 400 as const,
  code: "VALIDATION_ERROR" as const,
  message: VALIDATION_MESSAGE,
  detail: validationDetail(fieldErrors)
})

/**
 * A failure a handler answers directly (not a domain failure): its status is the catalogue's, so
 * the two cannot disagree.
 */
export const failure = <C extends Record<string, CodeInfo>, K extends keyof C & string>(
  catalogue: C,
  code: K,
  apiObject: string,
  message: string,
  detail?: Readonly<Record<string, unknown>>
) => httpFailure(catalogue[code].status as C[K]["status"], code, apiObject, message, detail)
