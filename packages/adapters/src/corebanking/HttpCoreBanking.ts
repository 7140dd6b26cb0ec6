/**
 * The HTTP adapter of the CoreBanking port (and of TestFunding), speaking the wire protocol of
 * `Wire.ts` over `@effect/platform`'s HttpClient.
 *
 * Every call: pre-send checks (references 1–12 chars, amounts whole kobo ≤ MAX_SAFE_INTEGER, the
 * body encoded with its Wire schema; a failed check is ProviderRefused "26" and nothing is sent) →
 * one permit of a semaphore (`maxConcurrency`) per attempt → `Authorization: Bearer <token>` → at most
 * `timeoutMs` per attempt (`CORE_BANKING_TIMEOUT_MS`) → the answer decoded with the Wire schemas.
 *
 * Classification of one attempt:
 *   HTTP 401/403                        → ProviderMisconfigured (never retried)
 *   HTTP 404 (even with an envelope)    → ProviderMisconfigured (wrong URL: never "not found")
 *   other 4xx                           → ProviderRefused with its envelope's refusal code (not
 *                                         success, pending, ambiguous or "94"), else
 *                                         ProviderMisconfigured (off-protocol answer)
 *   HTTP 5xx, 408, 429, timeout, connection refused/reset, unreadable body → transient
 *   answer that does not decode         → ProviderUnknownOutcome (reads and writes alike)
 *   "00"                                → success (its `data` decoded with the operation's schema)
 *   pending "01"/"09"/"91"/"97"         → transfer: "pending"; requery: "pending";
 *                                         other writes: ProviderUnknownOutcome (requery);
 *                                         reads: transient
 *   ambiguous "96"/"06"/"68"            → writes: ProviderUnknownOutcome (requery; never re-sent
 *                                         blindly); reads: transient
 *   (`Wire.Codes.ambiguous`: system malfunction, error, response received too late)
 *   "25" on findAccountByReference/bvnLookup → Option.none; on requery → "not_found"
 *   "94" (duplicate) on ANY write, first attempt or retry → ProviderUnknownOutcome: the reference was
 *                                         seen before (our earlier attempt, or a crashed run's, may
 *                                         have landed; strict providers answer every repeat "94"), so
 *                                         only a requery says what happened, never a refusal
 *   any other code                      → ProviderRefused { operation, code, reason: responseMessage }
 * A transient failure is retried (exponential backoff from `retryBaseDelayMs`, jittered, capped at
 * 2 s, `maxAttempts` attempts in all) only where repeating is safe; when attempts run out, or the
 * call is not retried, it becomes ProviderUnknownOutcome. A definite answer is never retried, and
 * neither is a TIMEOUT: CORE_BANKING_TIMEOUT_MS is how long the service waits for one provider call
 * before the outcome is unknown (operations.md), so a slow provider costs one timeout, not
 * `maxAttempts` of them; the caller learns the outcome later by requery with the same reference.
 *
 * | operation              | route                                          | retried | why                                             |
 * |------------------------|------------------------------------------------|---------|-------------------------------------------------|
 * | openAccount            | POST /accounts                                 | yes     | provider deduplicates customerReference         |
 * | findAccountByReference | GET  /accounts/by-reference/{reference}        | yes     | read                                            |
 * | account                | GET  /accounts/{accountNumber}                 | yes     | read                                            |
 * | history                | GET  /accounts/{accountNumber}/transactions    | yes     | read                                            |
 * | activatePnd            | POST /accounts/{n}/pnd/activate                | yes     | sets a flag: idempotent                         |
 * | deactivatePnd          | POST /accounts/{n}/pnd/deactivate              | yes     | clears a flag: idempotent                       |
 * | placeLien              | POST /accounts/{n}/liens                       | yes     | provider deduplicates the lien reference        |
 * | removeLien             | POST /accounts/{n}/liens/{reference}/remove    | yes     | provider deduplicates the lien reference        |
 * | freeze                 | POST /accounts/{n}/freeze                      | NO      | a second freeze makes a second freeze reference |
 * | unfreeze               | POST /accounts/{n}/unfreeze                    | NO      | no request reference: a repeat after an applied |
 * |                        |                                                |         | unfreeze could be refused and misreport it;     |
 * |                        |                                                |         | learn the outcome from account().frozen         |
 * | debit                  | POST /transactions/debit                       | yes     | provider deduplicates retrievalReference        |
 * | credit                 | POST /transactions/credit                      | yes     | provider deduplicates retrievalReference        |
 * | nameEnquiry            | GET  /nip/name-enquiry                         | yes     | read                                            |
 * | transfer               | POST /nip/transfers                            | yes     | provider deduplicates transactionReference      |
 * | requery                | GET  /transactions/{reference}/status          | yes     | read                                            |
 * | bvnLookup              | GET  /bvn/{bvn}                                | yes     | read                                            |
 * | banks                  | GET  /banks                                    | yes     | read                                            |
 * | TestFunding.deposit    | POST /sandbox/deposits                         | NO      | no reference: a repeat would deposit twice      |
 *
 * Observability: one span per call, `CoreBanking.<operation>` (`TestFunding.deposit`), with the
 * attributes `operation`, `reference` (our request reference, when the call has one), `attempt` (the
 * number of attempts made) and `outcome`. Logs (debug per attempt and outcome, warning on transient
 * failures, unknown outcomes and misconfiguration) carry only the operation, reference, attempt,
 * response code and our own description of the failure: never the token, a BVN, a body, a URL or
 * personal data. The BVN is in the URL of its request, so that request gets no HTTP client span.
 */
