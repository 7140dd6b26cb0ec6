/**
 * Idempotent replays of Borrow and Extra Cash requests.
 */
import { Effect, Option } from "effect"
import { SecretHasher } from "../shared/Ports.js"
import { IdempotencyConflict, TransferFailed } from "../transfers/Errors.js"
import type { Transfer } from "../transfers/Model.js"
import { TransferRepo } from "../transfers/Ports.js"
import { requireCustomer } from "./Queries.js"
import { AccountId, CustomerId } from "../shared/Ids.js"

/** A movement stored under this key earlier: the same request gets its outcome, another is a conflict. */
export const replay = (customerId: CustomerId, idempotencyKey: string, requestHash: string) =>
  Effect.flatMap(TransferRepo, (repo) => repo.findByIdempotencyKey(customerId, idempotencyKey)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed(Option.none<Transfer>()),
      onSome: (t): Effect.Effect<Option.Option<Transfer>, TransferFailed | IdempotencyConflict> =>
        t.requestHash === requestHash ? Effect.map(outcome(t), Option.some) : Effect.fail(new IdempotencyConflict())
    }))
  )

export const outcome = (t: Transfer) =>
  t.status === "failed"
    ? Effect.fail(new TransferFailed({ transactionId: t.id, reason: t.failureReason ?? "The transfer failed" }))
    : Effect.succeed(t)

/**
 * A refusal that an identical request racing this one may have caused (its movement now holds the
 * in-flight slot, the cycle or a cap): if a movement is stored under this request's key, that is
 * the answer, as for a plain retry; otherwise the refusal stands.
 */
export const replayOr = <E>(accountId: AccountId, idempotencyKey: string, request: string, refusal: E) =>
  Effect.gen(function*() {
    const hash = yield* (yield* SecretHasher).digest("plan-request", request)
    const customer = yield* requireCustomer(accountId)
    const stored = yield* replay(customer.id, idempotencyKey, hash)
    return Option.isSome(stored) ? stored.value : yield* Effect.fail(refusal)
  })

/** The outcome of a movement stored under the request's key, or a conflict if another request stored it. */
export const sameRequest = (t: Transfer, requestHash: string) =>
  t.requestHash === requestHash ? outcome(t) : Effect.fail(new IdempotencyConflict())
