/**
 * Customers in the back office: search and sort (customers:read), one customer's file with KYC,
 * plan, recent transactions, notices, tickets and audit trail; never a hash or a secret.
 *
 * The balance shown and sorted by is the last one the provider told us (`lastKnownBalanceKobo`,
 * with `balanceSeenAt`): it is refreshed on every read of the customer's account at the provider
 * (the profile, the balance, a deposit sync, a payout), and when staff open the customer's file.
 */
import { Context, Effect, Option, Schema } from "effect"
import { BalanceCache } from "../banking/Caches.js"
import type { CoreBankingError } from "../banking/CoreBanking.js"
import { AccountRepo } from "../account/Ports.js"
import { NoticeRepo } from "../notifications/Ports.js"
import { PlanRepo } from "../plans/Ports.js"
import { SupportRepo } from "../support/Ports.js"
import { TransactionRepo } from "../transactions/Ports.js"
import type { Page, PageRequest } from "../shared/Paging.js"
import * as Audit from "./Audit.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { Failure } from "../shared/Failure.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

export const CustomerSort = Schema.Literal("newest", "oldest", "balance_desc", "balance_asc")
export type CustomerSort = typeof CustomerSort.Type

export interface CustomerFilter {
  /** matches name, email, phone, account number, referral code or id */
  readonly q?: string
  readonly status?: string
  readonly kyc?: string
  readonly officerId?: string
  readonly sort: CustomerSort
}

/** One row of the directory: who, where they stand, and no secret. */
export interface CustomerSummary {
  readonly customerId: CustomerId
  readonly accountId: AccountId
  readonly firstName: string | null
  readonly lastName: string | null
  readonly email: string
  readonly phone: string | null
  readonly coreAccountNumber: string | null
  readonly customerStatus: string
  readonly kycStatus: string
  readonly referralCode: string
  readonly officerId: string | null
  readonly lastKnownBalanceKobo: bigint | null
  readonly balanceSeenAt: Date | null
  readonly createdAt: Date
}

export class CustomerDirectory extends Context.Tag("domain/CustomerDirectory")<CustomerDirectory, {
  readonly search: (filter: CustomerFilter, page: PageRequest) => Effect.Effect<Page<CustomerSummary>>
  readonly find: (customerId: CustomerId) => Effect.Effect<Option.Option<CustomerSummary>>
}>() {}

/** How many of each list a customer's file shows (newest first). */
const FILE_LIMIT = 20

/** No customer has this id (404). */
export class AdminCustomerNotFound extends Failure("AdminCustomerNotFound", {
  status: 404,
  code: "CUSTOMER_NOT_FOUND",
  message: "Customer not found",
  meaning: "No customer has this id"
}) {}

/** GET /admin/customers. */
export const search = (actor: StaffMember, filter: CustomerFilter, page: PageRequest) =>
  Effect.zipRight(requirePermission(actor, "customers:read"), Effect.flatMap(CustomerDirectory, (d) => d.search(filter, page)))

/** The provider's balance now (refreshing the last-known one); none without a bank account or an answer. */
const freshBalance = (accountNumber: string | null) =>
  accountNumber === null
    ? Effect.succeed(Option.none<bigint>())
    : Effect.flatMap(BalanceCache, (cache) => cache.get(accountNumber)).pipe(
      Effect.map((s) => Option.some(s.ledgerBalanceKobo)),
      Effect.catchAll((_: CoreBankingError) => Effect.succeed(Option.none<bigint>()))
    )

/** GET /admin/customers/{id}: the summary (balance refreshed when the bank answers), the file, the audit trail. */
export const detail = (actor: StaffMember, customerId: CustomerId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "customers:read")
    const directory = yield* CustomerDirectory
    const found = yield* directory.find(customerId)
    if (Option.isNone(found)) return yield* new AdminCustomerNotFound()
    const live = yield* freshBalance(found.value.coreAccountNumber)
    const summary = Option.isSome(live) ? Option.getOrThrow(yield* directory.find(customerId)) : found.value
    const account = yield* (yield* AccountRepo).findByCustomerId(customerId)
    const recent = { page: 1, pageSize: FILE_LIMIT }
    return {
      summary,
      liveBalanceKobo: Option.getOrNull(live),
      kyc: Option.match(account, {
        onNone: () => null,
        onSome: ({ account: a, customer: c }) => ({
          bvnVerified: c.bvnHash !== null,
          dateOfBirth: a.dateOfBirth,
          gender: a.gender,
          address: a.address
        })
      }),
      plan: Option.getOrNull(yield* (yield* PlanRepo).findForCustomer(customerId)),
      recentTransactions: (yield* (yield* TransactionRepo).listForCustomer(customerId, recent)).items,
      notices: (yield* (yield* NoticeRepo).listForCustomer(customerId)).slice(0, FILE_LIMIT),
      tickets: (yield* (yield* SupportRepo).list({ customerId }, recent)).items,
      audit: (yield* (yield* Audit.AuditRepo).list({ targetKind: "customer", targetId: customerId }, { page: 1, pageSize: 50 })).items
    }
  })
