/**
 * Money movements in the audit log: every state change of a movement (created, its status or a
 * saga step changed) is captured where it is written, in the same database transaction (the
 * `movement_changes` feed, filled by a trigger so no code path can skip it), and folded into the
 * hash chain by the `audit-movements` job: one row per change, in the order they were made, with
 * actor `system/movements`, action `movement.created` or `movement.changed`, the transaction as
 * target and the states before and after (kinds, states and amounts only; no account numbers or
 * names). The fold and the deletion of what it folded commit together, so a change is chained
 * exactly once, within seconds.
 */
import { Context, Effect } from "effect"
import { atomically } from "../shared/UseCase.js"
import * as Audit from "./Audit.js"
import { withSpan } from "../shared/Spans.js"
import { CustomerId, TransactionId } from "../shared/Ids.js"

export interface MovementChange {
  readonly id: string
  readonly transactionId: TransactionId
  readonly customerId: CustomerId
  readonly before: Audit.Json | null
  readonly after: Audit.Json
  readonly changedAt: Date
}

export class MovementChangeFeed extends Context.Tag("domain/MovementChangeFeed")<MovementChangeFeed, {
  /** The oldest changes not yet folded, at most `limit`, locked until the caller's transaction ends (SKIP LOCKED). */
  readonly take: (limit: number) => Effect.Effect<ReadonlyArray<MovementChange>>
  readonly remove: (ids: ReadonlyArray<string>) => Effect.Effect<void>
}>() {}

const BATCH = 200
const MAX_BATCHES = 25

const foldBatch = atomically(Effect.gen(function*() {
  const feed = yield* MovementChangeFeed
  const changes = yield* feed.take(BATCH)
  for (const c of changes) {
    yield* Audit.record({
      actorKind: "system",
      actorId: "movements",
      action: c.before === null ? "movement.created" : "movement.changed",
      targetKind: "transaction",
      targetId: c.transactionId,
      before: c.before,
      after: { ...(c.after as { readonly [k: string]: Audit.Json }), customerId: c.customerId, changedAt: c.changedAt }
    })
  }
  if (changes.length > 0) yield* feed.remove(changes.map((c) => c.id))
  return changes.length
}))

/** The `audit-movements` job: folds pending movement changes into the chain; returns how many. */
export const foldMovementChanges = Effect.gen(function*() {
  let total = 0
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = yield* foldBatch
    total += n
    if (n < BATCH) break
  }
  return total
}).pipe(withSpan("MovementAudit.foldMovementChanges"))