import {
  type Bank,
  type BvnRecord,
  CoreBanking,
  type CoreBankingError,
  type Kobo,
  MAX_REFERENCE_LENGTH,
  type NameEnquiryResult,
  type ProviderAccount,
  type ProviderTransaction,
  ProviderMisconfigured,
  ProviderRefused,
  ProviderUnknownOutcome,
  type RequeryStatus,
  ResponseCodes,
  TestFunding,
  type TransferStatus
} from "@app/domain"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform/HttpClientError"
import {
  Context,
  Data,
  Duration,
  Effect,
  Layer,
  Option,
  ParseResult,
  Redacted,
  Ref,
  Schedule,
  Schema
} from "effect"
import * as Wire from "./Wire.js"

export interface CoreBankingHttpConfig {
  /** e.g. http://localhost:8081; routes of Wire.ts are appended */
  readonly baseUrl: string
  readonly token: Redacted.Redacted<string>
  /** per attempt (CORE_BANKING_TIMEOUT_MS) */
  readonly timeoutMs: number
  /** concurrent provider calls (default 16) */
  readonly maxConcurrency: number
  /** attempts in all for calls that are safe to repeat (default 3) */
  readonly maxAttempts: number
  /** first backoff delay between attempts (default 100 ms) */
  readonly retryBaseDelayMs?: number
}

/** What `makeHttpCoreBanking` accepts: the config with its defaulted fields optional. */
export type CoreBankingHttpOptions =
  & Pick<CoreBankingHttpConfig, "baseUrl" | "token" | "timeoutMs">
  & Partial<Pick<CoreBankingHttpConfig, "maxConcurrency" | "maxAttempts" | "retryBaseDelayMs">>

export const CoreBankingHttpDefaults = {
  maxConcurrency: 16,
  maxAttempts: 3,
  retryBaseDelayMs: 100
} as const

export interface HttpCoreBanking {
  readonly coreBanking: Context.Tag.Service<CoreBanking>
  readonly testFunding: Context.Tag.Service<TestFunding>
}

const MAX_BACKOFF = Duration.seconds(2)
const BAD_REQUEST = Wire.Codes.badRequest
const LIEN_REASON = "kobo-plans commitment"

/** A failure of one attempt that may be retried when the call is safe to repeat. */
class Transient extends Data.TaggedError("Transient")<{ readonly detail: string; readonly timedOut?: boolean }> {}

type AttemptError = CoreBankingError | Transient

interface Call<D, I, A> {
  readonly operation: string
  /** span/log name, default `CoreBanking.<operation>` */
  readonly spanName?: string
  /** our reference of the request, when it has one (never a secret) */
  readonly reference: string | undefined
  readonly write: boolean
  readonly retry: boolean
  /** false: the URL holds personal data (BVN), so the HTTP client must not record it in a span */
  readonly traceHttp?: boolean
  /** the request, after the pre-send checks (a failed check is ProviderRefused "26") */
  readonly request: Effect.Effect<HttpClientRequest.HttpClientRequest, ProviderRefused>
  /** the schema of `data` on "00" */
  readonly data: Schema.Schema<D, I>
  readonly onSuccess: (data: D) => A
  /** the value of a pending code, where the port has one (transfer, requery) */
  readonly onPending?: A
  /** the value of "25", where the port has one (lookups) */
  readonly onNotFound?: A
}

