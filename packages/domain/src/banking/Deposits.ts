/**
 * Deposits: every inbound credit of the provider history becomes exactly one deposit row.
 */
import { Effect, Option } from "effect"
import type { AccountWithCustomer, Customer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { type AlertKind, raiseAlert } from "../admin/Alerts.js"
import { formatNaira, type Kobo } from "../shared/Money.js"
import { Ids } from "../shared/Ports.js"
import { referralSucceeded } from "../referrals/Referrals.js"
import { now } from "../shared/UseCase.js"
import { TransactionRepo } from "../transactions/Ports.js"
import { coreAccountDigest, requireBankAccount } from "./BankAccount.js"
import { BalanceCache } from "./Caches.js"
import { CoreBanking, TestFunding } from "./CoreBanking.js"
import { InvalidAmount, UnknownAccountNumber } from "./Errors.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

export interface DepositSync {
  /** the live ledger balance after the sync */
  readonly balanceKobo: Kobo
  /** deposits this sync recorded (0 when another sync had already recorded them) */
  readonly newDeposits: number
}

/**
 * A deposit that reached an account which cannot simply keep it: which alert staff get, whose the
 * account is, and what to do with the money (it is recorded on the customer's ledger either way);
 * null for an account that keeps it.
 */
const strandedDeposit = (customer: Customer): { readonly kind: AlertKind; readonly account: string; readonly todo: string } | null => {
  switch (customer.customerStatus) {
    // a closed (frozen) account, or one whose sweep has already left: staff refund it
    case "closed":
    case "closing":
      return {
        kind: "closed_account_deposit",
        account: `of customer ${customer.id}, whose account is ${customer.customerStatus}`,
        todo: "It is recorded on their ledger; refund it to the sender or the customer by hand."
      }
    // money for nobody: the customer is gone (their account frozen at the bank since the closure,
    // its number erased here); only staff can send it back
    case "deleted":
      return {
        kind: "frozen_account_credit",
        account: `that belonged to customer ${customer.id}, who is deleted (the account is frozen at the bank)`,
        todo: "It is recorded on the deleted customer's ledger and no one can withdraw it: refund it to the sender by hand."
      }
    // frozen by staff or the PIN lock: the money is theirs, but stuck until the unfreeze
    case "suspended":
      return {
        kind: "frozen_account_credit",
        account: `of customer ${customer.id}, who is suspended (frozen at the bank)`,
        todo: "It is recorded on their ledger; check it with the freeze's reason (refund it, or leave it for the unfreeze)."
      }
    default:
      return null
  }
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
        const stranded = strandedDeposit(found.customer)
        if (stranded !== null) {
          yield* raiseAlert({
            kind: stranded.kind,
            dedupKey: `${stranded.kind}:${deposit.reference}`,
            message: `A deposit of ${formatNaira(deposit.amountKobo)} (reference ${deposit.reference}) reached the core account ` +
              `${stranded.account}. ${stranded.todo}`,
            customerId: found.customer.id
          })
        }
      }
    }
    if (deposits.length > 0 && found.customer.firstDepositAt === null && found.customer.customerStatus !== "deleted") {
      const first = deposits.reduce((a, b) => (b.postedAt.getTime() < a.postedAt.getTime() ? b : a))
      if (yield* (yield* AccountRepo).markFirstDeposit(found.account.id, first.postedAt, at)) {
        yield* referralSucceeded(found.customer)
      }
    }
    const cache = yield* BalanceCache
    yield* cache.invalidate(accountNumber)
    const snapshot = yield* cache.get(accountNumber)
    return { balanceKobo: snapshot.ledgerBalanceKobo, newDeposits } satisfies DepositSync
  })

/** Records the inbound deposits the provider has posted; returns the live balance. */
export const syncDeposits = (accountId: AccountId) =>
  Effect.flatMap(requireBankAccount(accountId), (found) => syncFor(found, found.accountNumber)).pipe(
    withSpan("Banking.syncDeposits", { attributes: { accountId } })
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
    let after: AccountId | null = null
    for (;;) {
      const batch: ReadonlyArray<{ readonly accountId: AccountId; readonly accountNumber: string }> = yield* repo
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
  }).pipe(withSpan("Banking.reconcileDeposits"))

/**
 * For the provider's webhook: the customer is known only by account number, or, once deleted (the
 * number erased), by its keyed digest: money reaching a deleted customer's frozen account is
 * recorded on their ledger and raises a critical `frozen_account_credit` alert.
 */
export const depositsForAccountNumber = (accountNumber: string) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    const live = yield* repo.findByCoreAccountNumber(accountNumber)
    const found = Option.isSome(live) ? live : yield* repo.findDeletedByCoreAccountDigest(yield* coreAccountDigest(accountNumber))
    if (Option.isNone(found)) return yield* new UnknownAccountNumber({ accountNumber })
    return yield* syncFor(found.value, accountNumber)
  }).pipe(withSpan("Banking.depositsForAccountNumber"))

export const TestDepositPolicy = {
  defaultKobo: 5_000_000n,
  maxKobo: 10_000_000n
} as const

/** Development only (HTTP refuses it in production): funds the account as an inbound transfer would. */
export const testDeposit = (accountId: AccountId, amountKobo: Kobo = TestDepositPolicy.defaultKobo) =>
  Effect.gen(function*() {
    if (amountKobo <= 0n || amountKobo > TestDepositPolicy.maxKobo) {
      return yield* new InvalidAmount({ reason: `amountKobo must be between 1 and ${TestDepositPolicy.maxKobo}` })
    }
    const found = yield* requireBankAccount(accountId)
    yield* (yield* TestFunding).deposit({ accountNumber: found.accountNumber, amountKobo })
    return yield* syncFor(found, found.accountNumber)
  }).pipe(withSpan("Banking.testDeposit", { attributes: { accountId } }))
