/** Small building blocks shared by the use cases. */
import { Clock, Effect, Option } from "effect"
import { AccountNotFound } from "./Errors.js"
import { AccountRepo, UnitOfWork } from "./Ports.js"

/** The current time, from Effect's Clock (so tests control it). */
export const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** Runs the effect as one unit of work (one SQL transaction). */
export const atomically = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(UnitOfWork, (uow) => uow.atomically(effect))

/** The account and its customer, or AccountNotFound. */
export const requireAccount = (accountId: string) =>
  Effect.flatMap(AccountRepo, (repo) => repo.findById(accountId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new AccountNotFound()), onSome: Effect.succeed }))
  )
