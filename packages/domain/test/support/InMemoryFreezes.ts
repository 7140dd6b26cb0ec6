/** In-memory staff freezes, four-eyes approvals and the movement change feed, for domain tests. */
import { Effect, Layer, Option, Ref } from "effect"
import { Approval, ApprovalRepo } from "../../src/admin/Approvals.js"
import { type CustomerFreeze, FreezeRepo } from "../../src/admin/Freezes.js"
import { type MovementChange, MovementChangeFeed } from "../../src/admin/MovementAudit.js"

export const FreezeRepoLive = Layer.effect(
  FreezeRepo,
  Effect.gen(function*() {
    const rows = yield* Ref.make<ReadonlyArray<{ readonly freeze: CustomerFreeze; readonly leaseUntil: number | null }>>([])
    const put = (f: CustomerFreeze, leaseUntil: number | null) =>
      Ref.update(rows, (rs) => rs.map((r) => (r.freeze.id === f.id ? { freeze: f, leaseUntil } : r)))
    return FreezeRepo.of({
      insert: (f) =>
        Ref.update(rows, (rs) => {
          if (rs.some((r) => r.freeze.customerId === f.customerId && r.freeze.liftedAt === null)) throw new Error("one open freeze")
          return [...rs, { freeze: f, leaseUntil: null }]
        }),
      findOpen: (customerId) =>
        Effect.map(Ref.get(rows), (rs) => Option.fromNullable(rs.find((r) => r.freeze.customerId === customerId && r.freeze.liftedAt === null)?.freeze)),
      save: (f) => put(f, null),
      saveOpen: (f) =>
        Effect.flatMap(Ref.get(rows), (rs) =>
          rs.some((r) => r.freeze.id === f.id && r.freeze.liftedAt === null) ? Effect.as(put(f, null), true) : Effect.succeed(false)),
      claimPending: (id, now, leaseUntil, limit) =>
        Effect.gen(function*() {
          const due = (yield* Ref.get(rows)).filter((r) =>
            r.freeze.state === "pending_provider" && r.freeze.liftedAt === null && (id === undefined || r.freeze.id === id) &&
            (r.leaseUntil === null || r.leaseUntil < now.getTime())
          ).slice(0, limit)
          for (const r of due) yield* put(r.freeze, leaseUntil.getTime())
          return due.map((r) => r.freeze)
        })
    })
  })
)

const ApprovalRepoLive = Layer.effect(
  ApprovalRepo,
  Effect.gen(function*() {
    const rows = yield* Ref.make<ReadonlyArray<Approval>>([])
    return ApprovalRepo.of({
      insert: (a) => Ref.update(rows, (rs) => [...rs, a]),
      find: (id) => Effect.map(Ref.get(rows), (rs) => Option.fromNullable(rs.find((a) => a.id === id))),
      transition: (id, from, to, by, at, note) =>
        Ref.modify(rows, (rs) => {
          const found = rs.find((a) => a.id === id && a.status === from)
          if (found === undefined) return [false, rs]
          const next = new Approval({ ...found, status: to, decidedBy: by, decidedAt: at, note })
          return [true, rs.map((a) => (a.id === id ? next : a))]
        }),
      list: ({ kinds, status }, { page, pageSize }) =>
        Effect.map(Ref.get(rows), (rs) => {
          const all = rs.filter((a) => kinds.includes(a.action._tag) && (status === undefined || a.status === status)).reverse()
          return { items: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: all.length }
        })
    })
  })
)

/** The feed, with `push` for tests (the trigger's part). */
export const makeFeed = Effect.map(Ref.make<ReadonlyArray<MovementChange>>([]), (rows) => ({
  rows,
  feed: MovementChangeFeed.of({
    take: (limit) => Effect.map(Ref.get(rows), (rs) => rs.slice(0, limit)),
    remove: (ids) => Ref.update(rows, (rs) => rs.filter((c) => !ids.includes(c.id)))
  })
}))

export const InMemoryFreezesLive = Layer.mergeAll(FreezeRepoLive, ApprovalRepoLive)
