/**
 * Core banking use cases: BVN verification, opening the customer's bank account, the balance,
 * deposits and the bank list. Money lives at the provider (the `CoreBanking` port); this service
 * keeps the link (account number), the KYC state and one Transaction row per deposit.
 *
 * Decisions:
 * - BVN. Only a keyed digest (`SecretHasher.digest("bvn", …)`) is stored, so a BVN can be matched
 *   against other customers but never read back; the number itself goes to the registry once and is
 *   never logged (it may be passed `Redacted`). The registry's date of birth must equal the one given.
 * - Opening an account is idempotent: the reference is derived from the customer id
 *   (`referenceFor("A", customer.id)`), and an unknown outcome (timeout) is resolved by
 *   `findAccountByReference` before giving up, so a retry never opens a second account.
 * - PND. At the provider, post-no-debit stays ACTIVE on the customer's account at all times except
 *   inside a money movement of ours (deactivate → lien → debit → transfer → remove lien → activate),
 *   so nothing but our own sagas can ever debit it. What the customer sees as `pndActive` is a
 *   business state instead: true until the first confirmed inbound deposit (`firstDepositAt` null),
 *   false afterwards. That first confirmed deposit is what allows withdrawals.
 * - Deposits. Every inbound NIP credit in the provider history becomes exactly one confirmed deposit
 *   row, keyed by (customer, provider reference), however often or concurrently a sync runs (the
 *   webhook, the sync endpoint, reconciliation).
 * - Caching. The balance is a live poll of the provider; a burst of reads within 5 seconds shares one
 *   provider call (`BalanceCache`), and anything that moves money invalidates the entry. The bank
 *   list is cached for 24 hours (`BankListCache`). Failures are never cached. Both caches read time
 *   from the Effect `Clock`.
 */
