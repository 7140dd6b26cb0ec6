/**
 * A failure that a client can be told about, defined once: its class carries the HTTP status, the
 * stable `code` (UPPER_SNAKE, what clients branch on) and its meaning for the published catalogue
 * (`static kinds`), and each instance says its message and detail (`answer()`). The HTTP edge reads
 * nothing else: no table elsewhere repeats a status or a code.
 *
 *   export class PlanNotFound extends Failure("PlanNotFound", {
 *     status: 404, code: "PLAN_NOT_FOUND", message: "No disbursement plan found",
 *     meaning: "The customer has no disbursement plan"
 *   }) {}
 *
 * A class whose message or detail depends on its fields overrides `answer()`; one that answers
 * two codes (a wrong code vs an expired one) lists both kinds and picks one in `answer()`. Failures
 * the client answers as bad input use `ValidationKind` and `validation(…)`.
 */
import { Data, type Types } from "effect"
import type { YieldableError } from "effect/Cause"

/** How a failure answers over HTTP: status, stable code, and what it means (for the catalogue). */
export interface FailureKind<S extends number = number, C extends string = string> {
  readonly status: S
  readonly code: C
  readonly meaning: string
  /** the message, when it does not depend on the failure's fields */
  readonly message?: string
}

/** What one failure tells the client: one of its class's codes, a message and any detail. */
export interface FailureAnswer<C extends string = string> {
  readonly code: C
  readonly message: string
  /** more of the envelope's `error`, beside `code` (fieldErrors, retryAfterSeconds…) */
  readonly detail?: Readonly<Record<string, unknown>>
}

/** An instance of a failure class. */
export interface Answerable<C extends string = string> {
  answer(): FailureAnswer<C>
}

/** A failure class: its kinds are readable without an instance (docs, OpenAPI). */
export interface FailureClass<K extends FailureKind = FailureKind> {
  readonly kinds: ReadonlyArray<K>
}

/** The codes a failure (instance type) can answer. */
export type CodeOf<E> = E extends Answerable<infer C> ? C : never

export const VALIDATION_MESSAGE = "Validation error"

/** Bad input: the client sees what a schema's decode failure shows, 400 with fieldErrors/formErrors. */
export const ValidationKind = {
  status: 400,
  code: "VALIDATION_ERROR",
  meaning:
    "The request is malformed: `error.fieldErrors` lists the problems by field, `error.formErrors` those about the whole request (not JSON, too large, …)",
  message: VALIDATION_MESSAGE
} as const

/** The answer of a validation failure: the problems by field, and those about the whole request. */
export const validation = (
  fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>,
  formErrors: ReadonlyArray<string> = []
): FailureAnswer<"VALIDATION_ERROR"> => ({
  code: "VALIDATION_ERROR",
  message: VALIDATION_MESSAGE,
  detail: { fieldErrors, formErrors }
})

type Fields<A> = Types.Equals<A, {}> extends true ? void
  : { readonly [P in keyof A as P extends "_tag" ? never : P]: A[P] }

/**
 * `Data.TaggedError(tag)` whose class also carries its failure kinds (the first is the default
 * answer's) and answers with `answer()`.
 */
export const Failure = <const Tag extends string, const Kinds extends readonly [FailureKind, ...ReadonlyArray<FailureKind>]>(
  tag: Tag,
  ...kinds: Kinds
): (new<A extends Record<string, any> = {}>(
  args: Fields<A>
) => YieldableError & { readonly _tag: Tag } & Readonly<A> & Answerable<Kinds[number]["code"]>) & { readonly kinds: Kinds } => {
  const [first] = kinds
  class Base extends (Data.TaggedError(tag) as new(args?: {}) => YieldableError) {
    static readonly kinds = kinds
    answer(): FailureAnswer<string> {
      return { code: first.code, message: first.message ?? first.meaning }
    }
  }
  return Base as never
}
