/**
 * In-memory implementations of every domain port, for tests. Everything is deterministic and
 * backed by Refs; all clocks are read from the Effect `Clock`, so under `it.effect` the
 * TestClock drives expiry. No Node APIs, no database.
 *
 * Provide `InMemoryLayer` per test (`Effect.provide(InMemoryLayer)`): each provide builds fresh
 * state. Besides the ports, the layer exposes test-only services:
 * - `Store`: the stored rows (accounts with customers, one-time codes, refresh tokens);
 * - `Sent`: every message the notifier delivered;
 * - `RandomControl`: queues to force the next digits / alphabet strings;
 * - `HasherProbe`: call counters of the fake password hasher;
 * - `FakeBank`: the state, faults and call log of the fake core banking provider (FakeBank.ts),
 *   which serves `CoreBanking` and `TestFunding`; the banking caches (`Banking.BankingCachesLive`)
 *   are built over it;
 * - `AlertStore`: every staff alert raised (InMemoryAlerts.ts, which serves `AlertRepo`).
 * `PinRepo` (InMemoryPin.ts) keeps its guards and provider freezes in the Store.
 */
import {Array as Arr, Clock, Context, Duration, Effect, Exit, Layer, Option, Redacted, Ref} from "effect"
import { TokenPolicy } from "../../src/auth/Sessions.js"
import { BankingCachesLive } from "../../src/banking/Caches.js"
import { type AccountWithCustomer, Account, Customer } from "../../src/account/Model.js"
import { Beneficiary } from "../../src/beneficiaries/Model.js"
import { OneTimeCode, type OtpPurpose, RefreshToken } from "../../src/auth/Model.js"
import { Transaction } from "../../src/transactions/Model.js"
import { isLive } from "../../src/auth/Otp.js"
import { AccessTokens, OtpRepo, PinRepo, type ProviderFreeze, RefreshTokenRepo, SocialIdentityRepo } from "../../src/auth/Ports.js"
import { noGuard, type PinGuard } from "../../src/auth/PinLockout.js"
import { AccountRepo, type NewAccount, UniqueViolation } from "../../src/account/Ports.js"
import { BeneficiaryRepo } from "../../src/beneficiaries/Ports.js"
import { Ids, PasswordHasher, SecretHasher, SecureRandom, UnitOfWork } from "../../src/shared/Ports.js"
import { Notifier, type OutboundMessage } from "../../src/notifications/Ports.js"
import { TransactionRepo } from "../../src/transactions/Ports.js"
import {FakeBankStateLive, FakeCoreBankingLive} from "./FakeBank.js"
import {InMemoryAlertsLive} from "./InMemoryAlerts.js"
import {makeInMemoryPinRepo} from "./InMemoryPin.js"
import {makeInMemoryReferralRepo} from "./InMemoryReferrals.js"
import {makeInMemorySocialIdentityRepo, NoStaffLive, StubIdentityProviderLive} from "./InMemorySocial.js"
import { ReferralRepo } from "../../src/referrals/Ports.js"

export { FakeBank, SANDBOX_BANKS } from "./FakeBank.js"
export { AlertStore } from "./InMemoryAlerts.js"

// ---------------------------------------------------------------------------------------------
// Stored rows
// ---------------------------------------------------------------------------------------------

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
  readonly socialLinks: ReadonlyMap<string, string>
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

  static readonly account = (accountId: string) =>
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
  static readonly pinGuard = (customerId: string) => Effect.map(Store.state, (s) => s.pinGuards.get(customerId) ?? noGuard)

  /** Test back door: overwrites fields of a stored customer (e.g. `kycStatus`). */
  static readonly patchCustomer = (accountId: string, patch: Partial<Omit<Customer, "id">>) =>
    Effect.flatMap(Store, (s) =>
      Ref.update(s.ref, (st) => {
        const found = st.accounts.get(accountId)
        if (found === undefined) return st
        return withAccount(st, accountId, { ...found, customer: new Customer({ ...found.customer, ...patch }) })
      }))

  /** Test back door: overwrites fields of a stored account (e.g. `passwordHash: null`). */
  static readonly patchAccount = (accountId: string, patch: Partial<Omit<Account, "id">>) =>
    Effect.flatMap(Store, (s) =>
      Ref.update(s.ref, (st) => {
        const found = st.accounts.get(accountId)
        if (found === undefined) return st
        return withAccount(st, accountId, { ...found, account: new Account({ ...found.account, ...patch }) })
      }))

  /** Test back door: puts a customer into any status (suspended, deleted, ...). */
  static readonly setCustomerStatus = (accountId: string, status: Customer["customerStatus"]) =>
    Effect.flatMap(Store, (s) =>
      Ref.update(s.ref, (st) => {
        const found = st.accounts.get(accountId)
        if (found === undefined) return st
        return withAccount(st, accountId, { ...found, customer: new Customer({ ...found.customer, customerStatus: status }) })
      }))
}

