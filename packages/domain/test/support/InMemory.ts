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
 * The Store itself is InMemoryStore.ts; the account, OTP and refresh-token repositories are in
 * InMemoryAccounts.ts, the transaction and beneficiary repositories in InMemoryBanking.ts.
 */
import { Array as Arr, Clock, Context, Duration, Effect, Exit, Layer, Option, Redacted, Ref } from "effect"
import { TokenPolicy } from "../../src/auth/Sessions.js"
import { BalanceMemo, BankingCachesLive } from "../../src/banking/Caches.js"
import { AccessTokens, PinRepo, SocialIdentityRepo } from "../../src/auth/Ports.js"
import { Ids, PasswordHasher, SecretHasher, SecureRandom, UnitOfWork } from "../../src/shared/Ports.js"
import { Notifier, type OutboundMessage } from "../../src/notifications/Ports.js"
import { FakeBankStateLive, FakeCoreBankingLive } from "./FakeBank.js"
import { InMemoryAlertsLive } from "./InMemoryAlerts.js"
import { InMemoryThrottleLive } from "./InMemoryThrottle.js"
import { FreezeRepoLive } from "./InMemoryFreezes.js"
import { makeInMemoryPinRepo } from "./InMemoryPin.js"
import { makeInMemoryReferralRepo } from "./InMemoryReferrals.js"
import { makeInMemorySocialIdentityRepo, NoStaffLive, StubIdentityProviderLive } from "./InMemorySocial.js"
import { ReferralRepo } from "../../src/referrals/Ports.js"
import { AccountRepoLive, OtpRepoLive, RefreshTokenRepoLive } from "./InMemoryAccounts.js"
import { BeneficiaryRepoLive, TransactionRepoLive } from "./InMemoryBanking.js"

export { FakeBank, SANDBOX_BANKS } from "./FakeBank.js"
export { AlertStore } from "./InMemoryAlerts.js"
export { emptyState, type State, Store, withAccount } from "./InMemoryStore.js"
import { emptyState, Store } from "./InMemoryStore.js"
import { AccountId } from "../../src/shared/Ids.js"
export { AccountRepoLive, OtpRepoLive, RefreshTokenRepoLive } from "./InMemoryAccounts.js"
export { BeneficiaryRepoLive, TransactionRepoLive } from "./InMemoryBanking.js"

// ---------------------------------------------------------------------------------------------
// Stored rows
// ---------------------------------------------------------------------------------------------


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
      (now) => `access.${now + Duration.toMillis(TokenPolicy.accessTokenTtl)}.${claims.sessionVersion}.${claims.accountId}`
    ),
  verify: (token) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const match = /^access\.(\d+)\.(\d+)\.(.+)$/.exec(token)
      if (match === null) return Option.none()
      return now < Number(match[1]) ? Option.some({ accountId: AccountId.make(match[3]!), sessionVersion: Number(match[2]) }) : Option.none()
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

/** The last-known balance is the back office's concern: the domain's tests do not read it. */
const BalanceMemoLive = Layer.succeed(BalanceMemo, { remember: () => Effect.void })

const PortsLive = Layer.mergeAll(
  BalanceMemoLive,
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
  InMemoryAlertsLive,
  InMemoryThrottleLive,
  // PIN-lockout freezes open a freeze record (Freezes.test.ts provides its own, with approvals)
  FreezeRepoLive
)

/** All ports plus the test probes, with fresh state each time it is provided. */
export const InMemoryLayer = Layer.provideMerge(BankingCachesLive, Layer.provideMerge(PortsLive, ProbesLive))

export type InMemory = Layer.Layer.Success<typeof InMemoryLayer>