import { Cache, Context, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import {
  type AccountSnapshot,
  type Bank,
  CoreBanking,
  type CoreBankingError,
  type ProviderAccount,
  referenceFor,
  TestFunding
} from "./CoreBanking.js"
import {
  BankAccountExists,
  BvnAlreadyVerified,
  BvnDateOfBirthMismatch,
  BvnNotFound,
  BvnNotVerified,
  BvnTaken,
  CustomerNotVerified,
  InvalidAmount,
  NoBankAccount,
  PhoneTaken,
  TransactionNotFound,
  UnknownAccountNumber
} from "./Errors.js"
import type { AccountWithCustomer, Customer, Gender, PageRequest } from "./Models.js"
import type { Kobo } from "./Money.js"
import { AccountRepo, Ids, SecretHasher, TransactionRepo } from "./Ports.js"
import { atomically, now, requireAccount } from "./UseCase.js"


/** The account with its customer and the customer's provider account number; NoBankAccount without one. */
const requireBankAccount = (accountId: string) =>
  Effect.flatMap(requireAccount(accountId), (found) =>
    found.customer.coreAccountNumber === null
      ? Effect.fail(new NoBankAccount())
      : Effect.succeed({ ...found, accountNumber: found.customer.coreAccountNumber }))

// ---------------------------------------------------------------------------------------------
// Caches
// ---------------------------------------------------------------------------------------------

export const BalanceCacheTtl = Duration.seconds(5)
export const BankListCacheTtl = Duration.hours(24)

/** Provider account snapshots by account number, kept `BalanceCacheTtl`. */
export class BalanceCache extends Context.Tag("domain/BalanceCache")<BalanceCache, {
  readonly get: (accountNumber: string) => Effect.Effect<AccountSnapshot, CoreBankingError>
  readonly invalidate: (accountNumber: string) => Effect.Effect<void>
}>() {}

/** The provider's bank list, kept `BankListCacheTtl`. */
export class BankListCache extends Context.Tag("domain/BankListCache")<BankListCache, {
  readonly get: Effect.Effect<ReadonlyArray<Bank>, CoreBankingError>
  readonly invalidate: Effect.Effect<void>
}>() {}

/** A cache of successful lookups only: a failure reaches its callers and is forgotten at once. */
const successCache = <K, A, E>(ttl: Duration.Duration, capacity: number, lookup: (key: K) => Effect.Effect<A, E>) =>
  Effect.map(
    Cache.makeWith({ capacity, lookup, timeToLive: Exit.match({ onFailure: () => Duration.zero, onSuccess: () => ttl }) }),
    (cache) => ({
      get: (key: K) => Effect.tapError(cache.get(key), () => cache.invalidate(key)),
      invalidate: (key: K) => cache.invalidate(key)
    })
  )

export const BalanceCacheLive = Layer.effect(
  BalanceCache,
  Effect.gen(function*() {
    const core = yield* CoreBanking
    const cache = yield* successCache(BalanceCacheTtl, 100_000, (accountNumber: string) => core.account(accountNumber))
    return BalanceCache.of(cache)
  })
)

export const BankListCacheLive = Layer.effect(
  BankListCache,
  Effect.gen(function*() {
    const core = yield* CoreBanking
    const cache = yield* successCache(BankListCacheTtl, 1, (_: "banks") => core.banks)
    return BankListCache.of({ get: cache.get("banks"), invalidate: cache.invalidate("banks") })
  })
)

/** Both caches; needs CoreBanking. Provide once per process (each build starts empty). */
export const BankingCachesLive = Layer.mergeAll(BalanceCacheLive, BankListCacheLive)

// ---------------------------------------------------------------------------------------------
// BVN
// ---------------------------------------------------------------------------------------------

export interface VerifyBvnInput {
  /** 11 digits; never stored or logged */
  readonly bvn: string | Redacted.Redacted<string>
  readonly firstName: string
  readonly lastName: string
  /** normalised +234 form */
  readonly phone: string
  readonly address: string
  readonly gender: Gender
  /** YYYY-MM-DD, must equal the registry's */
  readonly dateOfBirth: string
}

/** What the registry says about the BVN's holder (the 200 body of verify-bvn). */
export interface BvnIdentity {
  readonly firstName: string
  readonly lastName: string
  readonly phone: string
}

export const verifyBvn = (accountId: string, input: VerifyBvnInput) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    if (found.customer.kycStatus !== "pending") return yield* new BvnAlreadyVerified()
    const bvn = Redacted.isRedacted(input.bvn) ? Redacted.value(input.bvn) : input.bvn
    const bvnHash = yield* (yield* SecretHasher).digest("bvn", bvn)
    const repo = yield* AccountRepo
    const holder = yield* repo.findByBvnHash(bvnHash)
    if (Option.isSome(holder) && holder.value.account.id !== accountId) return yield* new BvnTaken()
    const record = yield* (yield* CoreBanking).bvnLookup(bvn)
    if (Option.isNone(record)) return yield* new BvnNotFound()
    if (record.value.dateOfBirth !== input.dateOfBirth) return yield* new BvnDateOfBirthMismatch()
    const at = yield* now
    const updated = yield* atomically(repo.setBvnVerified(accountId, {
      bvnHash,
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      address: input.address,
      gender: input.gender,
      dateOfBirth: input.dateOfBirth
    }, at)).pipe(
      // a concurrent verification of the same BVN (or phone) by someone else won the race
      Effect.catchTag("UniqueViolation", (e): Effect.Effect<never, BvnTaken | PhoneTaken> =>
        e.field === "bvnHash"
          ? Effect.fail(new BvnTaken())
          : e.field === "phone"
          ? Effect.fail(new PhoneTaken())
          : Effect.die(e))
    )
    if (!updated) return yield* new BvnAlreadyVerified()
    yield* Effect.logInfo("BVN verified").pipe(Effect.annotateLogs({ accountId }))
    return {
      firstName: record.value.firstName,
      lastName: record.value.lastName,
      phone: record.value.phone
    } satisfies BvnIdentity
  }).pipe(Effect.withSpan("Banking.verifyBvn", { attributes: { accountId } }))

// ---------------------------------------------------------------------------------------------
// Bank account
// ---------------------------------------------------------------------------------------------

const identityOf = ({ account }: AccountWithCustomer) =>
  account.firstName === null || account.lastName === null || account.phone === null || account.dateOfBirth === null
    ? Effect.dieMessage("a BVN-verified account lacks its verified identity")
    : Effect.succeed({
      firstName: account.firstName,
      lastName: account.lastName,
      otherNames: account.otherNames,
      phone: account.phone,
      email: account.email,
      dateOfBirth: account.dateOfBirth,
      gender: account.gender
    })

/**
 * Opens the customer's account at the provider and makes the customer `active`. Safe to retry
 * after any failure: the same customer always sends the same reference, and a timed-out opening is
 * looked up by that reference before the unknown outcome is reported.
 */
