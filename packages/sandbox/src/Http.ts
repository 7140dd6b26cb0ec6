/**
 * The wire protocol of `@app/adapters/corebanking/Wire` served over HttpRouter: every answer is
 * HTTP 200 with `{ responseCode, responseMessage, data? }`; a malformed body or field is "26".
 * Around the routes (`sandboxApp`): the added latency, bearer authentication (HTTP 401), unknown
 * routes (HTTP 404) and unexpected failures (HTTP 500, NIBSS "96": the outcome is unknown).
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import {
  DepositRequest,
  FreezeRequest,
  LienRequest,
  OpenAccountRequest,
  PostingRequest,
  TransferRequest,
  UnfreezeRequest
} from "@app/adapters/corebanking/Wire"
import { Cause, Effect, ParseResult, Schema } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import * as Bank from "./Bank.js"
import { SandboxSettings } from "./Settings.js"
import { BANKS } from "./TestData.js"

const reply = (outcome: Bank.Outcome) =>
  HttpServerResponse.unsafeJson(
    outcome.data === undefined
      ? { responseCode: outcome.code, responseMessage: outcome.message }
      : { responseCode: outcome.code, responseMessage: outcome.message, data: outcome.data }
  )

/** Runs a handler's effect: "26" for a malformed request, the envelope otherwise. */
const answer = <E, R>(effect: Effect.Effect<Bank.Outcome, E | Bank.BadRequest, R>) =>
  effect.pipe(
    Effect.catchIf(
      (e): e is Bank.BadRequest => e instanceof Bank.BadRequest,
      (e) => Effect.succeed<Bank.Outcome>({ code: "26", message: `Bad request: ${e.message}` })
    ),
    Effect.map(reply)
  )

