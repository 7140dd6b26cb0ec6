/**
 * With APP_ENV=production, POST /transactions/deposit/test is refused with 403 and moves no money,
 * even for a customer with a bank account. Same server as TestServer, production configuration.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { adaptersLayer, AppConfigTest } from "@app/adapters"
import { TestSqlLayer } from "@app/adapters/testing/TestDatabase"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, LogLevel, Logger, Option } from "effect"
import { coreBankingLayer } from "@app/adapters/corebanking/Provider"
import { EmbeddedSandboxOnBank, SandboxBankInMemory } from "@app/sandbox"
import { HttpAppWithoutProvider } from "../src/Server.js"
import { expectFailure, expectSuccess, me, post } from "./support/Fixtures.js"
import { bankCustomer, depositRows, get } from "./support/BankingFixtures.js"
import { outboxFile } from "./support/TestServer.js"

const ProductionTestServer = HttpAppWithoutProvider.pipe(
  Layer.provideMerge(coreBankingLayer(EmbeddedSandboxOnBank)),
  Layer.provideMerge(SandboxBankInMemory),
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provideMerge(adaptersLayer(TestSqlLayer)),
  Layer.provideMerge(AppConfigTest({ appEnv: "production", notifyOutboxFile: Option.some(outboxFile) })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

layer(ProductionTestServer, { excludeTestServices: true, timeout: "60 seconds" })("test deposit in production", (it) => {
  describe("POST /transactions/deposit/test", () => {
    it.effect("403, with or without an amount; the balance stays 0 and nothing is recorded", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("prod-deposit")
        for (const body of [{}, { amountKobo: 100 }, { amountKobo: 10_000_000 }]) {
          expectFailure(yield* post("/api/v1/transactions/deposit/test", body, customer.accessToken), 403, /disabled in production/i, "Transaction")
        }
        expect(expectSuccess(yield* get("/api/v1/customers/balance", customer.accessToken), { apiObject: "Customer" }))
          .toStrictEqual({ balanceKobo: 0 })
        expect(expectSuccess(yield* get("/api/v1/customers/transactions", customer.accessToken), { apiObject: "Customer" }))
          .toEqual([])
        expect(yield* depositRows(customer.customerId)).toEqual([])
        expect(expectSuccess(yield* me(customer.accessToken), { apiObject: "Customer" }).pndActive).toBe(true)
      }))

    it.effect("still 401 without a token", () =>
      Effect.gen(function*() {
        expectFailure(yield* post("/api/v1/transactions/deposit/test", {}), 401, "Authentication required", "Transaction")
      }))

    it.effect("the sync endpoint keeps working in production", () =>
      Effect.gen(function*() {
        const customer = yield* bankCustomer("prod-sync")
        expect(expectSuccess(yield* post("/api/v1/transactions/deposit/sync", undefined, customer.accessToken), {
          apiObject: "Transaction"
        })).toStrictEqual({ balanceKobo: 0 })
      }))
  })
})