const withAccount = (st: State, accountId: string, value: AccountWithCustomer): State => {
  const accounts = new Map(st.accounts)
  accounts.set(accountId, value)
  return { ...st, accounts }
}

// ---------------------------------------------------------------------------------------------
// Test-only probes
// ---------------------------------------------------------------------------------------------

export class Sent extends Context.Tag("test/Sent")<Sent, Ref.Ref<ReadonlyArray<OutboundMessage>>>() {
  static readonly all = Effect.flatMap(Sent, Ref.get)

  /** The code of the last message of this kind (email_verification, password_reset, ...). */
  static readonly lastCode = (kind: string) =>
    Effect.flatMap(Sent.all, (messages) => {
      const message = Arr.findLast(messages, (m) => m.kind === kind && m.code !== undefined)
      return Option.isSome(message)
        ? Effect.succeed(message.value.code!)
        : Effect.dieMessage(`no ${kind} message with a code was sent`)
    })
}

export class RandomControl extends Context.Tag("test/RandomControl")<RandomControl, {
  /** digits() returns these first, in order (each must have the requested length) */
  readonly digits: Ref.Ref<ReadonlyArray<string>>
  /** fromAlphabet() returns these first, in order (each must fit the request) */
  readonly alphabet: Ref.Ref<ReadonlyArray<string>>
}>() {
  static readonly pushDigits = (...values: ReadonlyArray<string>) =>
    Effect.flatMap(RandomControl, (c) => Ref.update(c.digits, (q) => [...q, ...values]))
  static readonly pushAlphabet = (...values: ReadonlyArray<string>) =>
    Effect.flatMap(RandomControl, (c) => Ref.update(c.alphabet, (q) => [...q, ...values]))
}

export class HasherProbe extends Context.Tag("test/HasherProbe")<HasherProbe, {
  readonly hashCalls: Ref.Ref<number>
  readonly verifyCalls: Ref.Ref<number>
  readonly dummyVerifyCalls: Ref.Ref<number>
}>() {
  static readonly dummyVerifyCalls = Effect.flatMap(HasherProbe, (p) => Ref.get(p.dummyVerifyCalls))
  static readonly verifyCalls = Effect.flatMap(HasherProbe, (p) => Ref.get(p.verifyCalls))
}

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

/**
 * `00000001-0000-4000-8000-000000000001`, `00000002-…-000000000002`, ...: the counter also leads,
 * so provider references derived from an id's first hex digits (`referenceFor`) differ too.
 */
export const uuidFor = (n: number) => {
  const hex = n.toString(16)
  return `${hex.padStart(8, "0")}-0000-4000-8000-${hex.padStart(12, "0")}`
}

export const IdsLive = Layer.effect(
  Ids,
  Effect.map(Ref.make(0), (counter) => ({ next: Ref.updateAndGet(counter, (n) => n + 1).pipe(Effect.map(uuidFor)) }))
)

const pop = (queue: Ref.Ref<ReadonlyArray<string>>) =>
  Ref.modify(queue, (q): [Option.Option<string>, ReadonlyArray<string>] =>
    q.length === 0 ? [Option.none(), q] : [Option.some(q[0]!), q.slice(1)])

