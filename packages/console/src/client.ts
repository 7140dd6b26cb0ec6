/**
 * The service's API as the console calls it: @app/client's promise client (derived from the
 * server's own API definition), with the staff bearer token of this tab's session. Every method
 * resolves to the envelope's decoded `result` and rejects with an ApiFailure.
 */
import { ApiFailure, makeClient, type PromiseClient } from "@app/client"

const TOKEN_KEY = "kobo.admin.token"

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY)
export const storeToken = (token: string | null) =>
  token === null ? sessionStorage.removeItem(TOKEN_KEY) : sessionStorage.setItem(TOKEN_KEY, token)

/** Called on a 401 while signed in: the session is over. */
let onUnauthorized: () => void = () => {}
export const setUnauthorizedHandler = (handler: () => void) => {
  onUnauthorized = handler
}

export const api: PromiseClient = makeClient({
  token: storedToken,
  onFailure: (failure) => {
    if (failure.status === 401 && storedToken() !== null) onUnauthorized()
  }
})

/** What a client method resolves to. */
export type Result<F> = F extends (...args: never) => Promise<infer A> ? A : never

export type Me = Result<typeof api.adminStaff.me>
export type Permission = Me["permissions"][number]
export type Transaction = Result<typeof api.adminLedger.search>["items"][number]
export type AuditEntry = Result<typeof api.adminAudit.list>["items"][number]

/** A failure for a person: the envelope's message, and the field it is about when it names one. */
export const errorText = (e: unknown): string => {
  if (e instanceof ApiFailure) {
    const field = typeof e.detail.field === "string" ? ` (${e.detail.field})` : ""
    return `${e.message}${field}`
  }
  return e instanceof Error ? e.message : String(e)
}

type UrlParamsOf<F> = F extends (request: infer R) => Promise<unknown> ? R extends { readonly urlParams: infer U } ? U : never : never

/**
 * Calls a list endpoint with a page's filters, its empty ones dropped (an empty filter is no filter).
 * The filters are form values (strings from fixed options, numbers); the endpoint's schema checks
 * them before the request is sent, so a wrong one rejects with an ApiFailure INVALID_REQUEST.
 */
export const query = <F extends (request: never) => Promise<unknown>>(
  method: F,
  filters: Readonly<Record<string, string | number | bigint>>
): ReturnType<F> =>
  (method as unknown as (request: { readonly urlParams: UrlParamsOf<F> }) => ReturnType<F>)({
    urlParams: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== "")) as UrlParamsOf<F>
  })

/** A kobo amount typed in a form: whole kobo as a bigint; anything else as typed, for the schema to refuse. */
export const koboInput = (value: string): bigint | string => (/^\d{1,15}$/.test(value) ? BigInt(value) : value)
