/**
 * An in-memory PlanRepo with the documented semantics of the ports: one open plan per
 * customer, optimistic versions, leases for claims, one instalment per (plan, cycle). `lock` does
 * not block (one fiber at a time touches a plan in these tests); the SQL adapter's row lock is
 * tested against both databases.
 */
import {Context, Effect, Exit, Layer, Option, Ref} from "effect"
import { type Instalment, Instalment as InstalmentClass, type Plan, Plan as PlanClass } from "../../src/plans/Model.js"
import { PlanConflict } from "../../src/plans/Errors.js"
import { PlanRepo } from "../../src/plans/Ports.js"
import { UnitOfWork } from "../../src/shared/Ports.js"
import {TransferStore} from "./InMemoryTransfers.js"
import { PlanId } from "../../src/shared/Ids.js"

interface PlanState {
  readonly plans: ReadonlyMap<string, Plan>
  readonly instalments: ReadonlyMap<string, Instalment>
}

export class PlanStore extends Context.Tag("test/PlanStore")<PlanStore, Ref.Ref<PlanState>>() {
  static readonly instalments = (planId: PlanId) =>
    Effect.flatMap(PlanStore, (ref) =>
      Effect.map(Ref.get(ref), (s) => [...s.instalments.values()].filter((i) => i.planId === planId).sort((a, b) => a.cycle - b.cycle)))
}

const key = (planId: PlanId, cycle: number) => `${planId}#${cycle}`
const free = (p: Plan, now: Date) => p.leaseUntil === null || p.leaseUntil.getTime() < now.getTime()

/** `plan` written over `stored` as PlanRepo.save writes it: its lease and creation kept, the version bumped. */
const savedOver = (stored: Plan, plan: Plan) =>
  new PlanClass({ ...plan, leaseUntil: stored.leaseUntil, createdAt: stored.createdAt, version: stored.version + 1 })

