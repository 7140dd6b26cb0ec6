/**
 * "Needs attention" (GET /admin/attention): what is waiting on staff, in one answer: open alerts,
 * four-eyes requests waiting for a second member, movements stuck or awaiting an operator, and
 * tickets waiting on staff. Each kind comes with how many there are and the first few; a kind the
 * member's role may neither act on nor view is absent (null), never an empty list that would read
 * as "nothing to do":
 *
 * - alerts: alerts:read;
 * - approvals: pending requests of the kinds the role may decide (Approvals.decidableKinds);
 * - movements: transactions:read. A transfer parked after the bank refused its reversal (the
 *   "resolve movement" state), or any movement still pending longer than reconciliation's whole
 *   requery window (Saga.requeryWindowMs, when reconciliation escalates it with an alert too);
 * - tickets: support:read; status open (a customer wrote and no member answered since; a ticket
 *   awaiting the customer waits on them, not on staff), newest activity first as in the queue.
 */
import { Effect } from "effect"
import type { Page } from "../shared/Paging.js"
import { now } from "../shared/UseCase.js"
import type { Ticket } from "../support/Model.js"
import { SupportRepo } from "../support/Ports.js"
import { requeryWindowMs } from "../transfers/Saga.js"
import { AlertRepo, type StaffAlert } from "./Alerts.js"
import { type Approval, ApprovalRepo, decidableKinds } from "./Approvals.js"
import { type AttentionMovements, LedgerSearch } from "./Ledger.js"
import { can } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"

/** How many rows of each kind the answer carries. */
export const ATTENTION_ROWS = 5

export interface Counted<A> {
  readonly count: number
  readonly items: ReadonlyArray<A>
}

export interface Attention {
  readonly alerts: Counted<StaffAlert> | null
  readonly approvals: Counted<Approval> | null
  readonly movements: AttentionMovements | null
  readonly tickets: Counted<Ticket> | null
}

const counted = <A>(p: Page<A>): Counted<A> => ({ count: p.total, items: p.items })

const when = <A, R>(allowed: boolean, self: Effect.Effect<A, never, R>): Effect.Effect<A | null, never, R> =>
  allowed ? self : Effect.succeed(null)

/** GET /admin/attention: every kind the member may see, each with its count and first rows. */
export const attention = (actor: StaffMember) =>
  Effect.gen(function*() {
    const at = yield* now
    const kinds = decidableKinds(actor.role)
    const first = { page: 1, pageSize: ATTENTION_ROWS }
    return yield* Effect.all({
      alerts: when(
        can(actor.role, "alerts:read"),
        Effect.map(Effect.flatMap(AlertRepo, (r) => r.listOpen()), (all) => ({ count: all.length, items: all.slice(0, ATTENTION_ROWS) }))
      ),
      approvals: when(kinds.length > 0, Effect.map(Effect.flatMap(ApprovalRepo, (r) => r.list({ kinds, status: "pending" }, first)), counted)),
      movements: when(
        can(actor.role, "transactions:read"),
        Effect.flatMap(LedgerSearch, (l) => l.needingOperator(new Date(at.getTime() - requeryWindowMs), ATTENTION_ROWS))
      ),
      tickets: when(
        can(actor.role, "support:read"),
        Effect.map(Effect.flatMap(SupportRepo, (r) => r.list({ status: "open" }, first)), counted)
      )
    }) satisfies Effect.Effect<Attention, never, unknown>
  })
