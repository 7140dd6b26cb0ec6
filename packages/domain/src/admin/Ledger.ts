/**
 * The ledger across customers, for staff: search transactions, list disbursements and the failed
 * ones, and requery a movement at the provider (read-only: the provider's answer beside ours,
 * nothing is changed; the saga's own reconciliation acts on answers).
 */
import { Context, Effect, Option, Schema } from "effect"
import { CoreBanking, type RequeryStatus } from "../banking/CoreBanking.js"
import type { Kobo } from "../shared/Money.js"
import type { Page, PageRequest } from "../shared/Paging.js"
import { Transaction, type TransactionPurpose, type TransactionStatus } from "../transactions/Model.js"
import { TransactionRepo } from "../transactions/Ports.js"
import { PlanRepo } from "../plans/Ports.js"
import { now } from "../shared/UseCase.js"
import * as Audit from "./Audit.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { Failure } from "../shared/Failure.js"
import { TransactionNotFoundKind } from "../transactions/Errors.js"
import { CustomerId, TransactionId } from "../shared/Ids.js"

export interface LedgerFilter {
  readonly id?: string
  /** matches our retrieval or transfer reference, or the provider's */
  readonly reference?: string
  readonly customerId?: CustomerId
  readonly status?: TransactionStatus
  readonly purpose?: TransactionPurpose
  readonly from?: Date
  /** exclusive */
  readonly until?: Date
  readonly minAmountKobo?: Kobo
  readonly maxAmountKobo?: Kobo
}

/**
 * A transaction as staff list it: the movement, its customer's name (read in the same query; their
 * email while they have no name, none when the customer row is gone) and whether it is parked for an operator (the saga's
 * AwaitOperator: the bank refused its transfer and then the reversal of its debit, and the account
 * was put back), which is what "resolve movement" acts on.
 */
export class LedgerEntry extends Transaction.extend<LedgerEntry>("LedgerEntry")({
  customerName: Schema.NullOr(Schema.String),
  awaitsOperator: Schema.Boolean
}) {}

/** Movements that need an operator: the parked ones first, then those pending past `stuckBefore`. */
export interface AttentionMovements {
  readonly total: number
  readonly items: ReadonlyArray<LedgerEntry>
}

export class LedgerSearch extends Context.Tag("domain/LedgerSearch")<LedgerSearch, {
  /** Newest first (createdAt, then id, descending). */
  readonly search: (filter: LedgerFilter, page: PageRequest) => Effect.Effect<Page<LedgerEntry>>
  /**
   * Transfers awaiting an operator, and movements still pending that were created before
   * `stuckBefore`: how many, and the first `limit` (awaiting an operator first, then oldest first).
   */
  readonly needingOperator: (stuckBefore: Date, limit: number) => Effect.Effect<AttentionMovements>
}>() {}

/** No transaction has this id (404). */
export class AdminTransactionNotFound extends Failure("AdminTransactionNotFound", TransactionNotFoundKind) {}

/** GET /admin/transactions. */
export const search = (actor: StaffMember, filter: LedgerFilter, page: PageRequest) =>
  Effect.zipRight(requirePermission(actor, "transactions:read"), Effect.flatMap(LedgerSearch, (l) => l.search(filter, page)))

/** GET /admin/disbursements: every payout (purpose disbursement), newest first; optionally by status. */
export const disbursements = (actor: StaffMember, status: TransactionStatus | undefined, page: PageRequest) =>
  Effect.zipRight(
    requirePermission(actor, "disbursements:read"),
    Effect.flatMap(LedgerSearch, (l) => l.search({ purpose: "disbursement", ...(status === undefined ? {} : { status }) }, page))
  )

/** GET /admin/jobs/failed: the payouts that failed (after their retries), newest first. */
export const failedJobs = (actor: StaffMember, page: PageRequest) =>
  Effect.zipRight(
    requirePermission(actor, "jobs:read"),
    Effect.flatMap(LedgerSearch, (l) => l.search({ purpose: "disbursement", status: "failed" }, page))
  )

/** What the provider says of one of our references; `unreachable` when it gave no answer. */
export type ProviderAnswer = RequeryStatus | "unreachable" | "refused"

export interface RequeryResult {
  readonly transaction: Transaction
  readonly provider: {
    readonly debit: { readonly reference: string; readonly status: ProviderAnswer } | null
    readonly transfer: { readonly reference: string; readonly status: ProviderAnswer } | null
  }
}

const ask = (reference: string | null) =>
  reference === null
    ? Effect.succeed(null)
    : Effect.flatMap(CoreBanking, (core) => core.requery(reference)).pipe(
      Effect.map((status): ProviderAnswer => status),
      Effect.catchTags({
        ProviderRefused: () => Effect.succeed<ProviderAnswer>("refused"),
        ProviderUnknownOutcome: () => Effect.succeed<ProviderAnswer>("unreachable"),
        ProviderMisconfigured: () => Effect.succeed<ProviderAnswer>("unreachable")
      }),
      Effect.map((status) => ({ reference, status }))
    )

/** POST /admin/transactions/{id}/requery: read-only; audited. */
export const requery = (actor: StaffMember, transactionId: TransactionId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "transactions:requery")
    const found = yield* (yield* TransactionRepo).findById(transactionId)
    if (Option.isNone(found)) return yield* new AdminTransactionNotFound()
    const t = found.value
    const [debit, transfer] = yield* Effect.all([ask(t.retrievalReference), ask(t.transferReference)], { concurrency: 2 })
    yield* Audit.record({
      actorKind: "staff",
      actorId: actor.id,
      action: "transaction.requery",
      targetKind: "transaction",
      targetId: t.id,
      after: { ours: t.status, debit: debit?.status ?? null, transfer: transfer?.status ?? null }
    })
    return { transaction: t, provider: { debit, transfer } } satisfies RequeryResult
  })

/** Where the due-payout job stands (disbursements:read): active and due plans, claims, the next due time, payouts at the bank. */
export const payoutBoard = (actor: StaffMember) =>
  Effect.zipRight(
    requirePermission(actor, "disbursements:read"),
    Effect.flatMap(now, (at) => Effect.flatMap(PlanRepo, (plans) => plans.payoutBoard(at)))
  )