export const SecureRandomLive = Layer.effect(
  SecureRandom,
  Effect.gen(function*() {
    const control = yield* RandomControl
    const digitCounter = yield* Ref.make(0)
    const alphabetCounter = yield* Ref.make(0)
    const tokenCounter = yield* Ref.make(0)
    return {
      digits: (n) =>
        Effect.flatMap(pop(control.digits), Option.match({
          onSome: (forced) =>
            /^\d+$/.test(forced) && forced.length === n
              ? Effect.succeed(forced)
              : Effect.dieMessage(`forced digits ${forced} do not fit ${n} digits`),
          onNone: () =>
            Ref.getAndUpdate(digitCounter, (c) => c + 1).pipe(
              // 123456, 123457, ...: distinct, n digits, and not a trivially guessable 000000
              Effect.map((c) => ((123456 + c) % 10 ** n).toString().padStart(n, "0"))
            )
        })),
      fromAlphabet: (n, alphabet) =>
        Effect.flatMap(pop(control.alphabet), Option.match({
          onSome: (forced) =>
            forced.length === n && [...forced].every((ch) => alphabet.includes(ch))
              ? Effect.succeed(forced)
              : Effect.dieMessage(`forced string ${forced} does not fit ${n} characters of ${alphabet}`),
          onNone: () =>
            Effect.map(Ref.getAndUpdate(alphabetCounter, (c) => c + 1), (c) => {
              // the counter written in base alphabet.length, most significant first, padded
              let out = ""
              let rest = c
              for (let i = 0; i < n; i++) {
                out = alphabet[rest % alphabet.length]! + out
                rest = Math.floor(rest / alphabet.length)
              }
              return out
            })
        })),
      token: (bytes) =>
        Effect.map(Ref.updateAndGet(tokenCounter, (c) => c + 1), (c) => `tok${bytes}_${c.toString().padStart(8, "0")}`)
    }
  })
)

export const PasswordHasherLive = Layer.effect(
  PasswordHasher,
  Effect.map(HasherProbe, (probe) => ({
    hash: (plain) => Effect.as(Ref.update(probe.hashCalls, (n) => n + 1), `hash:${Redacted.value(plain)}`),
    verify: (plain, hash) => Effect.as(Ref.update(probe.verifyCalls, (n) => n + 1), hash === `hash:${Redacted.value(plain)}`),
    dummyVerify: () => Ref.update(probe.dummyVerifyCalls, (n) => n + 1)
  }))
)

export const SecretHasherLive = Layer.succeed(SecretHasher, {
  digest: (purpose, secret) => Effect.succeed(`${purpose}|${secret}`),
  equals: (a, b) => a === b
})

/** `access.<expiresAtMillis>.<accountId>`; valid while Clock < expiresAt. */
export const AccessTokensLive = Layer.succeed(AccessTokens, {
  issue: (claims) =>
    Effect.map(
      Clock.currentTimeMillis,
      (now) => `access.${now + Duration.toMillis(TokenPolicy.accessTokenTtl)}.${claims.accountId}`
    ),
  verify: (token) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const match = /^access\.(\d+)\.(.+)$/.exec(token)
      if (match === null) return Option.none()
      return now < Number(match[1]) ? Option.some({ accountId: match[2]! }) : Option.none()
    })
})

export const NotifierLive = Layer.effect(
  Notifier,
  Effect.map(Sent, (sent) => ({ send: (message) => Ref.update(sent, (all) => [...all, message]) }))
)

/**
 * Snapshots the whole store and restores it when the effect fails (error, defect or
 * interruption), so a failed block leaves no writes behind.
 */
export const UnitOfWorkLive = Layer.effect(
  UnitOfWork,
  Effect.map(Store, (store) => ({
    atomically: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(Ref.get(store.ref), (snapshot) =>
        effect.pipe(
          Effect.onExit((exit) =>
            Exit.isSuccess(exit)
              ? Ref.update(store.commits, (n) => n + 1)
              : Effect.zipRight(Ref.set(store.ref, snapshot), Ref.update(store.rollbacks, (n) => n + 1))
          )
        ))
  }))
)

