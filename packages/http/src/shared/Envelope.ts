/**
 * The response envelope of the spec, for every /api/v1 response:
 *   { apiObject, code, status: "success" | "failure", message, result, error? }
 *
 * Success: `success(apiObject, payload)` is a Schema.transform from the envelope to the payload,
 * so handlers return plain values while the wire and the OpenAPI document show the envelope.
 *
 * Failure: one error class, `HttpFailure`, carries status, code, message and detail; the envelope's
 * `error` is `{ code, ...detail }`, so every failure has a stable `error.code` (the catalogue is
 * `errorCatalogue`, see shared/ErrorTable.ts), repeated as `data.code` (the spec names the code of
 * delete-account's 409 `data.code CLOSE_ACCOUNT_FIRST`: both spellings are served, always equal,
 * for every failure). Its schemas (one per
 * status, so HttpApi knows each status) encode it to the failure envelope; `failureResponse`
 * builds the same envelope for failures that never reach a schema (decode errors, unknown routes,
 * defects) in the API middleware.
 */
import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
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
 * An HttpFailure whose status is known to be S. `Failures[S]` encodes exactly these, so a handler
 * failing with one type-checks only where its endpoint (or group, or the API) declares `Failures[S]`.
 */
export type HttpFailureWith<S extends number> = HttpFailure & { readonly status: S }

/** A failure of `status`, typed by it (see HttpFailureWith). */
export const httpFailure = <S extends FailureStatus>(
  status: S,
  code: string,
  apiObject: string,
  message: string,
  detail?: Readonly<Record<string, unknown>>
) => new HttpFailure({ status, code, apiObject, message, ...(detail === undefined ? {} : { detail }) }) as HttpFailureWith<S>

export const failureBody = (f: HttpFailure) => ({
  apiObject: f.apiObject,
  code: f.status,
  status: "failure" as const,
  message: f.message,
  result: {},
  error: { ...f.detail, code: f.code },
  data: { code: f.code }
})

/** The envelope's `error`: always a `code`, plus the failure's detail. */
const FailureError = Schema.Struct(
  {
    code: Schema.String.annotations({
      description: "Stable machine-readable failure code (UPPER_SNAKE); see the error-code catalogue in the API description"
    })
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/** The envelope's `data`: the same code as `error.code` (the spec's spelling for delete-account's 409). */
const FailureData = Schema.Struct({
  code: Schema.String.annotations({ description: "The same code as error.code (kept for clients that read data.code)" })
})

export const failureResponse = (f: HttpFailure) => HttpServerResponse.unsafeJson(failureBody(f), { status: f.status })

const failureSchema = <S extends number>(status: S, description: string) =>
  Schema.transform(
    Schema.Struct({
      apiObject: Schema.String,
      code: Schema.Literal(status),
      status: Schema.Literal("failure"),
      message: Schema.String,
      result: Schema.Struct({}),
      error: FailureError,
      data: FailureData
    }),
    Schema.declare((u): u is HttpFailureWith<S> => u instanceof HttpFailure && u.status === status),
    {
      strict: true,
      decode: (e) => {
        const { code, ...detail } = e.error
        return new HttpFailure({ status, code, apiObject: e.apiObject, message: e.message, detail }) as HttpFailureWith<S>
      },
      encode: (f) => ({ ...failureBody(f), code: status })
    }
  ).annotations({ ...HttpApiSchema.annotations({ status }), description })

/** Failure schemas by status, each created once (HttpApi collects error schemas by identity). */
export const Failures = {
  400: failureSchema(400, "Validation error or request refused"),
  401: failureSchema(401, "Authentication required or credentials invalid"),
  403: failureSchema(403, "Forbidden, e.g. account suspended"),
  404: failureSchema(404, "Not found"),
  409: failureSchema(409, "Conflict"),
  410: failureSchema(410, "Gone: the link expired or was already used"),
  423: failureSchema(423, "Locked: too many wrong PINs; retry after error.retryAfterSeconds (Retry-After)"),
  429: failureSchema(429, "Too many requests"),
  500: failureSchema(500, "Internal error"),
  502: failureSchema(502, "Bad gateway: the bank refused the operation or gave no final answer"),
  503: failureSchema(503, "Service unavailable: not ready, or the request took too long; retry later")
} as const

/** A status the API can answer a failure with. */
export type FailureStatus = keyof typeof Failures

/** The failure schemas of `statuses` as one, for an endpoint's `addError`: the statuses it can answer. */
export const failuresOf = <const S extends ReadonlyArray<FailureStatus>>(...statuses: S) =>
  Schema.Union(...statuses.map((status) => Failures[status] as (typeof Failures)[S[number]]))

export type FieldErrors = Record<string, ReadonlyArray<string>>

export const VALIDATION_MESSAGE = "Validation error"

/** The `error` of a validation failure: the issues by field, and those about the whole request. */
export const validationDetail = (fieldErrors: FieldErrors, formErrors: ReadonlyArray<string> = []) => ({ fieldErrors, formErrors })

export const validationFailure = (apiObject: string, fieldErrors: FieldErrors, formErrors: ReadonlyArray<string> = []) =>
  httpFailure(400, "VALIDATION_ERROR", apiObject, VALIDATION_MESSAGE, validationDetail(fieldErrors, formErrors))
