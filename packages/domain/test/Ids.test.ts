/**
 * Branded ids: an account id and a customer id are both UUID strings, and mixing them up is a
 * compile error. The `@ts-expect-error` lines are checked by `npx tsc -b` (this file is in the
 * domain project): if a swap ever compiled again, the unused directive would fail the build.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { AccountRepo } from "../src/account/Ports.js"
import { AccountId, CustomerId, newId, PlanId } from "../src/shared/Ids.js"
import { Ids } from "../src/shared/Ports.js"
import { inMemory, registerAda } from "./support/Fixtures.js"

describe("branded ids", () => {
  it.effect("a customer id where an account id is expected (and back) does not compile", () =>
    inMemory(Effect.gen(function*() {
      const { account, customer } = yield* registerAda()
      const accounts = yield* AccountRepo
      expect(Option.isSome(yield* accounts.findById(account.id))).toBe(true)
      expect(Option.isSome(yield* accounts.findByCustomerId(customer.id))).toBe(true)
      // @ts-expect-error a CustomerId is not an AccountId
      expect(Option.isNone(yield* accounts.findById(customer.id))).toBe(true)
      // @ts-expect-error an AccountId is not a CustomerId
      expect(Option.isNone(yield* accounts.findByCustomerId(account.id))).toBe(true)
      // @ts-expect-error a plain string is not an id of any kind
      expect(Option.isNone(yield* accounts.findById("not-branded"))).toBe(true)
    })))

  it("decoding a string gives the id of that kind, the same string at run time", () => {
    const raw = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"
    const accountId: AccountId = AccountId.make(raw)
    const customerId: CustomerId = CustomerId.make(raw)
    expect(accountId).toBe(raw)
    expect(customerId).toBe(raw)
  })

  it.effect("newId brands the next id of the Ids port", () =>
    Effect.gen(function*() {
      const id: PlanId = yield* newId(PlanId)
      expect(id).toBe("00000000-0000-4000-8000-000000000001")
    }).pipe(Effect.provide(Layer.succeed(Ids, { next: Effect.succeed("00000000-0000-4000-8000-000000000001") }))))
})