export const AccountRepoLive = Layer.effect(
  AccountRepo,
  Effect.map(Store, ({ ref }) => {
    const find = (p: (a: AccountWithCustomer) => boolean) =>
      Effect.map(Ref.get(ref), (st) => Option.fromNullable([...st.accounts.values()].find(p)))
    const updateAccount = (accountId: string, f: (a: Account) => Account) =>
      Ref.update(ref, (st) => {
        const found = st.accounts.get(accountId)
        return found === undefined ? st : withAccount(st, accountId, { ...found, account: f(found.account) })
      })
    const updateCustomer = (accountId: string, f: (c: Customer) => Customer) =>
      Ref.update(ref, (st) => {
        const found = st.accounts.get(accountId)
        return found === undefined ? st : withAccount(st, accountId, { ...found, customer: f(found.customer) })
      })
    return {
      create: ({ account, customer }: NewAccount) =>
        Effect.flatten(Ref.modify(ref, (st): [Effect.Effect<void, UniqueViolation>, State] => {
          const all = [...st.accounts.values()]
          const clash = all.some((a) => a.account.email === account.email)
            ? "email" as const
            : account.phone !== null && all.some((a) => a.account.phone === account.phone)
            ? "phone" as const
            : all.some((a) => a.customer.referralCode === customer.referralCode)
            ? "referralCode" as const
            : undefined
          if (clash !== undefined) return [Effect.fail(new UniqueViolation({ field: clash })), st]
          if (st.accounts.has(account.id)) return [Effect.dieMessage(`duplicate account id ${account.id}`), st]
          return [Effect.void, withAccount(st, account.id, { account, customer })]
        })),
      findById: (accountId) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.accounts.get(accountId))),
      findByEmail: (email) => find((a) => a.account.email === email),
      findByPhone: (phone) => find((a) => a.account.phone === phone),
      emailExists: (email) => Effect.map(find((a) => a.account.email === email), Option.isSome),
      phoneExists: (phone) => Effect.map(find((a) => a.account.phone === phone), Option.isSome),
      markEmailVerified: (accountId, now) =>
        updateAccount(accountId, (a) => new Account({ ...a, emailVerified: true, updatedAt: now })),
      markPhoneVerified: (accountId, now) =>
        updateAccount(accountId, (a) => new Account({ ...a, phoneVerified: true, updatedAt: now })),
      transitionStatus: (accountId, from, to, now) =>
        updateCustomer(accountId, (c) => c.customerStatus === from ? new Customer({ ...c, customerStatus: to, updatedAt: now }) : c),
      setPasswordHash: (accountId, hash, now) =>
        updateAccount(accountId, (a) => new Account({ ...a, passwordHash: hash, updatedAt: now })),
      setFirstPasswordHash: (accountId, hash, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.account.passwordHash !== null) return [false, st]
          return [true, withAccount(st, accountId, { ...found, account: new Account({ ...found.account, passwordHash: hash, updatedAt: now }) })]
        }),
      setBvnVerified: (accountId, details, now) =>
        Effect.flatten(Ref.modify(ref, (st): [Effect.Effect<boolean, UniqueViolation>, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.customer.kycStatus !== "pending") return [Effect.succeed(false), st]
          const others = [...st.accounts.values()].filter((a) => a.account.id !== accountId)
          if (others.some((a) => a.customer.bvnHash === details.bvnHash)) {
            return [Effect.fail(new UniqueViolation({ field: "bvnHash" })), st]
          }
          if (others.some((a) => a.account.phone === details.phone)) return [Effect.fail(new UniqueViolation({ field: "phone" })), st]
          const { account, customer } = found
          return [Effect.succeed(true), withAccount(st, accountId, {
            account: new Account({
              ...account,
              firstName: details.firstName,
              lastName: details.lastName,
              phone: details.phone,
              phoneVerified: account.phone === details.phone && account.phoneVerified,
              address: details.address,
              gender: details.gender,
              dateOfBirth: details.dateOfBirth,
              updatedAt: now
            }),
            customer: new Customer({ ...customer, bvnHash: details.bvnHash, kycStatus: "bvn_verified", updatedAt: now })
          })]
        })),
      findByBvnHash: (bvnHash) => find((a) => a.customer.bvnHash === bvnHash),
      setCoreAccount: (accountId, core, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.customer.coreAccountNumber !== null) return [false, st]
          if ([...st.accounts.values()].some((a) => a.customer.coreAccountNumber === core.accountNumber)) {
            throw new Error(`account number ${core.accountNumber} is already linked to another customer`)
          }
          return [true, withAccount(st, accountId, {
            ...found,
            customer: new Customer({
              ...found.customer,
              coreAccountNumber: core.accountNumber,
              coreAccountReference: core.reference,
              updatedAt: now
            })
          })]
        }),
      findByCoreAccountNumber: (accountNumber) => find((a) => a.customer.coreAccountNumber === accountNumber),
      findByCustomerId: (customerId) => find((a) => a.customer.id === customerId),
      listWithBankAccount: (afterAccountId, limit) =>
        Effect.map(Ref.get(ref), (st) =>
          [...st.accounts.values()]
            .filter((a) => a.customer.coreAccountNumber !== null && a.customer.customerStatus !== "deleted")
            .filter((a) => afterAccountId === null || a.account.id > afterAccountId)
            .sort((a, b) => (a.account.id < b.account.id ? -1 : 1))
            .slice(0, limit)
            .map((a) => ({ accountId: a.account.id, accountNumber: a.customer.coreAccountNumber! }))),
      markFirstDeposit: (accountId, at, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.customer.firstDepositAt !== null) return [false, st]
          return [true, withAccount(st, accountId, {
            ...found,
            customer: new Customer({ ...found.customer, firstDepositAt: at, updatedAt: now })
          })]
        }),
      setProfile: (accountId, patch, now) =>
        updateAccount(accountId, (a) =>
          new Account({
            ...a,
            displayName: patch.displayName ?? a.displayName,
            whatsappNumber: patch.whatsappNumber === undefined ? a.whatsappNumber : patch.whatsappNumber,
            updatedAt: now
          })),
      setNotificationSettings: (accountId, patch, now) =>
        updateCustomer(accountId, (c) =>
          new Customer({
            ...c,
            smsEnabled: patch.smsEnabled ?? c.smsEnabled,
            emailEnabled: patch.emailEnabled ?? c.emailEnabled,
            updatedAt: now
          }))
    }
  })
)

