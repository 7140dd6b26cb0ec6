/**
 * PinRepo on SQL. Every guard transition is the pure function of PinLockout.ts applied to the row
 * read `FOR UPDATE` in one transaction (the row is created first by `INSERT … ON CONFLICT DO
 * NOTHING`, so even a customer's first tries serialize on it): concurrent tries of one customer run
 * one after another, which is what lets 20 parallel wrong PINs buy exactly 5 compares.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerId, PinLockout, PinRepo, type ProviderFreeze } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { orDieDb } from "../sql/SqlSupport.js"

interface GuardRow {
  readonly wrongTries: number | string
  readonly lockedUntil: Date | string | null
  readonly lockouts: unknown
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value))

const toGuard = (row: GuardRow | undefined): PinLockout.PinGuard => {
  if (row === undefined) return PinLockout.noGuard
  const lockouts = typeof row.lockouts === "string" ? JSON.parse(row.lockouts) : row.lockouts
  return {
    wrongTries: Number(row.wrongTries),
    lockedUntil: row.lockedUntil === null ? null : toDate(row.lockedUntil),
    lockouts: (lockouts as Array<string>).map((at) => new Date(at))
  }
}

export const PinRepoSql = Layer.effect(
  PinRepo,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const readGuard = (customerId: CustomerId, forUpdate: boolean) =>
      Effect.map(
        forUpdate
          ? sql<GuardRow>`SELECT wrong_tries, locked_until, lockouts FROM pin_guards WHERE customer_id = ${customerId} FOR UPDATE`
          : sql<GuardRow>`SELECT wrong_tries, locked_until, lockouts FROM pin_guards WHERE customer_id = ${customerId}`,
        (rows) => toGuard(rows[0])
      )

    const writeGuard = (customerId: CustomerId, guard: PinLockout.PinGuard) =>
      sql`
        UPDATE pin_guards
        SET wrong_tries = ${guard.wrongTries},
            locked_until = ${guard.lockedUntil},
            lockouts = ${JSON.stringify(guard.lockouts.map((at) => at.toISOString()))}::jsonb
        WHERE customer_id = ${customerId}`

    /** Reads the guard locked, applies `f`, writes what it returns (if anything); one transaction. */
    const transition = <A>(customerId: CustomerId, f: (guard: PinLockout.PinGuard) => readonly [A, PinLockout.PinGuard | null]) =>
      orDieDb(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO pin_guards (customer_id) VALUES (${customerId}) ON CONFLICT (customer_id) DO NOTHING`
        const [answer, next] = f(yield* readGuard(customerId, true))
        if (next !== null) yield* writeGuard(customerId, next)
        return answer
      })))

    return PinRepo.of({
      setPinHash: (customerId, hash, now) =>
        orDieDb(sql`UPDATE customers SET pin_hash = ${hash}, updated_at = ${now} WHERE id = ${customerId}`).pipe(Effect.asVoid),
      replacePinHash: (customerId, expected, hash, now) =>
        orDieDb(sql<{ id: string }>`
          UPDATE customers SET pin_hash = ${hash}, updated_at = ${now}
          WHERE id = ${customerId} AND pin_hash IS NOT DISTINCT FROM ${expected}
          RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
      findGuard: (customerId) => orDieDb(readGuard(customerId, false)),
      claimTry: (customerId, now, policy) =>
        transition(customerId, (guard) => {
          const [claim, next] = PinLockout.claimTry(guard, now, policy)
          return [claim, claim._tag === "Locked" ? null : next] as const
        }),
      recordCorrectTry: (customerId, lock) =>
        transition(customerId, (guard) => [undefined, PinLockout.settleCorrect(guard, lock)] as const),
      clearWrongTries: (customerId) => transition(customerId, (guard) => [undefined, PinLockout.clearTries(guard)] as const),
      recordProviderFreeze: (customerId, freezeReference, now) =>
        orDieDb(sql`
          INSERT INTO provider_freezes (customer_id, freeze_reference, frozen_at)
          VALUES (${customerId}, ${freezeReference}, ${now})`).pipe(Effect.asVoid),
      lastProviderFreeze: (customerId) =>
        orDieDb(sql<{ customerId: CustomerId; freezeReference: string; frozenAt: Date | string }>`
          SELECT customer_id, freeze_reference, frozen_at FROM provider_freezes
          WHERE customer_id = ${customerId}
          ORDER BY frozen_at DESC, id DESC LIMIT 1`).pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row): ProviderFreeze => ({
              customerId: row.customerId,
              freezeReference: row.freezeReference,
              frozenAt: toDate(row.frozenAt)
            }))
          )
        )
    })
  })
)
