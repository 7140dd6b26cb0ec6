/**
 * Inbound deposits are announced to the service's webhook with the shared header, in the
 * background, with retries, and never fail the deposit.
 */
import { DepositNotification } from "@app/adapters/corebanking/Wire"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { SandboxServer, sandboxServerLayer } from "../src/index.js"
import {
  call,
  type Delivery,
  deposit,
  expectCode,
  openAccount,
  sandboxTest,
  TOKEN,
  WEBHOOK_HEADER,
  WEBHOOK_SECRET,
  WebhookReceiver
} from "./support/SandboxTest.js"

/** Waits (up to 5 s) until `count` deliveries of this reference arrived, then a little longer for strays. */
const deliveriesOf = (reference: string, count: number) =>
  Effect.gen(function*() {
    const receiver = yield* WebhookReceiver
    const of = () => receiver.deliveries.filter((d) => d.body?.reference === reference)
    for (let i = 0; i < 100 && of().length < count; i++) yield* Effect.sleep(50)
    yield* Effect.sleep(300)
    return of() as ReadonlyArray<Delivery>
  })

layer(sandboxTest(), { excludeTestServices: true, timeout: "60 seconds" })("sandbox webhook", (it) => {
  describe("deposit notifications", () => {
    it.effect("POSTs a DepositNotification with the shared header", () =>
      Effect.gen(function*() {
        const { accountNumber } = yield* openAccount()
        const reference = yield* deposit(accountNumber, 123_456)
        const [delivery, ...more] = yield* deliveriesOf(reference, 1)
        expect(more).toEqual([])
        expect(delivery!.headers[WEBHOOK_HEADER]).toBe(WEBHOOK_SECRET)
        expect(delivery!.headers["content-type"]).toContain("application/json")
        const body = Schema.decodeUnknownSync(DepositNotification)(delivery!.body)
        expect(body).toMatchObject({ event: "transaction.posted", accountNumber, reference, type: "C", amount: 123_456 })
        expect(new Date(body.postedAt).toISOString()).toBe(body.postedAt)
        // the notification matches the posting the service will find in the history
        const { transactions } = expectCode(yield* call("GET", `/accounts/${accountNumber}/transactions`), "00")
        expect(transactions[0]).toMatchObject({ reference, postedAt: body.postedAt, amount: 123_456, type: "C" })
      }))

    it.effect("retries a failing webhook until it answers 2xx", () =>
      Effect.gen(function*() {
        const receiver = yield* WebhookReceiver
        const { accountNumber } = yield* openAccount()
        receiver.failNext(2)
        const reference = yield* deposit(accountNumber, 1_000)
        const deliveries = yield* deliveriesOf(reference, 3)
        expect(deliveries.map((d) => d.status)).toEqual([500, 500, 200])
      }))

    it.effect("gives up after a few retries; the deposit itself is unaffected", () =>
      Effect.gen(function*() {
        const receiver = yield* WebhookReceiver
        const { accountNumber } = yield* openAccount()
        receiver.failNext(100)
        const reference = yield* deposit(accountNumber, 2_000)
        const deliveries = yield* deliveriesOf(reference, 4)
        receiver.failNext(0)
        expect(deliveries.map((d) => d.status)).toEqual([500, 500, 500, 500])
        const account = expectCode(yield* call("GET", `/accounts/${accountNumber}`), "00")
        expect(account.ledgerBalance).toBe(2_000)
      }))

    it.effect("an unreachable webhook neither fails nor delays the deposit", () =>
      Effect.gen(function*() {
        const unreachable = yield* Layer.build(
          sandboxServerLayer({
            port: 0,
            token: TOKEN,
            latencyMs: 0,
            webhook: Option.some({ url: "http://127.0.0.1:9/hook", header: WEBHOOK_HEADER, secret: WEBHOOK_SECRET }),
            webhookBackoffMs: 1_000
          })
        ).pipe(Effect.map(Context.get(SandboxServer)))
        const { accountNumber } = yield* openAccount()
        const started = Date.now()
        const reply = yield* call("POST", "/sandbox/deposits", {
          baseUrl: unreachable.baseUrl,
          body: { accountNumber, amountKobo: 500 }
        })
        expect(expectCode(reply, "00").reference).toEqual(expect.any(String))
        expect(Date.now() - started).toBeLessThan(1_000)
      }).pipe(Effect.scoped))

    it.effect("without a webhook, deposits are simply not announced", () =>
      Effect.gen(function*() {
        const receiver = yield* WebhookReceiver
        const silent = yield* Layer.build(
          sandboxServerLayer({ port: 0, token: TOKEN, latencyMs: 0, webhook: Option.none() })
        ).pipe(Effect.map(Context.get(SandboxServer)))
        const { accountNumber } = yield* openAccount()
        const reply = yield* call("POST", "/sandbox/deposits", { baseUrl: silent.baseUrl, body: { accountNumber, amountKobo: 700 } })
        const { reference } = expectCode(reply, "00")
        yield* Effect.sleep(300)
        expect(receiver.deliveries.filter((d) => d.body?.reference === reference)).toEqual([])
      }).pipe(Effect.scoped))

    it.effect("a deposit to an unknown account is 07 and announces nothing", () =>
      Effect.gen(function*() {
        const receiver = yield* WebhookReceiver
        const count = receiver.deliveries.length
        expectCode(yield* call("POST", "/sandbox/deposits", { body: { accountNumber: "1999999999", amountKobo: 100 } }), "07")
        yield* Effect.sleep(200)
        expect(receiver.deliveries.length).toBe(count)
      }))
  })
})
