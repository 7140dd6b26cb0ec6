/**
 * The wire protocol of `@app/adapters/corebanking/Wire` served straight from `node:http` (or, with
 * the `bankone` dialect, BankOne's third-party API over the same bank: `bankone/Front.ts`; the
 * `/sandbox/*` test routes stay these in both dialects): every
 * answer is HTTP 200 with `{ responseCode, responseMessage, data? }`; a malformed body or field is
 * "26" (bodies are decoded with the Wire schemas, each compiled once). Around the routes: the added
 * latency, bearer authentication (HTTP 401), unknown routes (HTTP 404) and unexpected failures
 * (HTTP 500, NIBSS "96": the outcome is unknown).
 *
 * Cheap on purpose (a provider call should cost the bank well under half a millisecond of CPU): a
 * hand-written router over the path's segments, no Effect runtime on the request path, and each
 * bank operation a synchronous function of the state (see `Bank.ts`).
 */
import {
  DepositRequest,
  FreezeRequest,
  LienRequest,
  OpenAccountRequest,
  PostingRequest,
  TransferRequest,
  UnfreezeRequest
} from "@app/adapters/corebanking/Wire"
import { Either, ParseResult, Schema } from "effect"
import { timingSafeEqual } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Accounts from "./bank/Accounts.js"
import { badRequest, ok, type Outcome } from "./bank/Answers.js"
import * as Conservation from "./bank/Conservation.js"
import * as Movements from "./bank/Movements.js"
import type { BankState } from "./bank/Store.js"
import { bankOneFront } from "./bankone/Front.js"
import type { SandboxSettings } from "./Settings.js"
import { BANKS } from "./TestData.js"

/** Larger bodies are not read (none of the protocol's bodies comes near). */
export const MAX_BODY_BYTES = 1024 * 1024

// -------------------------------------------------------------------------------------------------
// Bodies
// -------------------------------------------------------------------------------------------------

type Decoded<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly outcome: Outcome }

const decoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
  return (json: unknown): Decoded<A> => {
    const result = decode(json)
    return Either.isRight(result)
      ? { ok: true, value: result.right }
      : {
        ok: false,
        outcome: badRequest(
          ParseResult.ArrayFormatter.formatErrorSync(result.left)
            .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue.message}`)
            .join("; ")
        )
      }
  }
}

const decode = {
  openAccount: decoder(OpenAccountRequest),
  lien: decoder(LienRequest),
  freeze: decoder(FreezeRequest),
  unfreeze: decoder(UnfreezeRequest),
  posting: decoder(PostingRequest),
  transfer: decoder(TransferRequest),
  deposit: decoder(DepositRequest)
}

/** The body's JSON, or undefined (never valid JSON: `undefined` is not a JSON value). */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const NOT_JSON = badRequest("the body is not valid JSON")

// -------------------------------------------------------------------------------------------------
// Answers
// -------------------------------------------------------------------------------------------------

interface Answer {
  readonly status: number
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

const envelope = (outcome: Outcome): Answer => ({
  status: 200,
  body: JSON.stringify(
    outcome.data === undefined
      ? { responseCode: outcome.code, responseMessage: outcome.message }
      : { responseCode: outcome.code, responseMessage: outcome.message, data: outcome.data }
  )
})

const BANKS_ANSWER = envelope(ok({ banks: BANKS.map((b) => ({ code: b.code, name: b.name })) }))
const UNAUTHORIZED: Answer = {
  status: 401,
  body: JSON.stringify({ responseCode: "63", responseMessage: "Security violation: missing or invalid bearer token" }),
  headers: { "www-authenticate": "Bearer" }
}
const NO_ROUTE: Answer = { status: 404, body: JSON.stringify({ responseCode: "25", responseMessage: "No such route" }) }
const MALFUNCTION: Answer = { status: 500, body: JSON.stringify({ responseCode: "96", responseMessage: "System malfunction" }) }

// -------------------------------------------------------------------------------------------------
// Routes
// -------------------------------------------------------------------------------------------------

/** What a matched route does once its body is read: an answer, possibly held back (0004). */
interface Routed {
  readonly answer: Answer
  readonly delayMs?: number
}

interface Request {
  /** the path's segments after the leading slash, decoded */
  readonly parts: ReadonlyArray<string>
  readonly query: string
  /** the body's text ("" when none) */
  readonly text: string
}

type Route = (request: Request) => Routed

export interface Hooks {
  /** announces a posted deposit (in the background; never throws) */
  readonly announce: (notification: NonNullable<ReturnType<typeof Movements.deposit>["notification"]>) => void
}

type Rules = Pick<SandboxSettings["Type"], "duplicateReferences" | "nameEnquirySessionTtlMs" | "slowTransferDelayMs">

/** The route for a method and path, or undefined (404). Matching allocates nothing but the segments. */
const router = (state: BankState, rules: Rules, hooks: Hooks) => {
  const reply = (outcome: Outcome): Routed => ({ answer: envelope(outcome) })
  /** a body route: decode, then run */
  const withBody = <A>(decodeBody: (json: unknown) => Decoded<A>, run: (value: A, request: Request) => Routed): Route => (request) => {
    const json = parseJson(request.text)
    if (json === undefined) return reply(NOT_JSON)
    const decoded = decodeBody(json)
    return decoded.ok ? run(decoded.value, request) : reply(decoded.outcome)
  }

  const openAccount = withBody(decode.openAccount, (req) => reply(Accounts.openAccount(state, req)))
  const byReference: Route = ({ parts }) => reply(Accounts.accountByReference(state, parts[2]!))
  const details: Route = ({ parts }) => reply(Accounts.accountDetails(state, parts[1]!))
  const history: Route = ({ parts }) => reply(Accounts.transactions(state, parts[1]!))
  const pndOn: Route = ({ parts }) => reply(Accounts.setPnd(state, parts[1]!, true))
  const pndOff: Route = ({ parts }) => reply(Accounts.setPnd(state, parts[1]!, false))
  const placeLien = withBody(decode.lien, (req, { parts }) => reply(Accounts.placeLien(state, parts[1]!, req, rules)))
  const removeLien: Route = ({ parts }) => reply(Accounts.removeLien(state, parts[1]!, parts[3]!))
  const freeze = withBody(decode.freeze, (req, { parts }) => reply(Accounts.freeze(state, parts[1]!, req.reason)))
  const unfreeze = withBody(decode.unfreeze, (req, { parts }) => reply(Accounts.unfreeze(state, parts[1]!, req.freezeReference)))
  const debit = withBody(decode.posting, (req) => reply(Movements.posting(state, "debit", req, rules)))
  const credit = withBody(decode.posting, (req) => reply(Movements.posting(state, "credit", req, rules)))
  const status: Route = ({ parts }) => reply(Movements.requery(state, parts[1]!))
  const nameEnquiry: Route = ({ query }) => {
    const params = new URLSearchParams(query)
    const accountNumber = params.get("accountNumber")
    const bankCode = params.get("bankCode")
    if (accountNumber === null || bankCode === null) return reply(badRequest("accountNumber and bankCode are required"))
    return reply(Movements.nameEnquiry(state, accountNumber, bankCode))
  }
  const transfer = withBody(decode.transfer, (req) => {
    const { outcome, slow } = Movements.transfer(state, req, rules)
    // 0004: applied already (a requery says Successful), but the answer comes too late
    return slow ? { answer: envelope(outcome), delayMs: rules.slowTransferDelayMs } : reply(outcome)
  })
  const bvn: Route = ({ parts }) => reply(Movements.bvn(parts[1]!))
  const banks: Route = () => ({ answer: BANKS_ANSWER })
  const deposit = withBody(decode.deposit, (req) => {
    const { notification, outcome } = Movements.deposit(state, req.accountNumber, req.amountKobo)
    if (notification !== undefined) hooks.announce(notification)
    return reply(outcome)
  })
  const ledger: Route = () => reply(ok(Conservation.ledger(state)))
  const conservation: Route = () => reply(ok(Conservation.conservation(state)))

  return (method: string, parts: ReadonlyArray<string>): Route | undefined => {
    const get = method === "GET"
    const post = method === "POST"
    const n = parts.length
    switch (parts[0]) {
      case "accounts":
        if (n === 1) return post ? openAccount : undefined
        if (parts[1] === "") return undefined
        if (n === 2) return get ? details : undefined
        if (n === 3) {
          if (get && parts[2] === "transactions") return history
          if (post && parts[2] === "liens") return placeLien
          if (post && parts[2] === "freeze") return freeze
          if (post && parts[2] === "unfreeze") return unfreeze
          if (get && parts[1] === "by-reference" && parts[2] !== "") return byReference
          return undefined
        }
        if (n === 4 && post && parts[2] === "pnd") return parts[3] === "activate" ? pndOn : parts[3] === "deactivate" ? pndOff : undefined
        if (n === 5 && post && parts[2] === "liens" && parts[3] !== "" && parts[4] === "remove") return removeLien
        return undefined
      case "transactions":
        if (n === 2 && post) return parts[1] === "debit" ? debit : parts[1] === "credit" ? credit : undefined
        if (n === 3 && get && parts[1] !== "" && parts[2] === "status") return status
        return undefined
      case "nip":
        if (n === 2 && get && parts[1] === "name-enquiry") return nameEnquiry
        if (n === 2 && post && parts[1] === "transfers") return transfer
        return undefined
      case "bvn":
        return n === 2 && get && parts[1] !== "" ? bvn : undefined
      case "banks":
        return n === 1 && get ? banks : undefined
      case "sandbox":
        if (n === 2 && post && parts[1] === "deposits") return deposit
        if (n === 2 && get && parts[1] === "ledger") return ledger
        if (n === 2 && get && parts[1] === "conservation") return conservation
        return undefined
      default:
        return undefined
    }
  }
}

/** The path's segments after the leading slash, each URL-decoded; undefined when one cannot be decoded. */
const segments = (pathname: string): Array<string> | undefined => {
  const parts = pathname.split("/")
  parts.shift()
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (part.includes("%")) {
      try {
        parts[i] = decodeURIComponent(part)
      } catch {
        return undefined
      }
    }
  }
  return parts
}

// -------------------------------------------------------------------------------------------------
// The handler
// -------------------------------------------------------------------------------------------------

export interface SandboxHandler {
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void
  /** requests being answered (latency, slow answers included) */
  readonly inFlight: () => number
  /**
   * drops held-back answers, their connections being about to close: "slow" = the 0004 answers
   * (held for seconds), "all" = those and the ones waiting out the added latency
   */
  readonly dropHeld: (which: "slow" | "all") => void
}

/**
 * The request handler over `state`: reads the body (POST), waits `latencyMs`, authenticates, routes,
 * answers. `onError` reports an unexpected failure (the request is answered 500 "96").
 */
export const sandboxHandler = (
  state: BankState,
  settings: SandboxSettings["Type"],
  hooks: Hooks & { readonly onError: (error: unknown) => void }
): SandboxHandler => {
  const route = router(state, settings, hooks)
  // the same bank behind a second front, when the sandbox speaks BankOne's dialect (bankone/Front.ts)
  const front = settings.dialect === "bankone"
    ? bankOneFront(state, settings, {
      token: settings.bankoneToken,
      institutionCode: settings.bankoneInstitutionCode,
      slowTransferDelayMs: settings.slowTransferDelayMs
    })
    : undefined
  const token = Buffer.from(settings.token)
  /** constant time for a token of the right length (no hashing per request: it cost ~10 µs a call) */
  const authorized = (header: string | undefined): boolean => {
    if (header === undefined) return false
    const match = /^Bearer (.+)$/i.exec(header.trim())
    if (match === null) return false
    const presented = Buffer.from(match[1]!)
    const sameLength = presented.length === token.length
    return timingSafeEqual(sameLength ? presented : token, token) && sameLength
  }
  const held = new Map<NodeJS.Timeout, "latency" | "slow">()
  let inFlight = 0

  const send = (response: ServerResponse, answer: Answer) => {
    inFlight--
    if (response.destroyed) return
    response.writeHead(answer.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(answer.body),
      ...answer.headers
    })
    response.end(answer.body)
  }

  const later = (ms: number, kind: "latency" | "slow", run: () => void) => {
    const timer = setTimeout(() => {
      held.delete(timer)
      run()
    }, ms)
    held.set(timer, kind)
  }

  const answer = (request: IncomingMessage, response: ServerResponse, text: string, tooLarge: boolean) => {
    let routed: Routed
    try {
      const url = request.url ?? "/"
      const q = url.indexOf("?")
      const pathname = q === -1 ? url : url.slice(0, q)
      if (front !== undefined && !pathname.startsWith("/sandbox/")) {
        // BankOne's dialect: its own token checks (body, query or path, per call)
        routed = tooLarge
          ? { answer: { status: 413, body: JSON.stringify({ Message: "The request is too large." }) } }
          : front(request.method ?? "GET", pathname, q === -1 ? "" : url.slice(q + 1), text) ?? { answer: NO_ROUTE }
      } else if (!authorized(request.headers.authorization)) {
        routed = { answer: UNAUTHORIZED }
      } else {
        const parts = segments(pathname)
        const run = parts === undefined ? undefined : route(request.method ?? "GET", parts)
        routed = run === undefined
          ? { answer: NO_ROUTE }
          : tooLarge
          ? { answer: envelope(badRequest(`the body is larger than ${MAX_BODY_BYTES} bytes`)) }
          : run({ parts: parts!, query: q === -1 ? "" : url.slice(q + 1), text })
      }
    } catch (error) {
      hooks.onError(error)
      routed = { answer: MALFUNCTION }
    }
    if (routed.delayMs !== undefined && routed.delayMs > 0) later(routed.delayMs, "slow", () => send(response, routed.answer))
    else send(response, routed.answer)
  }

  const proceed = (request: IncomingMessage, response: ServerResponse, text: string, tooLarge: boolean) => {
    if (settings.latencyMs > 0) later(settings.latencyMs, "latency", () => answer(request, response, text, tooLarge))
    else answer(request, response, text, tooLarge)
  }

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    inFlight++
    if (request.method === "GET" || request.method === "HEAD") {
      request.resume()
      proceed(request, response, "", false)
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = false
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    request.on("end", () => {
      const text = chunks.length === 0 ? "" : chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")
      proceed(request, response, text, tooLarge)
    })
    request.on("error", () => {
      inFlight--
      response.destroy()
    })
  }

  return {
    handle,
    inFlight: () => inFlight,
    dropHeld: (which) => {
      for (const [timer, kind] of held) {
        if (which === "slow" && kind !== "slow") continue
        clearTimeout(timer)
        held.delete(timer)
        inFlight--
      }
    }
  }
}