export const InMemoryPlanRepoLive = Layer.effect(
  PlanRepo,
  Effect.gen(function*() {
    const ref = yield* PlanStore
    const transfers = yield* TransferStore
    const get = (id: string) => Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.plans.get(id)))
    const put = (plan: Plan) => Ref.update(ref, (s) => ({ ...s, plans: new Map(s.plans).set(plan.id, plan) }))
    const claim = (now: Date, leaseUntil: Date, limit: number, wanted: (p: Plan, s: PlanState, t: ReadonlyMap<string, any>) => boolean, order: (a: Plan, b: Plan) => number) =>
      Effect.flatMap(Ref.get(transfers), (ts) =>
        Ref.modify(ref, (s): [ReadonlyArray<Plan>, PlanState] => {
          const picked = [...s.plans.values()].filter((p) => free(p, now) && wanted(p, s, ts)).sort(order).slice(0, limit)
            .map((p) => new PlanClass({ ...p, leaseUntil }))
          const plans = new Map(s.plans)
          for (const p of picked) plans.set(p.id, p)
          return [picked, { ...s, plans }]
        }))
    return PlanRepo.of({
      findForCustomer: (customerId) =>
        Effect.map(Ref.get(ref), (s) => {
          const mine = [...s.plans.values()].filter((p) => p.customerId === customerId)
          return Option.fromNullable(
            mine.find((p) => p.state !== "completed") ??
              mine.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]
          )
        }),
      findById: get,
      insert: (plan) =>
        Ref.modify(ref, (s): [Effect.Effect<Plan, PlanConflict>, PlanState] =>
          [...s.plans.values()].some((p) => p.customerId === plan.customerId && p.state !== "completed")
            ? [Effect.fail(new PlanConflict()), s]
            : [Effect.succeed(plan), { ...s, plans: new Map(s.plans).set(plan.id, plan) }]).pipe(Effect.flatten),
      save: (plan) =>
        Ref.modify(ref, (s): [Effect.Effect<Plan, PlanConflict>, PlanState] => {
          const stored = s.plans.get(plan.id)
          if (stored === undefined || stored.version !== plan.version) return [Effect.fail(new PlanConflict()), s]
          const saved = savedOver(stored, plan)
          return [Effect.succeed(saved), { ...s, plans: new Map(s.plans).set(plan.id, saved) }]
        }).pipe(Effect.flatten),
      lock: get,
      claimDue: (now, leaseUntil, limit) =>
        claim(now, leaseUntil, limit, (p, s, ts) => {
          if (p.state !== "active") return false
          if (p.nextDueAt !== null && p.nextDueAt.getTime() <= now.getTime()) return true
          return [...s.instalments.values()].some((i) =>
            i.planId === p.id && i.status === "open" && i.transactionId !== null && ts.get(i.transactionId)?.status !== "pending")
        }, (a, b) => (a.nextDueAt?.getTime() ?? Infinity) - (b.nextDueAt?.getTime() ?? Infinity) || (a.id < b.id ? -1 : 1)),
      claimInactive: (now, leaseUntil, limit) =>
        claim(now, leaseUntil, limit, (p) => p.state === "awaiting_funds" || p.state === "depleted",
          (a, b) =>
            (a.leaseUntil?.getTime() ?? -Infinity) - (b.leaseUntil?.getTime() ?? -Infinity) ||
            a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : 1)),
      payoutBoard: (now) =>
        Effect.map(Ref.get(ref), (s) => {
          const active = [...s.plans.values()].filter((p) => p.state === "active")
          const later = active.map((p) => p.nextDueAt).filter((d): d is Date => d !== null && d.getTime() > now.getTime())
          return {
            activePlans: active.length,
            dueNow: active.filter((p) => p.nextDueAt !== null && p.nextDueAt.getTime() <= now.getTime()).length,
            claimed: [...s.plans.values()].filter((p) => p.leaseUntil !== null && p.leaseUntil.getTime() > now.getTime()).length,
            nextDueAt: later.length === 0 ? null : new Date(Math.min(...later.map((d) => d.getTime()))),
            payoutsInFlight: 0
          }
        }),
      release: (id) => Effect.flatMap(get(id), Option.match({ onNone: () => Effect.void, onSome: (p) => put(new PlanClass({ ...p, leaseUntil: null })) })),
      // the hold is enforced by the SQL TransferRepo; in memory it has no effect
      holdForPayout: () => Effect.void,
      releaseMany: (ids) =>
        Effect.forEach(ids, (id) => Effect.flatMap(get(id), Option.match({ onNone: () => Effect.void, onSome: (p) => put(new PlanClass({ ...p, leaseUntil: null })) })), { discard: true }),
      markPaidAndSave: (plan, cycle, transactionId, paidAt, now) =>
        Ref.modify(ref, (s): [Option.Option<Plan>, PlanState] => {
          const current = s.plans.get(plan.id)
          const open = s.instalments.get(key(plan.id, cycle))
          if (current === undefined || current.version !== plan.version) return [Option.none(), s]
          if (open === undefined || open.status !== "open" || open.transactionId !== transactionId) return [Option.none(), s]
          const paid = new InstalmentClass({ ...open, status: "paid", paidAt, updatedAt: now })
          const saved = savedOver(current, plan)
          return [Option.some(saved), {
            ...s,
            plans: new Map(s.plans).set(plan.id, saved),
            instalments: new Map(s.instalments).set(key(plan.id, cycle), paid)
          }]
        }),
      findInstalment: (planId, cycle) => Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.instalments.get(key(planId, cycle)))),
      ensureInstalment: (instalment) =>
        Ref.modify(ref, (s): [Instalment, PlanState] => {
          const stored = s.instalments.get(key(instalment.planId, instalment.cycle))
          if (stored !== undefined) return [stored, s]
          return [instalment, { ...s, instalments: new Map(s.instalments).set(key(instalment.planId, instalment.cycle), instalment) }]
        }),
      linkInstalment: (instalment) =>
        Ref.modify(ref, (s): [Option.Option<Instalment>, PlanState] => {
          const stored = s.instalments.get(key(instalment.planId, instalment.cycle))
          if (stored !== undefined && (stored.status !== "open" || stored.transactionId !== null)) return [Option.none(), s]
          const linked = stored === undefined ? instalment : new InstalmentClass({
            ...stored,
            transactionId: instalment.transactionId,
            amountKobo: instalment.amountKobo,
            dueAt: instalment.dueAt,
            updatedAt: instalment.updatedAt
          })
          return [Option.some(linked), { ...s, instalments: new Map(s.instalments).set(key(instalment.planId, instalment.cycle), linked) }]
        }),
      saveInstalment: (instalment) =>
        Ref.modify(ref, (s): [Instalment, PlanState] => {
          const saved = new InstalmentClass(instalment)
          return [saved, { ...s, instalments: new Map(s.instalments).set(key(instalment.planId, instalment.cycle), saved) }]
        }),
      listInstalments: (planId) =>
        Effect.map(Ref.get(ref), (s) => [...s.instalments.values()].filter((i) => i.planId === planId).sort((a, b) => a.cycle - b.cycle)),
      countMovements: (planId, purpose, since) =>
        Effect.map(Ref.get(transfers), (ts) =>
          [...ts.values()].filter((t) =>
            t.planId === planId && t.purpose === purpose && t.status !== "failed" &&
            (since === null || t.createdAt.getTime() >= since.getTime())
          ).length)
    })
  })
)

/**
 * The surrounding UnitOfWork, with the plans and instalments also put back when a unit fails, as
 * the database's transaction does (the general in-memory unit of work only knows its own store).
 */
const PlanAwareUnitOfWork = Layer.effect(
  UnitOfWork,
  Effect.gen(function*() {
    const inner = yield* UnitOfWork
    const ref = yield* PlanStore
    return UnitOfWork.of({
      atomically: (effect) =>
        Effect.flatMap(Ref.get(ref), (before) =>
          inner.atomically(effect).pipe(Effect.onExit((exit) => (Exit.isFailure(exit) ? Ref.set(ref, before) : Effect.void))))
    })
  })
)

/** Plans; needs the TransferStore of InMemoryTransfersLive. */
export const InMemoryPlansLive = Layer.merge(InMemoryPlanRepoLive, PlanAwareUnitOfWork).pipe(
  Layer.provideMerge(Layer.effect(PlanStore, Ref.make<PlanState>({ plans: new Map(), instalments: new Map() })))
)
