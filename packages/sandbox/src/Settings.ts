/**
 * What the sandbox's HTTP routes need besides the database: the bearer token, the added latency,
 * the delay of slow (0004) transfers, how repeated references are answered, how long a name
 * enquiry's session is valid, and the webhook announcer for inbound deposits.
 */
// module by module: the package's index would load all of @effect/platform (tens of MiB in the sandbox's process)
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { DEVELOPMENT_BANKONE_TOKEN } from "@app/adapters/corebanking/bankone/BankOneConfig"
import type { DepositNotification } from "@app/adapters/corebanking/Wire"
import { Context, Duration, Effect, FiberSet, Layer, Option, Schedule } from "effect"

export interface WebhookTarget {
  readonly url: string
  /** the shared header's name, e.g. x-webhook-secret */
  readonly header: string
  readonly secret: string
}

export interface SandboxOptions {
  /** 0 = a random free port */
  readonly port: number
  /** the bearer token every request must carry */
  readonly token: string
  /** added to every call */
  readonly latencyMs: number
  /** where inbound deposits are announced; none = not announced */
  readonly webhook: Option.Option<WebhookTarget>
  /** how long a transfer to a destination ending 0004 holds its answer back; default 11 000 ms */
  readonly slowTransferDelayMs?: number | undefined
  /** webhook delivery: retries after the first attempt (default 3) and the first backoff (default 200 ms) */
  readonly webhookRetries?: number | undefined
  readonly webhookBackoffMs?: number | undefined
  /**
   * A debit, credit, transfer or lien placement that repeats a reference already seen:
   * "first-outcome" (default, operations.md) answers the first outcome again; "reject" answers "94"
   * (duplicate) and changes nothing, as many real providers do. A requery answers the first outcome
   * either way.
   */
  readonly duplicateReferences?: DuplicateReferences | undefined
  /** how long a name enquiry's session id may be quoted by a transfer; default 30 minutes */
  readonly nameEnquirySessionTtlMs?: number | undefined
  /**
   * which API the sandbox speaks: the generic protocol (default) or BankOne's (docs/bankone.md), a
   * second front on the same bank; the `/sandbox/*` test routes are the same in both
   */
  readonly dialect?: SandboxDialect | undefined
  /** BankOne's API token the `bankone` dialect accepts (default: the development BankOne token) */
  readonly bankoneToken?: string | undefined
  /** when set, the `bankone` dialect's postings must quote this NibssCode */
  readonly bankoneInstitutionCode?: string | undefined
}

export type SandboxDialect = "generic" | "bankone"

export type DuplicateReferences = "first-outcome" | "reject"

export const DEFAULT_SLOW_TRANSFER_DELAY_MS = 11_000
export const DEFAULT_NAME_ENQUIRY_SESSION_TTL_MS = 30 * 60 * 1000

export class SandboxSettings extends Context.Tag("sandbox/SandboxSettings")<SandboxSettings, {
  readonly token: string
  readonly latencyMs: number
  readonly slowTransferDelayMs: number
  readonly duplicateReferences: DuplicateReferences
  readonly nameEnquirySessionTtlMs: number
  readonly dialect: SandboxDialect
  readonly bankoneToken: string
  readonly bankoneInstitutionCode: string | undefined
  /** announces a posted deposit to the webhook in the background; never fails */
  readonly announce: (notification: typeof DepositNotification.Type) => Effect.Effect<void>
}>() {}

/**
 * Delivers one notification: POST with the shared header, a 2xx answer counts as delivered;
 * otherwise retried with exponential backoff, then given up with a warning.
 */
const deliver = (
  client: HttpClient.HttpClient,
  target: WebhookTarget,
  notification: typeof DepositNotification.Type,
  retries: number,
  backoffMs: number
) =>
  HttpClientRequest.post(target.url).pipe(
    HttpClientRequest.setHeader(target.header, target.secret),
    HttpClientRequest.bodyUnsafeJson(notification),
    client.execute,
    Effect.flatMap((response) =>
      response.status >= 200 && response.status < 300
        ? Effect.void
        : Effect.fail(new Error(`webhook answered HTTP ${response.status}`))
    ),
    Effect.scoped,
    Effect.timeout(Duration.seconds(5)),
    Effect.retry(Schedule.exponential(Duration.millis(backoffMs)).pipe(Schedule.intersect(Schedule.recurs(retries)))),
    Effect.catchAllCause((cause) =>
      Effect.logWarning(`sandbox: could not deliver deposit ${notification.reference} to the webhook`, cause)
    )
  )

export const sandboxSettingsLayer = (options: SandboxOptions): Layer.Layer<SandboxSettings> =>
  Layer.scoped(
    SandboxSettings,
    Effect.gen(function*() {
      // deliveries run in the background, and are interrupted when the sandbox stops
      const fibers = yield* FiberSet.make()
      const client = yield* HttpClient.HttpClient
      const retries = options.webhookRetries ?? 3
      const backoffMs = options.webhookBackoffMs ?? 200
      return SandboxSettings.of({
        token: options.token,
        latencyMs: options.latencyMs,
        slowTransferDelayMs: options.slowTransferDelayMs ?? DEFAULT_SLOW_TRANSFER_DELAY_MS,
        duplicateReferences: options.duplicateReferences ?? "first-outcome",
        nameEnquirySessionTtlMs: options.nameEnquirySessionTtlMs ?? DEFAULT_NAME_ENQUIRY_SESSION_TTL_MS,
        dialect: options.dialect ?? "generic",
        bankoneToken: options.bankoneToken ?? DEVELOPMENT_BANKONE_TOKEN,
        bankoneInstitutionCode: options.bankoneInstitutionCode,
        announce: (notification) =>
          Option.match(options.webhook, {
            onNone: () => Effect.void,
            onSome: (target) => Effect.asVoid(FiberSet.run(fibers, deliver(client, target, notification, retries, backoffMs)))
          })
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
