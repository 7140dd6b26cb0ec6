/**
 * An in-memory PinRepo over the test Store (InMemory.ts), so a unit of work rolls its writes back
 * with everything else. Each method is one `Ref.modify` (atomic, as the port requires) applying
 * the pure rules of PinLockout.ts, the transitions the port documents. The PIN hash is the stored
 * customer's `pinHash`; guards and provider freezes are `pinGuards` and `providerFreezes` of the
 * store. Part of `InMemoryLayer`; read them with `Store.pinGuard(customerId)` / `Store.providerFreezes`.
 */
import { Effect, Option, Ref } from "effect"
import { Customer } from "../../src/account/Model.js"
import { claimTry, clearTries, noGuard, type PinClaim, type PinGuard, settleCorrect } from "../../src/auth/PinLockout.js"
import { PinRepo, type ProviderFreeze } from "../../src/auth/Ports.js"
import type { State } from "./InMemory.js"
import { CustomerId } from "../../src/shared/Ids.js"

const guardOf = (st: State, customerId: CustomerId): PinGuard => st.pinGuards.get(customerId) ?? noGuard

const withGuard = (st: State, customerId: CustomerId, guard: PinGuard): State => {
  const pinGuards = new Map(st.pinGuards)
  pinGuards.set(customerId, guard)
  return { ...st, pinGuards }
}

/** Applies `f` to the customer with this id; the state is unchanged when there is none or `f` gives undefined. */
const withCustomer = (st: State, customerId: CustomerId, f: (c: Customer) => Customer | undefined): State => {
  for (const [accountId, found] of st.accounts) {
    if (found.customer.id !== customerId) continue
    const next = f(found.customer)
    if (next === undefined) return st
    const accounts = new Map(st.accounts)
    accounts.set(accountId, { ...found, customer: next })
    return { ...st, accounts }
  }
  return st
}

export const makeInMemoryPinRepo = (ref: Ref.Ref<State>) =>
  PinRepo.of({
    setPinHash: (customerId, hash, now) =>
      Ref.update(ref, (st) => withCustomer(st, customerId, (c) => new Customer({ ...c, pinHash: hash, updatedAt: now }))),
    replacePinHash: (customerId, expected, hash, now) =>
      Ref.modify(ref, (st): [boolean, State] => {
        const next = withCustomer(st, customerId, (c) =>
          c.pinHash === expected ? new Customer({ ...c, pinHash: hash, updatedAt: now }) : undefined)
        return [next !== st, next]
      }),
    findGuard: (customerId) => Effect.map(Ref.get(ref), (st) => guardOf(st, customerId)),
    claimTry: (customerId, now, policy) =>
      Ref.modify(ref, (st): [PinClaim, State] => {
        const [claim, guard] = claimTry(guardOf(st, customerId), now, policy)
        return [claim, claim._tag === "Locked" ? st : withGuard(st, customerId, guard)]
      }),
    recordCorrectTry: (customerId, lock) =>
      Ref.update(ref, (st) => withGuard(st, customerId, settleCorrect(guardOf(st, customerId), lock))),
    clearWrongTries: (customerId) => Ref.update(ref, (st) => withGuard(st, customerId, clearTries(guardOf(st, customerId)))),
    recordProviderFreeze: (customerId, freezeReference, now) =>
      Ref.update(ref, (st) => ({ ...st, providerFreezes: [...st.providerFreezes, { customerId, freezeReference, frozenAt: now }] })),
    lastProviderFreeze: (customerId) =>
      Effect.map(Ref.get(ref), (st) => {
        let latest: ProviderFreeze | undefined
        for (const f of st.providerFreezes) {
          if (f.customerId === customerId && (latest === undefined || f.frozenAt >= latest.frozenAt)) latest = f
        }
        return Option.fromNullable(latest)
      })
  })