const RawEnvelope = Schema.parseJson(Wire.Envelope(Schema.Unknown))
const decodeEnvelope = Schema.decodeUnknown(RawEnvelope)
type RawEnvelope = typeof RawEnvelope.Type

const VoidData = Schema.UndefinedOr(Wire.Empty)

/** The history answer, with postedAt decoded to a (valid) Date. */
const HistoryData = Schema.Struct({
  transactions: Schema.Array(Schema.Struct({ ...Wire.WireTransaction.fields, postedAt: Schema.Date }))
})

/** Where a decode failed (paths only: the messages could quote personal data). */
const issuePaths = (error: ParseResult.ParseError): string => {
  const paths = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
    issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".")
  )
  return [...new Set(paths)].slice(0, 5).join(", ")
}

/** The error code of a transport failure (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…), if any. */
const transportCode = (cause: unknown): string | undefined => {
  let current: unknown = cause
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const segment = encodeURIComponent

/** A code that can only mean "refused": not success, pending, ambiguous or duplicate. */
const isRefusalCode = (code: string): boolean =>
  code !== ResponseCodes.success && code !== Wire.Codes.duplicate && !ResponseCodes.pending.includes(code) &&
  !Wire.Codes.ambiguous.includes(code)

export const makeHttpCoreBanking = (
  config: CoreBankingHttpOptions
): Effect.Effect<HttpCoreBanking, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const timeoutMs = Math.max(1, config.timeoutMs)
    const maxConcurrency = Math.max(1, Math.floor(config.maxConcurrency ?? CoreBankingHttpDefaults.maxConcurrency))
    const maxAttempts = Math.max(1, Math.floor(config.maxAttempts ?? CoreBankingHttpDefaults.maxAttempts))
    const retryBaseDelayMs = Math.max(0, config.retryBaseDelayMs ?? CoreBankingHttpDefaults.retryBaseDelayMs)
    const semaphore = yield* Effect.makeSemaphore(maxConcurrency)

    const client = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest((request) =>
        request.pipe(
          HttpClientRequest.prependUrl(config.baseUrl),
          HttpClientRequest.bearerToken(config.token),
          HttpClientRequest.acceptJson
        )
      )
    )
    const untracedClient = client.pipe(HttpClient.withTracerDisabledWhen(() => true))

    const backoff = Schedule.exponential(Duration.millis(retryBaseDelayMs), 2).pipe(
      Schedule.modifyDelay((delay) => Duration.min(delay, MAX_BACKOFF)),
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(maxAttempts - 1))
    )

    // ---- pre-send checks ---------------------------------------------------------------------

    const refuse = (operation: string, reason: string) =>
      new ProviderRefused({ operation, code: BAD_REQUEST, reason })

    const checkReference = (operation: string, reference: string): Effect.Effect<string, ProviderRefused> =>
      reference.length === 0
        ? Effect.fail(refuse(operation, "reference is empty"))
        : reference.length > MAX_REFERENCE_LENGTH
        ? Effect.fail(refuse(operation, `reference longer than ${MAX_REFERENCE_LENGTH} characters`))
        : Effect.succeed(reference)

    const wireAmount = (operation: string, amount: Kobo): Effect.Effect<number, ProviderRefused> =>
      amount < 0n
        ? Effect.fail(refuse(operation, "amount is negative"))
        : amount > BigInt(Number.MAX_SAFE_INTEGER)
        ? Effect.fail(refuse(operation, "amount too large to send"))
        : Effect.succeed(Number(amount))

    const post = <A, I>(
      operation: string,
      path: string,
      schema: Schema.Schema<A, I>,
      body: A
    ): Effect.Effect<HttpClientRequest.HttpClientRequest, ProviderRefused> =>
      Schema.encode(schema)(body).pipe(
        Effect.mapError((error) => refuse(operation, `invalid request: ${issuePaths(error)}`)),
        Effect.map((encoded) => HttpClientRequest.post(path).pipe(HttpClientRequest.bodyUnsafeJson(encoded)))
      )

    const postEmpty = (path: string) => Effect.succeed(HttpClientRequest.post(path))
    const get = (path: string) => Effect.succeed(HttpClientRequest.get(path))

    // ---- one attempt -------------------------------------------------------------------------

    const fromHttpError = (operation: string, error: HttpClientError): AttemptError => {
      if (error._tag === "ResponseError") return new Transient({ detail: "the answer could not be read" })
      switch (error.reason) {
        case "Transport": {
          const code = transportCode(error.cause)
          return new Transient({ detail: `connection failed${code === undefined ? "" : ` (${code})`}` })
        }
        case "InvalidUrl":
          return new ProviderMisconfigured({ operation, detail: "the provider URL is invalid" })
        case "Encode":
          return refuse(operation, "the request could not be encoded")
      }
    }

    const readEnvelope = (
      operation: string,
      request: HttpClientRequest.HttpClientRequest,
      traceHttp: boolean
    ): Effect.Effect<RawEnvelope, AttemptError> =>
      Effect.gen(function*() {
        const response = yield* (traceHttp ? client : untracedClient).execute(request)
        const status = response.status
        const text = yield* response.text
        if (status === 401 || status === 403) {
          return yield* new ProviderMisconfigured({
            operation,
            detail: `HTTP ${status}: the provider rejected our credentials`
          })
        }
        if (status >= 500 || status === 408 || status === 429) {
          return yield* new Transient({ detail: `HTTP ${status}` })
        }
        const envelope = yield* Effect.either(decodeEnvelope(text))
        if (status >= 200 && status < 300) {
          if (envelope._tag === "Left") {
            return yield* new ProviderUnknownOutcome({
              operation,
              detail: `malformed answer (${issuePaths(envelope.left)})`
            })
          }
          return envelope.right
        }
        // Off-protocol (every answer should be HTTP 200). A 404 is a wrong route or URL even with an
        // envelope (the sandbox answers unknown routes 404 "25", which must not read as "not found");
        // another 4xx counts as a refusal only in the protocol's own envelope with a refusal code.
        if (
          status !== 404 && status >= 400 && status < 500 && envelope._tag === "Right" &&
          isRefusalCode(envelope.right.responseCode)
        ) {
          return yield* new ProviderRefused({
            operation,
            code: envelope.right.responseCode,
            reason: envelope.right.responseMessage
          })
        }
        return yield* new ProviderMisconfigured({ operation, detail: `unexpected HTTP ${status}` })
      }).pipe(
        Effect.catchTags({
          RequestError: (error) => Effect.fail(fromHttpError(operation, error)),
          ResponseError: (error) => Effect.fail(fromHttpError(operation, error))
        }),
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () => new Transient({ detail: `no answer within ${timeoutMs} ms`, timedOut: true })
        })
      )

    const classify = <D, I, A>(call: Call<D, I, A>, envelope: RawEnvelope): Effect.Effect<A, AttemptError> => {
      const { operation } = call
      const code = envelope.responseCode
      if (code === ResponseCodes.success) {
        return Schema.decodeUnknown(call.data)(envelope.data).pipe(
          Effect.mapError((error) =>
            new ProviderUnknownOutcome({ operation, detail: `malformed "00" answer (${issuePaths(error)})` })
          ),
          Effect.map(call.onSuccess)
        )
      }
      if (ResponseCodes.pending.includes(code)) {
        if (call.onPending !== undefined) return Effect.succeed(call.onPending)
        return Effect.fail(
          call.write
            ? new ProviderUnknownOutcome({ operation, detail: `pending answer "${code}": requery the reference` })
            : new Transient({ detail: `pending answer "${code}" to a read` })
        )
      }
      if (Wire.Codes.ambiguous.includes(code)) {
        return Effect.fail(
          call.write
            ? new ProviderUnknownOutcome({ operation, detail: `ambiguous answer "${code}": requery the reference` })
            : new Transient({ detail: `ambiguous answer "${code}" to a read` })
        )
      }
      if (code === ResponseCodes.notFound && call.onNotFound !== undefined) return Effect.succeed(call.onNotFound)
      if (code === Wire.Codes.duplicate && call.write) {
        return Effect.fail(
          new ProviderUnknownOutcome({
            operation,
            detail: `duplicate answer "${code}": the reference was used before and may have been applied; requery it`
          })
        )
      }
      return Effect.fail(new ProviderRefused({ operation, code, reason: envelope.responseMessage }))
    }

    // ---- a whole call ------------------------------------------------------------------------

    const run = <D, I, A>(call: Call<D, I, A>): Effect.Effect<A, CoreBankingError> => {
      const { operation } = call
      return Effect.gen(function*() {
        const request = yield* call.request
        const attempts = yield* Ref.make(0)
        const once = Effect.gen(function*() {
          const attempt = yield* Ref.updateAndGet(attempts, (n) => n + 1)
          yield* Effect.annotateCurrentSpan("attempt", attempt)
          return yield* Effect.logDebug("core banking request").pipe(
            Effect.zipRight(readEnvelope(operation, request, call.traceHttp !== false)),
            Effect.flatMap((envelope) => classify(call, envelope)),
            Effect.tapErrorTag("Transient", (error) =>
              Effect.logWarning("core banking attempt failed").pipe(
                Effect.annotateLogs({
                  detail: error.detail,
                  willRetry: call.retry && error.timedOut !== true && attempt < maxAttempts
                })
              )),
            semaphore.withPermits(1),
            Effect.annotateLogs("attempt", attempt)
          )
        })
        const attempted = call.retry && maxAttempts > 1
          ? Effect.retry(once, { schedule: backoff, while: (error) => error._tag === "Transient" && error.timedOut !== true })
          : once
        return yield* attempted.pipe(
          Effect.catchTag("Transient", (error) =>
            Ref.get(attempts).pipe(
              Effect.flatMap((n) =>
                Effect.fail(
                  new ProviderUnknownOutcome({
                    operation,
                    detail: `${error.detail} (${n} attempt${n === 1 ? "" : "s"})`
                  })
                )
              )
            ))
        )
      }).pipe(
        Effect.tapBoth({
          onSuccess: () =>
            Effect.annotateCurrentSpan("outcome", "ok").pipe(Effect.zipRight(Effect.logDebug("core banking call succeeded"))),
          onFailure: (failure) => {
            switch (failure._tag) {
              case "ProviderRefused":
                return Effect.annotateCurrentSpan("outcome", `refused:${failure.code}`).pipe(
                  Effect.zipRight(Effect.logDebug("core banking call refused")),
                  Effect.annotateLogs("responseCode", failure.code)
                )
              case "ProviderUnknownOutcome":
                return Effect.annotateCurrentSpan("outcome", "unknown").pipe(
                  Effect.zipRight(Effect.logWarning("core banking outcome unknown")),
                  Effect.annotateLogs("detail", failure.detail)
                )
              case "ProviderMisconfigured":
                return Effect.annotateCurrentSpan("outcome", "misconfigured").pipe(
                  Effect.zipRight(Effect.logWarning("core banking provider misconfigured")),
                  Effect.annotateLogs("detail", failure.detail)
                )
            }
          }
        }),
        Effect.annotateLogs(
          call.reference === undefined ? { operation } : { operation, reference: call.reference }
        ),
        Effect.withSpan(call.spanName ?? `CoreBanking.${operation}`, {
          attributes: call.reference === undefined ? { operation } : { operation, reference: call.reference }
        })
      )
    }

    // ---- the port ----------------------------------------------------------------------------

    const toAccount = (data: typeof Wire.AccountData.Type): ProviderAccount => ({
      accountNumber: data.accountNumber,
      accountName: data.accountName
    })

    const posting = (operation: "debit" | "credit") =>
    (input: { accountNumber: string; amountKobo: Kobo; reference: string; narration: string }) =>
      run({
        operation,
        reference: input.reference,
        write: true,
        retry: true,
        request: Effect.gen(function*() {
          const reference = yield* checkReference(operation, input.reference)
          const amount = yield* wireAmount(operation, input.amountKobo)
          return yield* post(operation, `/transactions/${operation}`, Wire.PostingRequest, {
            accountNumber: input.accountNumber,
            amount,
            retrievalReference: reference,
            narration: input.narration
          })
        }),
        data: VoidData,
        onSuccess: () => undefined
      })

    const pnd = (operation: "activatePnd" | "deactivatePnd", action: "activate" | "deactivate") =>
    (accountNumber: string) =>
      run({
        operation,
        reference: undefined,
        write: true,
        retry: true,
        request: postEmpty(`/accounts/${segment(accountNumber)}/pnd/${action}`),
        data: VoidData,
        onSuccess: () => undefined
      })

    const coreBanking: Context.Tag.Service<CoreBanking> = {
      openAccount: (input) =>
        run({
          operation: "openAccount",
          reference: input.reference,
          write: true,
          retry: true,
          request: Effect.gen(function*() {
            const reference = yield* checkReference("openAccount", input.reference)
            return yield* post("openAccount", "/accounts", Wire.OpenAccountRequest, {
              customerReference: reference,
              firstName: input.firstName,
              lastName: input.lastName,
              otherNames: input.otherNames,
              phone: input.phone,
              email: input.email,
              dateOfBirth: input.dateOfBirth,
              gender: input.gender
            })
          }),
          data: Wire.AccountData,
          onSuccess: toAccount
        }),

      findAccountByReference: (reference) =>
        run({
          operation: "findAccountByReference",
          reference,
          write: false,
          retry: true,
          request: checkReference("findAccountByReference", reference).pipe(
            Effect.map((ref) => HttpClientRequest.get(`/accounts/by-reference/${segment(ref)}`))
          ),
          data: Wire.AccountData,
          onSuccess: (data): Option.Option<ProviderAccount> => Option.some(toAccount(data)),
          onNotFound: Option.none()
        }),

      account: (accountNumber) =>
        run({
          operation: "account",
          reference: undefined,
          write: false,
          retry: true,
          request: get(`/accounts/${segment(accountNumber)}`),
          data: Wire.AccountDetails,
          onSuccess: (data) => ({
            accountNumber: data.accountNumber,
            accountName: data.accountName,
            ledgerBalanceKobo: BigInt(data.ledgerBalance),
            withdrawableBalanceKobo: BigInt(data.withdrawableBalance),
            pndActive: data.pndActive,
            frozen: data.frozen,
            liens: data.liens.map((lien) => ({ reference: lien.reference, amountKobo: BigInt(lien.amount) }))
          })
        }),

      history: (accountNumber) =>
        run({
          operation: "history",
          reference: undefined,
          write: false,
          retry: true,
          request: get(`/accounts/${segment(accountNumber)}/transactions`),
          data: HistoryData,
          onSuccess: (data): ReadonlyArray<ProviderTransaction> =>
            data.transactions.map((tx) => ({
              reference: tx.reference,
              direction: tx.type === "C" ? "credit" : "debit",
              amountKobo: BigInt(tx.amount),
              narration: tx.narration,
              postedAt: tx.postedAt,
              channel: tx.channel,
              counterpartyName: tx.counterpartyName,
              counterpartyAccountNumber: tx.counterpartyAccountNumber,
              counterpartyBankCode: tx.counterpartyBankCode
            }))
        }),

      activatePnd: pnd("activatePnd", "activate"),
      deactivatePnd: pnd("deactivatePnd", "deactivate"),

      placeLien: (input) =>
        run({
          operation: "placeLien",
          reference: input.reference,
          write: true,
          retry: true,
          request: Effect.gen(function*() {
            const reference = yield* checkReference("placeLien", input.reference)
            const amount = yield* wireAmount("placeLien", input.amountKobo)
            return yield* post("placeLien", `/accounts/${segment(input.accountNumber)}/liens`, Wire.LienRequest, {
              reference,
              amount,
              reason: LIEN_REASON
            })
          }),
          data: VoidData,
          onSuccess: () => undefined
        }),

      removeLien: (input) =>
        run({
          operation: "removeLien",
          reference: input.reference,
          write: true,
          retry: true,
          request: checkReference("removeLien", input.reference).pipe(
            Effect.map((ref) =>
              HttpClientRequest.post(`/accounts/${segment(input.accountNumber)}/liens/${segment(ref)}/remove`)
            )
          ),
          data: VoidData,
          onSuccess: () => undefined
        }),

      freeze: (input) =>
        run({
          operation: "freeze",
          reference: undefined,
          write: true,
          retry: false,
          request: post("freeze", `/accounts/${segment(input.accountNumber)}/freeze`, Wire.FreezeRequest, {
            reason: input.reason
          }),
          data: Wire.FreezeData,
          onSuccess: (data) => ({ freezeReference: data.freezeReference })
        }),

      unfreeze: (input) =>
        run({
          operation: "unfreeze",
          reference: input.freezeReference,
          write: true,
          retry: false,
          request: post("unfreeze", `/accounts/${segment(input.accountNumber)}/unfreeze`, Wire.UnfreezeRequest, {
            freezeReference: input.freezeReference
          }),
          data: VoidData,
          onSuccess: () => undefined
        }),

      debit: posting("debit"),
      credit: posting("credit"),

      nameEnquiry: (input) =>
        run({
          operation: "nameEnquiry",
          reference: undefined,
          write: false,
          retry: true,
          request: get("/nip/name-enquiry").pipe(
            Effect.map(HttpClientRequest.setUrlParams({ accountNumber: input.accountNumber, bankCode: input.bankCode }))
          ),
          data: Wire.NameEnquiryData,
          onSuccess: (data): NameEnquiryResult => ({ accountName: data.accountName, sessionId: data.sessionId })
        }),

      transfer: (input) =>
        run({
          operation: "transfer",
          reference: input.reference,
          write: true,
          retry: true,
          request: Effect.gen(function*() {
            const reference = yield* checkReference("transfer", input.reference)
            const amount = yield* wireAmount("transfer", input.amountKobo)
            return yield* post("transfer", "/nip/transfers", Wire.TransferRequest, {
              transactionReference: reference,
              amount,
              destinationAccountNumber: input.destinationAccountNumber,
              destinationBankCode: input.destinationBankCode,
              destinationAccountName: input.destinationAccountName,
              nameEnquirySessionId: input.nameEnquirySessionId,
              narration: input.narration
            })
          }),
          data: VoidData,
          onSuccess: (): TransferStatus => "successful",
          onPending: "pending"
        }),

      requery: (reference) =>
        run({
          operation: "requery",
          reference,
          write: false,
          retry: true,
          request: checkReference("requery", reference).pipe(
            Effect.map((ref) => HttpClientRequest.get(`/transactions/${segment(ref)}/status`))
          ),
          data: Wire.StatusData,
          onSuccess: (data): RequeryStatus => requeryStatus[data.status],
          onPending: "pending",
          onNotFound: "not_found"
        }),

      bvnLookup: (bvn) =>
        run({
          operation: "bvnLookup",
          reference: undefined,
          write: false,
          retry: true,
          traceHttp: false,
          request: get(`/bvn/${segment(bvn)}`),
          data: Wire.BvnData,
          onSuccess: (data): Option.Option<BvnRecord> =>
            Option.some({
              firstName: data.firstName,
              lastName: data.lastName,
              phone: data.phone,
              dateOfBirth: data.dateOfBirth
            }),
          onNotFound: Option.none()
        }),

      banks: run({
        operation: "banks",
        reference: undefined,
        write: false,
        retry: true,
        request: get("/banks"),
        data: Wire.BanksData,
        onSuccess: (data): ReadonlyArray<Bank> => data.banks.map((bank) => ({ bankCode: bank.code, bankName: bank.name }))
      })
    }

    const testFunding: Context.Tag.Service<TestFunding> = {
      deposit: (input) =>
        run({
          operation: "deposit",
          spanName: "TestFunding.deposit",
          reference: undefined,
          write: true,
          retry: false,
          request: wireAmount("deposit", input.amountKobo).pipe(
            Effect.flatMap((amountKobo) =>
              post("deposit", "/sandbox/deposits", Wire.DepositRequest, {
                accountNumber: input.accountNumber,
                amountKobo
              })
            )
          ),
          data: Wire.DepositData,
          onSuccess: () => undefined
        })
    }

    return { coreBanking, testFunding }
  })

const requeryStatus: Record<typeof Wire.StatusData.Type["status"], RequeryStatus> = {
  Successful: "successful",
  Failed: "failed",
  Pending: "pending",
  Reversed: "reversed"
}

export const layer = (config: CoreBankingHttpOptions): Layer.Layer<CoreBanking | TestFunding, never, HttpClient.HttpClient> =>
  Layer.effectContext(
    Effect.map(makeHttpCoreBanking(config), ({ coreBanking, testFunding }) =>
      Context.make(CoreBanking, coreBanking).pipe(Context.add(TestFunding, testFunding)))
  )