export const OtpRepoLive = Layer.effect(
  OtpRepo,
  Effect.map(Store, ({ ref }) => {
    const latestOf = (otps: ReadonlyArray<OneTimeCode>, accountId: string, purpose: OtpPurpose) => {
      let best: OneTimeCode | undefined
      for (const otp of otps) {
        // ties go to the later insert
        if (otp.accountId === accountId && otp.purpose === purpose && (best === undefined || otp.createdAt >= best.createdAt)) {
          best = otp
        }
      }
      return Option.fromNullable(best)
    }
    return {
      issue: (otp) =>
        Ref.update(ref, (st) => ({
          ...st,
          otps: [
            ...st.otps.map((o) =>
              o.accountId === otp.accountId && o.purpose === otp.purpose && isLive(o, otp.createdAt)
                ? new OneTimeCode({ ...o, consumedAt: otp.createdAt })
                : o
            ),
            new OneTimeCode({ ...otp, attempts: 0, consumedAt: null })
          ]
        })),
      latest: (accountId, purpose) => Effect.map(Ref.get(ref), (st) => latestOf(st.otps, accountId, purpose)),
      issuedSince: (accountId, purpose, since) =>
        Effect.map(Ref.get(ref), (st) =>
          st.otps
            .filter((o) => o.accountId === accountId && o.purpose === purpose && o.createdAt.getTime() >= since.getTime())
            .map((o) => o.createdAt)
            .sort((a, b) => a.getTime() - b.getTime())),
      findById: (id) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.otps.find((o) => o.id === id))),
      claimAttempt: (id, now) =>
        Ref.modify(ref, (st): [Option.Option<OneTimeCode>, State] => {
          const otp = st.otps.find((o) => o.id === id)
          if (otp === undefined || !isLive(otp, now)) return [Option.none(), st]
          const claimed = new OneTimeCode({ ...otp, attempts: otp.attempts + 1 })
          return [Option.some(claimed), { ...st, otps: st.otps.map((o) => o.id === id ? claimed : o) }]
        }),
      consume: (id, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const otp = st.otps.find((o) => o.id === id)
          if (otp === undefined || otp.consumedAt !== null || otp.expiresAt.getTime() <= now.getTime()) return [false, st]
          const used = new OneTimeCode({ ...otp, consumedAt: now })
          return [true, { ...st, otps: st.otps.map((o) => o.id === id ? used : o) }]
        }),
      purgeCreatedBefore: (before) =>
        Ref.modify(ref, (st): [number, State] => {
          const kept = st.otps.filter((o) => o.createdAt.getTime() >= before.getTime())
          return [st.otps.length - kept.length, { ...st, otps: kept }]
        })
    }
  })
)