const body = <A, I>(schema: Schema.Schema<A, I>) =>
  HttpServerRequest.HttpServerRequest.pipe(
    Effect.flatMap((request) => request.json),
    Effect.mapError(() => new Bank.BadRequest({ message: "the body is not valid JSON" })),
    Effect.flatMap((json) =>
      Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "ignore" })(json).pipe(
        Effect.mapError((error) =>
          new Bank.BadRequest({
            message: ParseResult.ArrayFormatter.formatErrorSync(error)
              .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue.message}`)
              .join("; ")
          })
        )
      )
    )
  )

const param = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

const query = (name: string) =>
  Effect.map(HttpServerRequest.ParsedSearchParams, (params) => {
    const value = params[name]
    return typeof value === "string" ? value : undefined
  })

const posting = (kind: "debit" | "credit") =>
  Effect.gen(function*() {
    const req = yield* body(PostingRequest)
    return yield* Bank.posting(kind, req, yield* SandboxSettings)
  })

/** The routes alone (no authentication or latency): see `sandboxApp`. */
export const SandboxRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/accounts",
    answer(Effect.flatMap(body(OpenAccountRequest), Bank.openAccount))
  ),
  HttpRouter.get(
    "/accounts/by-reference/:reference",
    answer(Effect.flatMap(param("reference"), Bank.accountByReference))
  ),
  HttpRouter.get(
    "/accounts/:accountNumber",
    answer(Effect.flatMap(param("accountNumber"), Bank.accountDetails))
  ),
  HttpRouter.get(
    "/accounts/:accountNumber/transactions",
    answer(Effect.flatMap(param("accountNumber"), Bank.transactions))
  ),
  HttpRouter.post(
    "/accounts/:accountNumber/pnd/activate",
    answer(Effect.flatMap(param("accountNumber"), (n) => Bank.setPnd(n, true)))
  ),
  HttpRouter.post(
    "/accounts/:accountNumber/pnd/deactivate",
    answer(Effect.flatMap(param("accountNumber"), (n) => Bank.setPnd(n, false)))
  ),
  HttpRouter.post(
    "/accounts/:accountNumber/liens",
    answer(Effect.gen(function*() {
      const accountNumber = yield* param("accountNumber")
      return yield* Bank.placeLien(accountNumber, yield* body(LienRequest), yield* SandboxSettings)
    }))
  ),
  HttpRouter.post(
    "/accounts/:accountNumber/liens/:reference/remove",
    answer(Effect.gen(function*() {
      return yield* Bank.removeLien(yield* param("accountNumber"), yield* param("reference"))
    }))
  ),
  HttpRouter.post(
    "/accounts/:accountNumber/freeze",
    answer(Effect.gen(function*() {
      const accountNumber = yield* param("accountNumber")
      return yield* Bank.freeze(accountNumber, (yield* body(FreezeRequest)).reason)
    }))
  ),
  HttpRouter.post(
    "/accounts/:accountNumber/unfreeze",
    answer(Effect.gen(function*() {
      const accountNumber = yield* param("accountNumber")
      return yield* Bank.unfreeze(accountNumber, (yield* body(UnfreezeRequest)).freezeReference)
    }))
  ),
  HttpRouter.post(
    "/transactions/debit",
    answer(posting("debit"))
  ),
  HttpRouter.post(
    "/transactions/credit",
    answer(posting("credit"))
  ),
  HttpRouter.get(
    "/transactions/:reference/status",
    answer(Effect.flatMap(param("reference"), Bank.requery))
  ),
  HttpRouter.get(
    "/nip/name-enquiry",
    answer(Effect.gen(function*() {
      const accountNumber = yield* query("accountNumber")
      const bankCode = yield* query("bankCode")
      if (accountNumber === undefined || bankCode === undefined) {
        return yield* new Bank.BadRequest({ message: "accountNumber and bankCode are required" })
      }
      return yield* Bank.nameEnquiry(accountNumber, bankCode)
    }))
  ),
  HttpRouter.post(
    "/nip/transfers",
    answer(Effect.gen(function*() {
      const settings = yield* SandboxSettings
      const { outcome, slow } = yield* Bank.transfer(yield* body(TransferRequest), settings)
      // 0004: applied already (a requery says Successful), but the answer comes too late
      if (slow) yield* Effect.sleep(settings.slowTransferDelayMs)
      return outcome
    }))
  ),
  HttpRouter.get(
    "/bvn/:bvn",
    answer(Effect.flatMap(param("bvn"), Bank.bvn))
  ),
  HttpRouter.get(
    "/banks",
    answer(Effect.succeed<Bank.Outcome>({
      code: "00",
      message: "Approved or completed successfully",
      data: { banks: BANKS.map((b) => ({ code: b.code, name: b.name })) }
    }))
  ),
  HttpRouter.post(
    "/sandbox/deposits",
    answer(Effect.gen(function*() {
      const settings = yield* SandboxSettings
      const req = yield* body(DepositRequest)
      const { notification, outcome } = yield* Bank.deposit(req.accountNumber, req.amountKobo)
      if (notification !== undefined) yield* settings.announce(notification)
      return outcome
    }))
  ),
  HttpRouter.get(
    "/sandbox/ledger",
    answer(Effect.map(Bank.ledger, (totals): Bank.Outcome => ({
      code: "00",
      message: "Approved or completed successfully",
      data: totals
    })))
  )
)

const digest = (value: string) => createHash("sha256").update(value).digest()

const authorized = (header: string | undefined, token: string): boolean => {
  const match = /^Bearer (.+)$/i.exec(header?.trim() ?? "")
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token))
}

const unauthorized = HttpServerResponse.unsafeJson(
  { responseCode: "63", responseMessage: "Security violation: missing or invalid bearer token" },
  { status: 401, headers: { "www-authenticate": "Bearer" } }
)

/** The served app: latency, then authentication, then the routes; 404 and 500 as JSON. */
export const sandboxApp = Effect.gen(function*() {
  const settings = yield* SandboxSettings
  const request = yield* HttpServerRequest.HttpServerRequest
  if (settings.latencyMs > 0) yield* Effect.sleep(settings.latencyMs)
  if (!authorized(request.headers["authorization"], settings.token)) return unauthorized
  return yield* SandboxRoutes
}).pipe(
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (failure._tag === "Some" && (failure.value as { _tag?: unknown })._tag === "RouteNotFound") {
      return Effect.succeed(
        HttpServerResponse.unsafeJson({ responseCode: "25", responseMessage: "No such route" }, { status: 404 })
      )
    }
    if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
    return Effect.as(
      Effect.logError("sandbox: request failed", cause),
      HttpServerResponse.unsafeJson({ responseCode: "96", responseMessage: "System malfunction" }, { status: 500 })
    )
  })
)
