/**
 * The response envelope of the spec, for every /api/v1 response:
 *   { apiObject, code, status: "success" | "failure", message, result, error? }
 *
 * Success: `success(apiObject, payload)` is a Schema.transform from the envelope to the payload,
 * so handlers return plain values while the wire and the OpenAPI document show the envelope.
 *
 * Failure: one runtime class, `HttpFailure`, carries status, code, message and detail; the envelope's
 * `error` is `{ code, ...detail }`, so every failure has a stable `error.code`, repeated as
 * `data.code` (the spec names the code of delete-account's 409 `data.code CLOSE_ACCOUNT_FIRST`: both
 * spellings are served, always equal, for every failure). A failure class (domain or handler, see
 * @app/domain's shared/Failure.ts) becomes one with `toHttpFailure`; `errors(…classes)` gives the
 * schemas an endpoint declares, one per code (its status, its `error.code` literal, its meaning),
 * so the OpenAPI document lists each operation's codes and a client decodes each failure.
 * `failureResponse` builds the same envelope for failures that never reach a schema (decode
 * errors, unknown routes, defects) in the API middleware.
 */
import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import type { Answerable, CodeOf, FailureClass, FailureKind } from "@app/domain"
import { Data, Schema } from "effect"

export const success = <A, I, R>(
  apiObject: string,
  payload: Schema.Schema<A, I, R>,
  options: { readonly status?: number; readonly message?: string } = {}
) => {
  const status = options.status ?? 200
  const message = options.message ?? "Success."
  return Schema.transform(
    Schema.Struct({
      apiObject: Schema.Literal(apiObject),
      code: Schema.Literal(status),
      status: Schema.Literal("success"),
      message: Schema.String,
      result: payload
    }),
    Schema.typeSchema(payload),
    {
      strict: true,
      decode: (envelope) => envelope.result,
      encode: (result) => ({ apiObject, code: status, status: "success" as const, message, result })
    }
  ).annotations(HttpApiSchema.annotations({ status }))
}

/** `result` of a success that carries no data. */
export const NoData = Schema.Struct({})

export class HttpFailure extends Data.TaggedError("HttpFailure")<{
  readonly status: number
  /** the stable machine-readable code, UPPER_SNAKE */
  readonly code: string
  readonly apiObject: string
  readonly message: string
  /** more of the envelope's `error`, beside `code` */
  readonly detail?: Readonly<Record<string, unknown>>
}> {}

/**
 * An HttpFailure known to carry one of the codes C (one member per code). `errors(…)` encodes
 * exactly these, so a handler failing with one type-checks only where its endpoint (or group,
 * middleware, or the API) declares a class answering that code.
 */
export type HttpFailureOf<C extends string> = C extends string ? HttpFailure & { readonly code: C } : never

/** The status a failure class gives one of its codes. */
const statusOf = (e: Answerable, code: string): number => {
  const kind = (e.constructor as Partial<FailureClass>).kinds?.find((k) => k.code === code)
  if (kind === undefined) throw new Error(`${code} is not among the kinds of ${e.constructor.name}`)
  return kind.status
}

/** A failure (domain or handler) as the HttpFailure of `apiObject`: its answer, at its kind's status. */
export const toHttpFailure = (apiObject: string) => <E extends Answerable>(e: E): HttpFailureOf<CodeOf<E>> => {
  const { code, detail, message } = e.answer()
  return new HttpFailure({
    status: statusOf(e, code),
    code,
    apiObject,
    message,
    ...(detail === undefined ? {} : { detail })
  }) as HttpFailureOf<CodeOf<E>>
}

export const failureBody = (f: HttpFailure) => ({
  apiObject: f.apiObject,
  code: f.status,
  status: "failure" as const,
  message: f.message,
  result: {},
  error: { ...f.detail, code: f.code },
  data: { code: f.code }
})

export const failureResponse = (f: HttpFailure) => HttpServerResponse.unsafeJson(failureBody(f), { status: f.status })

/** The wire form of one code's failure envelope. */
export interface FailureEnvelope<C extends string = string> {
  readonly apiObject: string
  readonly code: number
  readonly status: "failure"
  readonly message: string
  readonly result: {}
  readonly error: { readonly code: C; readonly [detail: string]: unknown }
  readonly data: { readonly code: C }
}

const makeSchema = <C extends string>(kind: FailureKind<number, C>): Schema.Schema<HttpFailureOf<C>, FailureEnvelope<C>> =>
  Schema.transform(
    Schema.Struct({
      apiObject: Schema.String,
      code: Schema.Literal(kind.status),
      status: Schema.Literal("failure"),
      message: Schema.String,
      result: Schema.Struct({}),
      error: Schema.Struct(
        { code: Schema.Literal(kind.code).annotations({ description: "Stable machine-readable failure code (UPPER_SNAKE)" }) },
        Schema.Record({ key: Schema.String, value: Schema.Unknown })
      ),
      data: Schema.Struct({
        code: Schema.Literal(kind.code).annotations({ description: "The same code as error.code (kept for clients that read data.code)" })
      })
    }),
    Schema.declare((u): u is HttpFailureOf<C> => u instanceof HttpFailure && u.code === kind.code),
    {
      strict: true,
      decode: (e) => {
        const { code: _code, ...detail } = e.error
        return new HttpFailure({ status: kind.status, code: kind.code, apiObject: e.apiObject, message: e.message, detail }) as HttpFailureOf<C>
      },
      encode: (f) => ({ ...failureBody(f), code: kind.status, error: { ...f.detail, code: kind.code }, data: { code: kind.code } })
    }
  ).annotations({
    ...HttpApiSchema.annotations({ status: kind.status }),
    identifier: kind.code,
    title: kind.code,
    description: kind.meaning
  }) as never

/** One schema per code, created once: HttpApi collects error schemas by identity. */
const schemas = new Map<string, Schema.Schema<HttpFailure, FailureEnvelope>>()

/** The failure schema of one code (its envelope with that `error.code`, its status, its meaning). */
export const failureSchema = <C extends string>(kind: FailureKind<number, C>): Schema.Schema<HttpFailureOf<C>, FailureEnvelope<C>> => {
  const known = schemas.get(kind.code)
  if (known !== undefined) return known as never
  const made = makeSchema(kind)
  schemas.set(kind.code, made as never)
  return made
}

type CodesOfClass<K> = K extends FailureClass<infer Kind> ? Kind["code"] : never

/**
 * The failure schemas of every code the given classes answer, as one, for `addError` (endpoint,
 * group or API) or a middleware's `failure`: `.addError(errors(InsufficientBalance, MovementInFlight))`.
 */
export const errors = <const Classes extends ReadonlyArray<FailureClass>>(
  ...classes: Classes
): Schema.Schema<HttpFailureOf<CodesOfClass<Classes[number]>>, FailureEnvelope<CodesOfClass<Classes[number]>>> => {
  const members = [...new Set(classes.flatMap((c) => c.kinds.map((kind) => failureSchema(kind))))]
  return (members.length === 1 ? members[0] : Schema.Union(...members)) as never
}

export type FieldErrors = Record<string, ReadonlyArray<string>>