export const RefreshTokenRepoLive = Layer.effect(
  RefreshTokenRepo,
  Effect.map(Store, ({ ref }) => {
    const revokeWhere = (p: (t: RefreshToken) => boolean, now: Date) =>
      Ref.update(ref, (st) => ({
        ...st,
        refreshTokens: st.refreshTokens.map((t) => p(t) && t.revokedAt === null ? new RefreshToken({ ...t, revokedAt: now }) : t)
      }))
    return {
      insert: (token) =>
        Effect.flatten(Ref.modify(ref, (st): [Effect.Effect<void>, State] =>
          st.refreshTokens.some((t) => t.id === token.id || t.tokenHash === token.tokenHash)
            ? [Effect.dieMessage(`duplicate refresh token ${token.id}`), st]
            : [Effect.void, { ...st, refreshTokens: [...st.refreshTokens, token] }])),
      findByHash: (tokenHash) =>
        Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.refreshTokens.find((t) => t.tokenHash === tokenHash))),
      markUsed: (id, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const token = st.refreshTokens.find((t) => t.id === id)
          if (token === undefined || token.usedAt !== null || token.revokedAt !== null) return [false, st]
          const used = new RefreshToken({ ...token, usedAt: now })
          return [true, { ...st, refreshTokens: st.refreshTokens.map((t) => t.id === id ? used : t) }]
        }),
      revokeFamily: (familyId, now) => revokeWhere((t) => t.familyId === familyId, now),
      revokeAllForAccount: (accountId, now) => revokeWhere((t) => t.accountId === accountId, now),
      purgeExpiredBefore: (before) =>
        Ref.modify(ref, (st): [number, State] => {
          const kept = st.refreshTokens.filter((t) => t.expiresAt.getTime() >= before.getTime())
          return [st.refreshTokens.length - kept.length, { ...st, refreshTokens: kept }]
        })
    }
  })
)

export const TransactionRepoLive = Layer.effect(
  TransactionRepo,
  Effect.map(Store, ({ ref }) => ({
    recordDeposit: (deposit) =>
      Ref.modify(ref, (st): [boolean, State] => {
        if (
          st.transactions.some((t) => t.customerId === deposit.customerId && t.providerReference === deposit.providerReference)
        ) return [false, st]
        const row = new Transaction({
          id: deposit.id,
          customerId: deposit.customerId,
          planId: null,
          type: "credit",
          purpose: "deposit",
          amountKobo: deposit.amountKobo,
          feeKobo: 0n,
          status: "confirmed",
          retrievalReference: null,
          transferReference: null,
          providerReference: deposit.providerReference,
          failureReason: null,
          retryCount: 0,
          createdAt: deposit.postedAt,
          updatedAt: deposit.now
        })
        return [true, { ...st, transactions: [...st.transactions, row] }]
      }),
    findById: (id) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.transactions.find((t) => t.id === id))),
    listForCustomer: (customerId, { page, pageSize }) =>
      Effect.map(Ref.get(ref), (st) => {
        const all = st.transactions
          .filter((t) => t.customerId === customerId)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        return { items: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: all.length }
      }),
    listForCustomerBetween: (customerId, from, until) =>
      Effect.map(Ref.get(ref), (st) =>
        st.transactions
          .filter((t) =>
            t.customerId === customerId && t.createdAt.getTime() >= from.getTime() && t.createdAt.getTime() < until.getTime()
          )
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))),
    listForCustomerByPurpose: (customerId, purpose) =>
      Effect.map(Ref.get(ref), (st) =>
        st.transactions
          .filter((t) => t.customerId === customerId && t.purpose === purpose)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)))
  }))
)

/** The default first, then oldest first (ties by id). */
const beneficiaryOrder = (a: Beneficiary, b: Beneficiary) =>
  Number(b.isDefault) - Number(a.isDefault) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)