export const openBankAccount = (accountId: string) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    const { customer } = found
    if (customer.coreAccountNumber !== null) {
      return yield* new BankAccountExists({ accountNumber: customer.coreAccountNumber })
    }
    if (customer.customerStatus !== "verified") {
      return yield* new CustomerNotVerified({ customerStatus: customer.customerStatus })
    }
    if (customer.kycStatus === "pending") return yield* new BvnNotVerified()
    const identity = yield* identityOf(found)
    const reference = referenceFor("A", customer.id)
    const core = yield* CoreBanking
    const opened = yield* core.openAccount({ reference, ...identity }).pipe(
      Effect.catchTag("ProviderUnknownOutcome", (unknown) =>
        core.findAccountByReference(reference).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(unknown),
            onSome: (account): Effect.Effect<ProviderAccount> => Effect.succeed(account)
          }))
        ))
    )
    const repo = yield* AccountRepo
    const at = yield* now
    yield* atomically(Effect.gen(function*() {
      if (!(yield* repo.setCoreAccount(accountId, { accountNumber: opened.accountNumber, reference }, at))) {
        // a concurrent call linked an account first: the same one (same reference) is fine
        const current = yield* requireAccount(accountId)
        if (current.customer.coreAccountNumber !== opened.accountNumber) {
          return yield* new BankAccountExists({ accountNumber: current.customer.coreAccountNumber ?? "" })
        }
      }
      yield* repo.transitionStatus(accountId, "verified", "active", at)
    }))
    yield* Effect.logInfo("bank account opened").pipe(Effect.annotateLogs({ accountId, reference }))
    return { accountNumber: opened.accountNumber }
  }).pipe(Effect.withSpan("Banking.openBankAccount", { attributes: { accountId } }))

// ---------------------------------------------------------------------------------------------
// Balance and PND
// ---------------------------------------------------------------------------------------------

/** The customer-facing PND: withdrawals are blocked until the first confirmed deposit. */
export const isPndActive = (customer: Customer): boolean => customer.firstDepositAt === null

/** The ledger balance, live (at most `BalanceCacheTtl` old). */
export const balance = (accountId: string) =>
  Effect.gen(function*() {
    const { accountNumber } = yield* requireBankAccount(accountId)
    const snapshot = yield* (yield* BalanceCache).get(accountNumber)
    return snapshot.ledgerBalanceKobo
  }).pipe(Effect.withSpan("Banking.balance", { attributes: { accountId } }))

export interface BankingSummary {
  readonly coreAccountNumber: string
  readonly pndActive: boolean
  readonly balanceKobo: Kobo
}

/** The profile's banking fields; none before the bank account exists. */
export const bankingSummary = (accountId: string) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    const accountNumber = found.customer.coreAccountNumber
    if (accountNumber === null) return Option.none<BankingSummary>()
    const snapshot = yield* (yield* BalanceCache).get(accountNumber)
    return Option.some<BankingSummary>({
      coreAccountNumber: accountNumber,
      pndActive: isPndActive(found.customer),
      balanceKobo: snapshot.ledgerBalanceKobo
    })
  }).pipe(Effect.withSpan("Banking.bankingSummary", { attributes: { accountId } }))

// ---------------------------------------------------------------------------------------------
// Deposits and transactions
// ---------------------------------------------------------------------------------------------

export interface DepositSync {
  /** the live ledger balance after the sync */
  readonly balanceKobo: Kobo
  /** deposits this sync recorded (0 when another sync had already recorded them) */
  readonly newDeposits: number
}

const syncFor = (found: AccountWithCustomer, accountNumber: string) =>
  Effect.gen(function*() {
    const history = yield* (yield* CoreBanking).history(accountNumber)
    const deposits = history.filter((t) => t.direction === "credit" && t.channel === "nip_inbound")
    const transactions = yield* TransactionRepo
    const ids = yield* Ids
    const at = yield* now
    let newDeposits = 0
    for (const deposit of deposits) {
      const recorded = yield* transactions.recordDeposit({
        id: yield* ids.next,
        customerId: found.customer.id,
        amountKobo: deposit.amountKobo,
        providerReference: deposit.reference,
        postedAt: deposit.postedAt,
        now: at
      })
      if (recorded) {
        newDeposits++
        yield* Effect.logInfo("deposit recorded").pipe(
          Effect.annotateLogs({ customerId: found.customer.id, reference: deposit.reference })
        )
      }
    }
    if (deposits.length > 0 && found.customer.firstDepositAt === null) {
      const first = deposits.reduce((a, b) => (b.postedAt.getTime() < a.postedAt.getTime() ? b : a))
      yield* (yield* AccountRepo).markFirstDeposit(found.account.id, first.postedAt, at)
    }
    const cache = yield* BalanceCache
    yield* cache.invalidate(accountNumber)
    const snapshot = yield* cache.get(accountNumber)
    return { balanceKobo: snapshot.ledgerBalanceKobo, newDeposits } satisfies DepositSync
  })

