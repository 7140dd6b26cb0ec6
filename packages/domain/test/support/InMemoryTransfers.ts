/**
 * An in-memory TransferRepo with the documented semantics of the port: idempotent creation by
 * (customer, key), one movement in flight per customer, leases and due work for claimDue.
 */
import {Context, Effect, Layer, Option, Ref} from "effect"
import { type Notice } from "../../src/notifications/Model.js"
import { type Transfer, Transfer as TransferClass, type TransferClaim, type TransferPatch } from "../../src/transfers/Model.js"
import { MovementInFlight, MovementLost } from "../../src/transfers/Errors.js"
import { NoticeRepo } from "../../src/notifications/Ports.js"
import { TransferRepo } from "../../src/transfers/Ports.js"
import { SettingsStore } from "../../src/settings/Settings.js"

export class TransferStore extends Context.Tag("test/TransferStore")<TransferStore, Ref.Ref<ReadonlyMap<string, Transfer>>>() {
  static readonly all = Effect.flatMap(TransferStore, (ref) => Effect.map(Ref.get(ref), (m) => [...m.values()]))
}

const inFlight = (t: Transfer) => t.status === "pending" && !t.restored

const isDue = (t: Transfer, now: Date) =>
  t.status === "pending" &&
  (t.leaseUntil === null || t.leaseUntil.getTime() < now.getTime()) &&
  (!t.restored || t.transferState !== "pending" ||
    (t.nextAttemptAt !== null && t.nextAttemptAt.getTime() <= now.getTime())) &&
  !(t.restored && t.reversalState === "refused")

export const InMemoryTransferRepoLive = Layer.effect(
  TransferRepo,
  Effect.map(TransferStore, (ref) => {
    /**
     * The fenced journal write. It returns the record as stored, or, given the writer's `current`
     * record, that one with the patch applied (as the SQL store's updateCurrent does).
     */
    const write = (claim: TransferClaim, patch: TransferPatch, now: Date, current?: Transfer) =>
      Ref.modify(ref, (m): [Effect.Effect<Transfer, MovementLost>, ReadonlyMap<string, Transfer>] => {
        const stored = m.get(claim.id)
        if (stored === undefined || stored.epoch !== claim.epoch) {
          return [Effect.fail(new MovementLost({ transferId: claim.id, epoch: claim.epoch })), m]
        }
        const updated = new TransferClass({ ...stored, ...patch, updatedAt: now })
        const answer = current === undefined ? updated : new TransferClass({ ...current, ...patch, updatedAt: now })
        return [Effect.succeed(answer), new Map(m).set(claim.id, updated)]
      }).pipe(Effect.flatten)
    return TransferRepo.of({
      create: (transfer) =>
        Ref.modify(ref, (m): [Effect.Effect<{ created: boolean; transfer: Transfer }, MovementInFlight>, ReadonlyMap<string, Transfer>] => {
          const all = [...m.values()]
          const existing = all.find((t) => t.customerId === transfer.customerId && t.idempotencyKey === transfer.idempotencyKey)
          if (existing !== undefined) return [Effect.succeed({ created: false, transfer: existing }), m]
          if (all.some((t) => t.customerId === transfer.customerId && inFlight(t))) return [Effect.fail(new MovementInFlight()), m]
          return [Effect.succeed({ created: true, transfer }), new Map(m).set(transfer.id, transfer)]
        }).pipe(Effect.flatten),
      createFresh: (transfer) =>
        Ref.modify(ref, (m): [Effect.Effect<Transfer, MovementInFlight>, ReadonlyMap<string, Transfer>] => {
          const all = [...m.values()]
          if (all.some((t) => t.customerId === transfer.customerId && t.idempotencyKey === transfer.idempotencyKey)) {
            return [Effect.dieMessage("createFresh: the new movement's key was already stored"), m]
          }
          if (all.some((t) => t.customerId === transfer.customerId && inFlight(t))) return [Effect.fail(new MovementInFlight()), m]
          return [Effect.succeed(transfer), new Map(m).set(transfer.id, transfer)]
        }).pipe(Effect.flatten),
      findById: (id) => Effect.map(Ref.get(ref), (m) => Option.fromNullable(m.get(id))),
      hasMovementInFlight: (customerId) =>
        Effect.map(Ref.get(ref), (m) => [...m.values()].some((t) => t.customerId === customerId && inFlight(t))),
      hasUnsettledMovement: (customerId, except) =>
        Effect.map(Ref.get(ref), (m) => [...m.values()].some((t) => t.customerId === customerId && t.status === "pending" && t.id !== except)),
      findByIdempotencyKey: (customerId, key) =>
        Effect.map(Ref.get(ref), (m) =>
          Option.fromNullable([...m.values()].find((t) => t.customerId === customerId && t.idempotencyKey === key))),
      update: (claim, patch, now) => write(claim, patch, now),
      updateCurrent: (current, patch, now) => write(current, patch, now, current),
      claimDue: (now, leaseUntil, limit) =>
        Ref.modify(ref, (m): [ReadonlyArray<Transfer>, ReadonlyMap<string, Transfer>] => {
          const due = [...m.values()].filter((t) => isDue(t, now)).slice(0, limit)
            .map((t) => new TransferClass({ ...t, leaseUntil, epoch: t.epoch + 1 }))
          const next = new Map(m)
          for (const t of due) next.set(t.id, t)
          return [due, next]
        })
    })
  })
)

/** Notices raised (plan_depleted, disbursement_failed, …), in order. */
export class NoticeStore extends Context.Tag("test/NoticeStore")<NoticeStore, Ref.Ref<ReadonlyArray<Notice>>>() {
  static readonly all = Effect.flatMap(NoticeStore, Ref.get)
  static readonly kinds = Effect.map(NoticeStore.all, (ns) => ns.map((n) => n.kind))
}

export const InMemoryNoticeRepoLive = Layer.effect(
  NoticeRepo,
  Effect.map(NoticeStore, (ref) =>
    NoticeRepo.of({
      record: (notice) => Ref.update(ref, (ns) => [...ns, notice]),
      listForCustomer: (customerId) =>
        Effect.map(Ref.get(ref), (ns) =>
          ns.filter((n) => n.customerId === customerId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()))
    }))
).pipe(Layer.provideMerge(Layer.effect(NoticeStore, Ref.make<ReadonlyArray<Notice>>([]))))

export const InMemoryTransfersLive = Layer.mergeAll(
  InMemoryNoticeRepoLive,
  InMemoryTransferRepoLive.pipe(
    Layer.provideMerge(Layer.effect(TransferStore, Ref.make<ReadonlyMap<string, Transfer>>(new Map())))
  ),
  Layer.suspend(() => InMemorySettingsLive)
)

export const InMemorySettingsLive = Layer.effect(
  SettingsStore,
  Effect.map(Ref.make<ReadonlyMap<string, unknown>>(new Map()), (ref) =>
    SettingsStore.of({
      get: (key) => Effect.map(Ref.get(ref), (m) => Option.fromNullable(m.get(key))),
      set: (key, value) => Ref.update(ref, (m) => new Map(m).set(key, value))
    }))
)
