/**
 * The spending log: log, list, change and remove the customer's own spendings. Another customer's
 * spending is SpendingNotFound, exactly as an unknown id (no 403 that would confirm it exists).
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import type { PageRequest } from "../shared/Paging.js"
import { now } from "../shared/UseCase.js"
import { InvalidSpending, NoSpendingChange, SpendingNotFound } from "./Errors.js"
import { Spending } from "./Model.js"
import { type SpendingChanges, SpendingRepo } from "./Ports.js"
import { checkAmount, checkCategory, checkDate, checkDescription, type Problems, todayIn } from "./Rules.js"
import { checkWindow } from "./Window.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, newId, SpendingId } from "../shared/Ids.js"

export interface NewSpendingInput {
  readonly amountKobo: bigint
  readonly category: string
  readonly date: string
  readonly description?: string | null | undefined
}

export interface SpendingPatch {
  readonly amountKobo?: bigint | undefined
  readonly category?: string | undefined
  /** null or "" clears it */
  readonly description?: string | null | undefined
  readonly date?: string | undefined
}

export interface ListQuery {
  readonly category?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

const failOn = (problems: Problems) => Object.keys(problems).length > 0 ? Effect.fail(new InvalidSpending({ fieldErrors: problems })) : Effect.void

/** POST /spendings: a new spending, every rule checked at once (Rules.ts). */
export const logSpending = (accountId: AccountId, input: NewSpendingInput) =>
  Effect.gen(function*() {
    const at = yield* now
    const problems: Problems = {}
    checkAmount(problems, input.amountKobo)
    const category = checkCategory(problems, input.category)
    const description = checkDescription(problems, input.description)
    checkDate(problems, input.date, todayIn(at))
    yield* failOn(problems)
    const { customer } = yield* requireAccount(accountId)
    return yield* (yield* SpendingRepo).add(
      new Spending({
        id: yield* newId(SpendingId),
        customerId: customer.id,
        amountKobo: input.amountKobo,
        category,
        description,
        date: input.date,
        createdAt: at,
        updatedAt: at
      })
    )
  }).pipe(withSpan("Spendings.log", { attributes: { accountId } }))

/** GET /spendings: newest date first, filtered by category (normalised) and dates (inclusive). */
export const listSpendings = (accountId: AccountId, query: ListQuery, page: PageRequest) =>
  Effect.gen(function*() {
    const problems: Problems = {}
    const category = query.category === undefined ? undefined : checkCategory(problems, query.category)
    yield* failOn(problems)
    if (query.from !== undefined || query.to !== undefined) {
      yield* checkWindow({ from: query.from, to: query.to }, { maxDays: undefined })
    }
    const { customer } = yield* requireAccount(accountId)
    return yield* (yield* SpendingRepo).list(customer.id, { category, from: query.from, to: query.to }, page)
  }).pipe(withSpan("Spendings.list", { attributes: { accountId } }))

/** PATCH /spendings/{id}: any of the fields, under the same rules; at least one. */
export const updateSpending = (accountId: AccountId, spendingId: SpendingId, patch: SpendingPatch) =>
  Effect.gen(function*() {
    if (patch.amountKobo === undefined && patch.category === undefined && patch.description === undefined && patch.date === undefined) {
      return yield* new NoSpendingChange()
    }
    const at = yield* now
    const problems: Problems = {}
    const changes: { -readonly [K in keyof SpendingChanges]: SpendingChanges[K] } = {}
    if (patch.amountKobo !== undefined) {
      checkAmount(problems, patch.amountKobo)
      changes.amountKobo = patch.amountKobo
    }
    if (patch.category !== undefined) changes.category = checkCategory(problems, patch.category)
    if (patch.description !== undefined) changes.description = checkDescription(problems, patch.description)
    if (patch.date !== undefined) {
      checkDate(problems, patch.date, todayIn(at))
      changes.date = patch.date
    }
    yield* failOn(problems)
    const { customer } = yield* requireAccount(accountId)
    const updated = yield* (yield* SpendingRepo).update(customer.id, spendingId, changes, at)
    if (Option.isNone(updated)) return yield* new SpendingNotFound()
    return updated.value
  }).pipe(withSpan("Spendings.update", { attributes: { accountId } }))

/** DELETE /spendings/{id}: the removed spending. */
export const removeSpending = (accountId: AccountId, spendingId: SpendingId) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const removed = yield* (yield* SpendingRepo).remove(customer.id, spendingId)
    if (Option.isNone(removed)) return yield* new SpendingNotFound()
    return removed.value
  }).pipe(withSpan("Spendings.remove", { attributes: { accountId } }))
