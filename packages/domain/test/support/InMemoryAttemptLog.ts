/** `AttemptLog` in memory: the counted attempts, atomic per call (one fiber at a time). */
import { Effect, Layer, Ref } from "effect"
import { AttemptLog, type ReserveOutcome } from "../../src/shared/Throttle.js"

interface Row {
  readonly id: string
  readonly subject: string
  readonly kind: string
  readonly at: Date
}

export const InMemoryAttemptLogLive = Layer.effect(
  AttemptLog,
  Effect.map(Ref.make<ReadonlyArray<Row>>([]), (rows) =>
    AttemptLog.of({
      reserve: ({ at, id, kind, max, since, subject }) =>
        Ref.modify(rows, (all): readonly [ReserveOutcome, ReadonlyArray<Row>] => {
          const counted = all.filter((r) => r.subject === subject && r.kind === kind && r.at > since)
          if (counted.length >= max) {
            const oldest = counted.reduce((a, b) => (a.at <= b.at ? a : b)).at
            return [{ _tag: "Full", oldest }, all]
          }
          return [{ _tag: "Reserved" }, [...all, { id, subject, kind, at }]]
        }),
      release: (id) => Ref.update(rows, (all) => all.filter((r) => r.id !== id)),
      purgeBefore: (before) =>
        Ref.modify(rows, (all) => {
          const kept = all.filter((r) => r.at > before)
          return [all.length - kept.length, kept]
        })
    }))
)
