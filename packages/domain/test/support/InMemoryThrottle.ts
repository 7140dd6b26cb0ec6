/** ThrottleStore in memory: the same rules as ThrottleStoreSql (shared/Throttle.ts), one Ref, every call atomic. */
import { Duration, Effect, Layer, Ref } from "effect"
import { type ThrottleClaim, ThrottleStore } from "../../src/shared/Throttle.js"

interface Row {
  readonly tries: number
  readonly windowStartedAt: number
  readonly blockedUntil: number | null
}

export const InMemoryThrottleLive = Layer.effect(
  ThrottleStore,
  Effect.map(Ref.make(new Map<string, Row>()), (ref) =>
    ThrottleStore.of({
      claim: (keys, now) =>
        Ref.modify(ref, (rows): [ThrottleClaim, Map<string, Row>] => {
          const next = new Map(rows)
          const tries: Array<number> = []
          const started: Array<Date | null> = []
          const at = now.getTime()
          for (const [index, k] of keys.entries()) {
            const row = next.get(k.key)
            if (row !== undefined && row.blockedUntil !== null && row.blockedUntil > at) {
              return [{ _tag: "Blocked", index, until: new Date(row.blockedUntil) }, next]
            }
            const windowMs = Duration.toMillis(k.window)
            const fresh = row === undefined || row.windowStartedAt <= at - windowMs || row.blockedUntil !== null
            const counted = fresh ? 1 : row.tries + 1
            const blockedUntil = counted >= k.limit ? at + windowMs : null
            next.set(k.key, { tries: counted, windowStartedAt: fresh ? at : row.windowStartedAt, blockedUntil })
            tries.push(counted)
            started.push(blockedUntil === null ? null : new Date(blockedUntil))
          }
          return [{ _tag: "Claimed", tries, started }, next]
        }),
      refund: (keys, started) =>
        Ref.update(ref, (rows) => {
          const next = new Map(rows)
          keys.forEach((key, i) => {
            const row = next.get(key)
            if (row === undefined) return
            const mine = started[i]
            next.set(key, {
              ...row,
              tries: Math.max(row.tries - 1, 0),
              blockedUntil: mine != null && row.blockedUntil === mine.getTime() ? null : row.blockedUntil
            })
          })
          return next
        }),
      purgeBefore: () => Effect.succeed(0)
    }))
)
