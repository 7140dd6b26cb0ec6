/** The in-memory "database" every in-memory port shares: one immutable State in a Ref (see InMemory.ts). */
import { Context, Effect, Ref } from "effect"
import { type AccountWithCustomer, Account, Customer } from "../../src/account/Model.js"
import { Beneficiary } from "../../src/beneficiaries/Model.js"
import { OneTimeCode, RefreshToken } from "../../src/auth/Model.js"
import { Transaction } from "../../src/transactions/Model.js"
import { type ProviderFreeze } from "../../src/auth/Ports.js"
import { noGuard, type PinGuard } from "../../src/auth/PinLockout.js"
import { AccountId, CustomerId } from "../../src/shared/Ids.js"

/** The whole database. Immutable values only, so a snapshot is just the current value. */
export interface State {
  /** by account id */
  readonly accounts: ReadonlyMap<string, AccountWithCustomer>
  /** in insertion order */
  readonly otps: ReadonlyArray<OneTimeCode>
  /** in insertion order */
  readonly refreshTokens: ReadonlyArray<RefreshToken>
  /** in insertion order */
  readonly transactions: ReadonlyArray<Transaction>
  /** in insertion order */
  readonly beneficiaries: ReadonlyArray<Beneficiary>
  /** PIN guards by customer id (PinRepo; none = `noGuard`) */
  readonly pinGuards: ReadonlyMap<string, PinGuard>
  /** provider freezes recorded by PinRepo, in insertion order */
  readonly providerFreezes: ReadonlyArray<ProviderFreeze>
  /** social sign-in links: subject → account id (SocialIdentityRepo) */
  readonly socialLinks: ReadonlyMap<string, AccountId>
}

export const emptyState: State = {
  accounts: new Map(),
  otps: [],
  refreshTokens: [],
  transactions: [],
  beneficiaries: [],
  pinGuards: new Map(),
  providerFreezes: [],
  socialLinks: new Map()
}

export class Store extends Context.Tag("test/Store")<Store, {
  readonly ref: Ref.Ref<State>
  /** number of `UnitOfWork.atomically` blocks that committed / rolled back */
  readonly commits: Ref.Ref<number>
  readonly rollbacks: Ref.Ref<number>
}>() {
  static readonly state = Effect.flatMap(Store, (s) => Ref.get(s.ref))

  static readonly account = (accountId: AccountId) =>
    Effect.flatMap(Store.state, (s) => {
      const found = s.accounts.get(accountId)
      return found === undefined ? Effect.dieMessage(`no account ${accountId}`) : Effect.succeed(found)
    })

  static readonly otp = (id: string) =>
    Effect.flatMap(Store.state, (s) => {
      const found = s.otps.find((o) => o.id === id)
      return found === undefined ? Effect.dieMessage(`no otp ${id}`) : Effect.succeed(found)
    })

  static readonly otps = Effect.map(Store.state, (s) => s.otps)
  static readonly refreshTokens = Effect.map(Store.state, (s) => s.refreshTokens)
  static readonly transactions = Effect.map(Store.state, (s) => s.transactions)
  static readonly beneficiaries = Effect.map(Store.state, (s) => s.beneficiaries)
  static readonly providerFreezes = Effect.map(Store.state, (s) => s.providerFreezes)
  static readonly pinGuard = (customerId: CustomerId) => Effect.map(Store.state, (s) => s.pinGuards.get(customerId) ?? noGuard)

  /** Test back door: overwrites fields of a stored customer (e.g. `kycStatus`). */
  static readonly patchCustomer = (accountId: AccountId, patch: Partial<Omit<Customer, "id">>) =>
    Effect.flatMap(Store, (s) =>
      Ref.update(s.ref, (st) => {
        const found = st.accounts.get(accountId)
        if (found === undefined) return st
        return withAccount(st, accountId, { ...found, customer: new Customer({ ...found.customer, ...patch }) })
      }))

  /** Test back door: overwrites fields of a stored account (e.g. `passwordHash: null`). */
  static readonly patchAccount = (accountId: AccountId, patch: Partial<Omit<Account, "id">>) =>
    Effect.flatMap(Store, (s) =>
      Ref.update(s.ref, (st) => {
        const found = st.accounts.get(accountId)
        if (found === undefined) return st
        return withAccount(st, accountId, { ...found, account: new Account({ ...found.account, ...patch }) })
      }))

  /** Test back door: puts a customer into any status (suspended, deleted, ...). */
  static readonly setCustomerStatus = (accountId: AccountId, status: Customer["customerStatus"]) =>
    Effect.flatMap(Store, (s) =>
      Ref.update(s.ref, (st) => {
        const found = st.accounts.get(accountId)
        if (found === undefined) return st
        return withAccount(st, accountId, { ...found, customer: new Customer({ ...found.customer, customerStatus: status }) })
      }))
}

export const withAccount = (st: State, accountId: AccountId, value: AccountWithCustomer): State => {
  const accounts = new Map(st.accounts)
  accounts.set(accountId, value)
  return { ...st, accounts }
}
