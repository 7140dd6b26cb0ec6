/**
 * Helpers of the domain lifecycle tests: the layer (plans, transfers, lifecycle in memory), funded
 * customers with a destination, action codes.
 */
import { Effect, Layer, Option, TestClock } from "effect"
import { AccountRepo } from "../../src/account/Ports.js"
import * as Auth from "../../src/auth/index.js"
import * as Banking from "../../src/banking/index.js"
import { TestFunding } from "../../src/banking/CoreBanking.js"
import * as Beneficiaries from "../../src/beneficiaries/Beneficiaries.js"
import { bankedAda, inMemory } from "./Fixtures.js"
import { Sent } from "./InMemory.js"
import { InMemoryLifecycleLive } from "./InMemoryLifecycle.js"
import { InMemoryPlansLive } from "./InMemoryPlans.js"
import { InMemoryTransfersLive } from "./InMemoryTransfers.js"
import { AccountId } from "../../src/shared/Ids.js"

const LifecycleLayer = InMemoryLifecycleLive.pipe(Layer.provideMerge(InMemoryPlansLive.pipe(Layer.provideMerge(InMemoryTransfersLive))))

export const withLifecycle = <A, E>(effect: Effect.Effect<A, E, any>) => inMemory(Effect.provide(effect, LifecycleLayer))

/** 2026-11-21 06:00 UTC. */
export const START = Date.UTC(2026, 10, 21, 6, 0)

/** A gated-action code: what close-account and delete-account take. */
export const otpFor = (accountId: AccountId) =>
  Effect.gen(function*() {
    const { pinId } = yield* Auth.requestActionOtp(accountId)
    return { otpPinId: pinId, otpCode: yield* Sent.lastCode("action_confirmation") }
  })

/** Ada with a bank account, `funds` deposited and a default beneficiary at `destination`. */
export const fundedAda = (funds: bigint, destination: string | null = "0123450001") =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    const ada = yield* bankedAda
    if (funds > 0n) {
      yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: funds })
      yield* Banking.syncDeposits(ada.accountId)
    }
    if (destination !== null) {
      yield* Beneficiaries.add(ada.accountId, { accountNumber: destination, bankCode: "000013", bankName: "GTBank" })
    }
    const customer = Option.getOrThrow(yield* (yield* AccountRepo).findById(ada.accountId)).customer
    return { ...ada, customerId: customer.id }
  })

export const statusOf = (accountId: AccountId) =>
  Effect.map(Effect.flatMap(AccountRepo, (r) => r.findById(accountId)), (f) => Option.getOrThrow(f).customer.customerStatus)
