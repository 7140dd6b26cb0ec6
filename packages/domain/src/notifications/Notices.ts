/**
 * Notices: what the service tells a customer about their money (a payout that failed, a plan that
 * ran dry, a plan that completed). Each is stored (NoticeRepo), so the customer and admins can see
 * it later, and emailed through the Notifier whatever the marketing preferences say: it is a
 * statement about their money. Neither a storage nor a delivery problem ever fails the caller.
 */
import { Effect, Option } from "effect"
import { AccountRepo } from "../account/Ports.js"
import { Ids } from "../shared/Ports.js"
import { now } from "../shared/UseCase.js"
import { Notice } from "./Model.js"
import { NoticeRepo, Notifier } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { CustomerId, PlanId, TransactionId } from "../shared/Ids.js"

export type NoticeKind =
  | "plan_depleted"
  | "disbursement_failed"
  | "transfer_failed"
  | "plan_completed"
  | "plan_paused"
  | "account_closed"
  | "account_closure_failed"

export interface RaiseNotice {
  readonly customerId: CustomerId
  readonly kind: NoticeKind
  readonly subject: string
  readonly message: string
  readonly planId?: PlanId | null
  readonly transactionId?: TransactionId | null
}

export const raise = (input: RaiseNotice) =>
  Effect.gen(function*() {
    const at = yield* now
    yield* (yield* NoticeRepo).record(
      new Notice({
        id: yield* (yield* Ids).next,
        customerId: input.customerId,
        planId: input.planId ?? null,
        transactionId: input.transactionId ?? null,
        kind: input.kind,
        message: input.message,
        createdAt: at
      })
    )
    const found = yield* (yield* AccountRepo).findByCustomerId(input.customerId)
    if (Option.isNone(found) || found.value.account.email === "") return
    yield* (yield* Notifier).send({
      channel: "email",
      to: found.value.account.email,
      subject: input.subject,
      text: input.message,
      kind: input.kind
    })
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning("notice not raised").pipe(Effect.annotateLogs({ kind: input.kind, cause: String(cause) }))
    ),
    withSpan("Notices.raise", { attributes: { kind: input.kind } })
  )

/** The customer's notices, newest first. */
export const list = (customerId: CustomerId) => Effect.flatMap(NoticeRepo, (repo) => repo.listForCustomer(customerId))
