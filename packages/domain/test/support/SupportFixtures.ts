/**
 * Fixtures of the support domain tests: fresh in-memory ports with the support ports, customers
 * Ada and Bola with tickets, staff members, and a deposit (a transaction of Ada's own).
 */
import { Effect, Layer, TestClock } from "effect"
import { TestFunding } from "../../src/banking/CoreBanking.js"
import * as Banking from "../../src/banking/index.js"
import * as Support from "../../src/support/index.js"
import { bankedAda, registerAda, registerBola } from "./Fixtures.js"
import { type InMemory, InMemoryLayer, Store } from "./InMemory.js"
import { InMemorySupportLayer, SupportStore } from "./InMemorySupport.js"
import { AccountId, StaffId } from "../../src/shared/Ids.js"

type SupportTest = InMemory | Layer.Layer.Success<typeof InMemorySupportLayer>

/** Runs a test body against fresh in-memory ports, the support ports included. */
export const withSupport = <A, E>(self: Effect.Effect<A, E, SupportTest>): Effect.Effect<A, E> =>
  Effect.provide(self, Layer.merge(InMemoryLayer, InMemorySupportLayer))

export const AGENT = StaffId.make("5a000000-0000-4000-8000-000000000001")
export const SUPERVISOR = StaffId.make("5a000000-0000-4000-8000-000000000002")
export const STRANGER = StaffId.make("5a000000-0000-4000-8000-0000000000ff")

/** Two staff members: AGENT and SUPERVISOR (STRANGER is nobody). */
export const hireStaff = Effect.zipRight(SupportStore.hire(AGENT), SupportStore.hire(SUPERVISOR))

/** Ada and Bola registered, staff hired; their account ids. */
export const adaAndBola = Effect.gen(function*() {
  yield* hireStaff
  const ada = yield* registerAda()
  const bola = yield* registerBola
  return { ada: ada.account.id, bola: bola.account.id, adaEmail: ada.account.email }
})

/** A ticket of the customer, opened after the clock moved a minute (so activity times differ). */
export const openFor = (accountId: AccountId, subject = "Where is my money?", extra: Partial<Support.OpenTicketInput> = {}) =>
  Effect.zipRight(
    TestClock.adjust("1 minute"),
    Support.openTicket(accountId, { subject, message: "I deposited yesterday and see nothing.", ...extra })
  )

/** Ada with a bank account and one confirmed deposit: her account id and the deposit's transaction id. */
export const adaWithDeposit = Effect.gen(function*() {
  yield* hireStaff
  const ada = yield* bankedAda
  yield* (yield* TestFunding).deposit({ accountNumber: ada.accountNumber, amountKobo: 50_000n })
  yield* Banking.syncDeposits(ada.accountId)
  const [deposit] = yield* Store.transactions
  return { accountId: ada.accountId, transactionId: deposit!.id }
})
