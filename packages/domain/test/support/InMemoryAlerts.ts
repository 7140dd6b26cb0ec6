/**
 * An in-memory AlertRepo with the documented semantics of the port: a raise of a dedupKey whose
 * alert is open counts an occurrence, anything else adds an alert; acknowledged alerts are kept.
 * `AlertStore` reads what was raised. Part of `InMemoryLayer` (InMemory.ts).
 */
import {Context, Effect, Layer, Ref} from "effect"
import { AlertRepo, type AlertKind, StaffAlert } from "../../src/admin/Alerts.js"

/** Every alert, open or acknowledged, in the order first raised. */
export class AlertStore extends Context.Tag("test/AlertStore")<AlertStore, Ref.Ref<ReadonlyArray<StaffAlert>>>() {
  static readonly all = Effect.flatMap(AlertStore, Ref.get)
  static readonly open = Effect.map(AlertStore.all, (alerts) => alerts.filter((a) => a.acknowledgedAt === null))
  static readonly kinds = Effect.map(AlertStore.all, (alerts): ReadonlyArray<AlertKind> => alerts.map((a) => a.kind))
}

const newestFirst = (a: StaffAlert, b: StaffAlert) =>
  b.lastRaisedAt.getTime() - a.lastRaisedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

export const InMemoryAlertRepoLive = Layer.effect(
  AlertRepo,
  Effect.map(AlertStore, (ref) =>
    AlertRepo.of({
      raise: (alert) =>
        Ref.modify(ref, (alerts): [StaffAlert, ReadonlyArray<StaffAlert>] => {
          const i = alerts.findIndex((a) => a.dedupKey === alert.dedupKey && a.acknowledgedAt === null)
          if (i < 0) return [alert, [...alerts, alert]]
          const open = alerts[i]!
          const updated = new StaffAlert({
            ...open,
            occurrences: open.occurrences + 1,
            lastRaisedAt: alert.lastRaisedAt > open.lastRaisedAt ? alert.lastRaisedAt : open.lastRaisedAt
          })
          return [updated, alerts.map((a, j) => (j === i ? updated : a))]
        }),
      listOpen: () => Effect.map(Ref.get(ref), (alerts) => alerts.filter((a) => a.acknowledgedAt === null).sort(newestFirst)),
      acknowledge: (id, by, at) =>
        Ref.modify(ref, (alerts): [boolean, ReadonlyArray<StaffAlert>] => {
          const i = alerts.findIndex((a) => a.id === id && a.acknowledgedAt === null)
          if (i < 0) return [false, alerts]
          return [true, alerts.map((a, j) => (j === i ? new StaffAlert({ ...a, acknowledgedAt: at, acknowledgedBy: by }) : a))]
        })
    }))
)

/** AlertRepo and its AlertStore, fresh each time it is provided. */
export const InMemoryAlertsLive = InMemoryAlertRepoLive.pipe(
  Layer.provideMerge(Layer.effect(AlertStore, Ref.make<ReadonlyArray<StaffAlert>>([])))
)
