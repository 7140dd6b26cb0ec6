/**
 * Small building blocks shared by the use cases: the time, and the unit of work.
 */
import { Clock, Effect } from "effect"
import { UnitOfWork } from "./Ports.js"

/** The current time, from Effect's Clock (so tests control it). */
export const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** Runs the effect as one unit of work (one SQL transaction). */
export const atomically = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(UnitOfWork, (uow) => uow.atomically(effect))