export const BeneficiaryRepoLive = Layer.effect(
  BeneficiaryRepo,
  Effect.map(Store, ({ ref }) => {
    const mine = (st: State, customerId: string) => st.beneficiaries.filter((b) => b.customerId === customerId)
    const replace = (st: State, f: (b: Beneficiary) => Beneficiary): State => ({ ...st, beneficiaries: st.beneficiaries.map(f) })
    return {
      add: (input) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          const own = mine(st, input.customerId)
          if (own.some((b) => b.accountNumber === input.accountNumber && b.bankCode === input.bankCode)) return [Option.none(), st]
          const added = new Beneficiary({ ...input, isDefault: !own.some((b) => b.isDefault) })
          return [Option.some(added), { ...st, beneficiaries: [...st.beneficiaries, added] }]
        }),
      list: (customerId) => Effect.map(Ref.get(ref), (st) => mine(st, customerId).sort(beneficiaryOrder)),
      findById: (customerId, id) =>
        Effect.map(Ref.get(ref), (st) => Option.fromNullable(mine(st, customerId).find((b) => b.id === id))),
      setDefault: (customerId, id) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          if (!mine(st, customerId).some((b) => b.id === id)) return [Option.none(), st]
          const next = replace(st, (b) => b.customerId === customerId && b.isDefault !== (b.id === id) ? new Beneficiary({ ...b, isDefault: b.id === id }) : b)
          return [Option.fromNullable(next.beneficiaries.find((b) => b.id === id)), next]
        }),
      remove: (customerId, id) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          const found = mine(st, customerId).find((b) => b.id === id)
          if (found === undefined) return [Option.none(), st]
          return [Option.some(found), { ...st, beneficiaries: st.beneficiaries.filter((b) => b.id !== id) }]
        }),
      promoteOldest: (customerId) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          const own = mine(st, customerId).sort(beneficiaryOrder)
          if (own.length === 0 || own.some((b) => b.isDefault)) return [Option.none(), st]
          const promoted = new Beneficiary({ ...own[0]!, isDefault: true })
          return [Option.some(promoted), replace(st, (b) => b.id === promoted.id ? promoted : b)]
        })
    }
  })
)

export const PinRepoLive = Layer.effect(PinRepo, Effect.map(Store, ({ ref }) => makeInMemoryPinRepo(ref)))

export const ReferralRepoLive = Layer.effect(ReferralRepo, Effect.map(Store, ({ ref }) => makeInMemoryReferralRepo(ref)))

export const SocialIdentityRepoLive = Layer.effect(SocialIdentityRepo, Effect.map(Store, ({ ref }) => makeInMemorySocialIdentityRepo(ref)))

// ---------------------------------------------------------------------------------------------
// Everything together
// ---------------------------------------------------------------------------------------------

const ProbesLive = Layer.mergeAll(
  Layer.effect(Store, Effect.all({ ref: Ref.make(emptyState), commits: Ref.make(0), rollbacks: Ref.make(0) })),
  Layer.effect(Sent, Ref.make<ReadonlyArray<OutboundMessage>>([])),
  Layer.effect(RandomControl, Effect.all({ digits: Ref.make<ReadonlyArray<string>>([]), alphabet: Ref.make<ReadonlyArray<string>>([]) })),
  Layer.effect(HasherProbe, Effect.all({ hashCalls: Ref.make(0), verifyCalls: Ref.make(0), dummyVerifyCalls: Ref.make(0) })),
  FakeBankStateLive
)

const PortsLive = Layer.mergeAll(
  IdsLive,
  SecureRandomLive,
  PasswordHasherLive,
  SecretHasherLive,
  AccessTokensLive,
  NotifierLive,
  UnitOfWorkLive,
  AccountRepoLive,
  OtpRepoLive,
  RefreshTokenRepoLive,
  TransactionRepoLive,
  BeneficiaryRepoLive,
  PinRepoLive,
  ReferralRepoLive,
  SocialIdentityRepoLive,
  StubIdentityProviderLive,
  NoStaffLive,
  FakeCoreBankingLive,
  InMemoryAlertsLive
)

/** All ports plus the test probes, with fresh state each time it is provided. */
export const InMemoryLayer = Layer.provideMerge(BankingCachesLive, Layer.provideMerge(PortsLive, ProbesLive))

export type InMemory = Layer.Layer.Success<typeof InMemoryLayer>