/** Records the inbound deposits the provider has posted; returns the live balance. */
export const syncDeposits = (accountId: string) =>
  Effect.flatMap(requireBankAccount(accountId), (found) => syncFor(found, found.accountNumber)).pipe(
    Effect.withSpan("Banking.syncDeposits", { attributes: { accountId } })
  )

/**
 * Reconciliation of deposits: syncs every customer that has a bank account, so a deposit whose
 * webhook was lost is still recorded (once: recording is idempotent per posting). Customers are
 * read in keyset-paged batches and synced with bounded concurrency; one customer's provider
 * failure is counted and logged, and does not stop the others.
 */
export const reconcileDeposits = (options: { readonly batchSize?: number; readonly concurrency?: number } = {}) =>
  Effect.gen(function*() {
    const batchSize = options.batchSize ?? 100
    const repo = yield* AccountRepo
    const totals = { customers: 0, newDeposits: 0, failures: 0 }
    let after: string | null = null
    for (;;) {
      const batch: ReadonlyArray<{ readonly accountId: string; readonly accountNumber: string }> = yield* repo
        .listWithBankAccount(after, batchSize)
      if (batch.length === 0) break
      const results = yield* Effect.forEach(batch, (a) => Effect.either(syncDeposits(a.accountId)), {
        concurrency: options.concurrency ?? 4
      })
      for (const result of results) {
        totals.customers++
        if (result._tag === "Right") totals.newDeposits += result.right.newDeposits
        else {
          totals.failures++
          yield* Effect.logWarning("deposit reconciliation failed for a customer").pipe(
            Effect.annotateLogs({ reason: result.left._tag })
          )
        }
      }
      after = batch[batch.length - 1]!.accountId
      if (batch.length < batchSize) break
    }
    return totals
  }).pipe(Effect.withSpan("Banking.reconcileDeposits"))

/** For the provider's webhook: the customer is known only by account number. */
export const depositsForAccountNumber = (accountNumber: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByCoreAccountNumber(accountNumber)
    if (Option.isNone(found)) return yield* new UnknownAccountNumber({ accountNumber })
    return yield* syncFor(found.value, accountNumber)
  }).pipe(Effect.withSpan("Banking.depositsForAccountNumber"))

export const TestDepositPolicy = {
  defaultKobo: 5_000_000n,
  maxKobo: 10_000_000n
} as const

/** Development only (HTTP refuses it in production): funds the account as an inbound transfer would. */
export const testDeposit = (accountId: string, amountKobo: Kobo = TestDepositPolicy.defaultKobo) =>
  Effect.gen(function*() {
    if (amountKobo <= 0n || amountKobo > TestDepositPolicy.maxKobo) {
      return yield* new InvalidAmount({ reason: `amountKobo must be between 1 and ${TestDepositPolicy.maxKobo}` })
    }
    const found = yield* requireBankAccount(accountId)
    yield* (yield* TestFunding).deposit({ accountNumber: found.accountNumber, amountKobo })
    return yield* syncFor(found, found.accountNumber)
  }).pipe(Effect.withSpan("Banking.testDeposit", { attributes: { accountId } }))

/** The provider's own postings of the account, as it reports them. */
export const providerTransactions = (accountId: string) =>
  Effect.gen(function*() {
    const { accountNumber } = yield* requireBankAccount(accountId)
    return yield* (yield* CoreBanking).history(accountNumber)
  }).pipe(Effect.withSpan("Banking.providerTransactions", { attributes: { accountId } }))

/** The customer's Transaction rows, newest first. */
export const transactions = (accountId: string, page: PageRequest) =>
  Effect.gen(function*() {
    const { customer } = yield* requireBankAccount(accountId)
    return yield* (yield* TransactionRepo).listForCustomer(customer.id, page)
  }).pipe(Effect.withSpan("Banking.transactions", { attributes: { accountId } }))

/** One Transaction row of this customer; TransactionNotFound for someone else's. */
export const transaction = (accountId: string, transactionId: string) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const found = yield* (yield* TransactionRepo).findById(transactionId)
    if (Option.isNone(found) || found.value.customerId !== customer.id) return yield* new TransactionNotFound()
    return found.value
  }).pipe(Effect.withSpan("Banking.transaction", { attributes: { accountId } }))

// ---------------------------------------------------------------------------------------------
// Banks
// ---------------------------------------------------------------------------------------------

/** The NIP bank list (cached 24 hours). */
export const banks = Effect.flatMap(BankListCache, (cache) => cache.get).pipe(Effect.withSpan("Banking.banks"))
