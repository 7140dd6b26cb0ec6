import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import { CustomerId, MovementInFlight, MovementLost, Transfer, TransferRepo, type TransferClaim, type TransferPatch } from "@app/domain"
import { referencesOf } from "@app/domain/transfers/Saga"
import { Effect, Layer, Option, Schema } from "effect"
import { freeLease, LeaseHolder } from "../concurrency/LeaseHolder.js"
import { decodeInstances, decodeRows, instanceOf, leaseFromNow, orDieDb, savepointWhenNested, uniqueViolation } from "../sql/SqlSupport.js"

// Hand-written SQL, not SqlSchema: lease claims (FOR UPDATE SKIP LOCKED), guarded updates, and rows made with
// instanceOf (no second class check) on the transfer hot path.

/** A transfer row of `transactions`: int8 amounts arrive as decimal strings and become bigint kobo. */
const TransferRow = Schema.Struct({
  ...Transfer.fields,
  amountKobo: Schema.BigInt,
  feeKobo: Schema.BigInt,
  reserveKobo: Schema.BigInt
})

/** The partial unique index that allows one movement in flight per customer (migration 0003). */
const IN_FLIGHT_INDEX = "transactions_one_in_flight_key"

/** The journal columns `update` writes as given: the keys of TransferPatch but the lease. */
const patchKeys = [
  "status",
  "failureReason",
  "pndLifted",
  "lienPlaced",
  "debitState",
  "transferState",
  "reversalState",
  "restored",
  "retryCount",
  "nextAttemptAt",
  "nameEnquirySessionId",
  "nameEnquiryAt"
] as const satisfies ReadonlyArray<Exclude<keyof TransferPatch, "leaseUntil">>

/**
 * Transfers are `transactions` rows of type 'transfer'. The database guards both rules of `create`:
 * a partial unique index on (customer_id, idempotency_key) and one on (customer_id) WHERE in_flight
 * (a generated column: pending transfer whose account is not yet restored).
 */
export const TransferRepoSql = Layer.effect(
  TransferRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const holder = yield* LeaseHolder
    const decode = decodeInstances(TransferRow, Transfer)
    const transfers = (query: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      query.pipe(Effect.flatMap(decode))
    const first = (query: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      transfers(query).pipe(Effect.map((rs) => Option.fromNullable(rs[0])))

    const byKey = (customerId: CustomerId, idempotencyKey: string) =>
      first(sql`
        SELECT * FROM transactions
        WHERE customer_id = ${customerId} AND idempotency_key = ${idempotencyKey} AND type = 'transfer'`)

    /**
     * The insert gives back only the id: the row is `t` itself, every column written from it (the
     * lease as given, not from the database's clock), so reading the ~40 columns back and decoding
     * them (~0.1 ms) would only make a copy. No row: the key was already stored (DO NOTHING).
     */
    const insertStatement = (t: Transfer) => {
      const refs = referencesOf(t.id)
      return sql`
        INSERT INTO transactions ${
        sql.insert({
          id: t.id,
          customerId: t.customerId,
          planId: t.planId,
          type: "transfer",
          purpose: t.purpose,
          amountKobo: t.amountKobo.toString(),
          feeKobo: t.feeKobo.toString(),
          reserveKobo: t.reserveKobo.toString(),
          status: t.status,
          retrievalReference: refs.debit,
          transferReference: refs.transfer,
          providerReference: null,
          failureReason: t.failureReason,
          retryCount: t.retryCount,
          sourceAccountNumber: t.sourceAccountNumber,
          destinationAccountNumber: t.destinationAccountNumber,
          destinationBankCode: t.destinationBankCode,
          destinationBankName: t.destinationBankName,
          destinationAccountName: t.destinationAccountName,
          nameEnquirySessionId: t.nameEnquirySessionId,
          nameEnquiryAt: t.nameEnquiryAt,
          narration: t.narration,
          idempotencyKey: t.idempotencyKey,
          requestHash: t.requestHash,
          pndLifted: t.pndLifted,
          lienPlaced: t.lienPlaced,
          debitState: t.debitState,
          transferState: t.transferState,
          reversalState: t.reversalState,
          restored: t.restored,
          nextAttemptAt: t.nextAttemptAt,
          leaseUntil: t.leaseUntil,
          leaseHolder: t.leaseUntil === null ? null : holder.id,
          epoch: t.epoch,
          createdAt: t.createdAt,
          updatedAt: t.updatedAt
        })
      }
        ON CONFLICT (customer_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING id`.pipe(Effect.map((rows) => (rows.length === 0 ? Option.none<Transfer>() : Option.some(t))))
    }
    // a savepoint in the caller's transaction: a failed insert does not abort the caller's
    const insert = (t: Transfer) => savepointWhenNested(sql, insertStatement(t))

    /** A unique violation of the one-in-flight index is MovementInFlight; any other SQL error stays one. */
    const inFlightViolation = (error: SqlError) => {
      const constraint = uniqueViolation(error)
      return constraint !== undefined && constraint.includes(IN_FLIGHT_INDEX)
    }

    type Created = { readonly created: boolean; readonly transfer: Transfer }

    /** Whether a due payout of the customer's, not yet started, holds their next movement slot. */
    const payoutWaits = (customerId: CustomerId) =>
      sql<{ readonly waits: boolean }>`
        SELECT EXISTS (
          SELECT 1 FROM payout_holds h JOIN disbursement_plans p ON p.id = h.plan_id
          WHERE h.customer_id = ${customerId} AND p.state = 'active' AND p.next_due_at <= now()
        ) AS waits`.pipe(Effect.map((rows) => rows[0]?.waits === true))

    /** The row stored under the transfer's key, which a conflict proved to exist (a defect otherwise). */
    const theExisting = (t: Transfer) =>
      byKey(t.customerId, t.idempotencyKey).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.dieMessage("TransferRepo.create: idempotency conflict but no row under the key"),
          onSome: (transfer): Effect.Effect<Created> => Effect.succeed({ created: false, transfer })
        }))
      )

    const create = (t: Transfer): Effect.Effect<Created, MovementInFlight> =>
      Effect.gen(function*() {
        // the key first: a retry of the in-flight movement itself returns it, not MovementInFlight
        const stored = yield* byKey(t.customerId, t.idempotencyKey)
        if (Option.isSome(stored)) return { created: false, transfer: stored.value }
        // a due payout waits for this customer's movement slot (payout_holds, 0036): it goes first
        if (yield* payoutWaits(t.customerId)) return yield* new MovementInFlight()
        const inserted = yield* insert(t).pipe(
          Effect.map(Option.map((transfer): Created => ({ created: true, transfer }))),
          Effect.catchTag("SqlError", (error) => {
            if (!inFlightViolation(error)) return Effect.fail(error)
            // Another movement is in flight, or an identical request raced us and won (its row, in
            // flight, was checked before the idempotency index): then the winner's row is the answer.
            return byKey(t.customerId, t.idempotencyKey).pipe(
              Effect.flatMap(Option.match({
                onNone: () => Effect.fail(new MovementInFlight()),
                onSome: (transfer) => Effect.succeed(Option.some<Created>({ created: false, transfer }))
              }))
            )
          })
        )
        if (Option.isSome(inserted)) return inserted.value
        // DO NOTHING: an identical request inserted it after our first look
        return yield* theExisting(t)
      }).pipe(Effect.catchTags({ SqlError: Effect.die, ParseError: Effect.die }))

    const createFresh = (t: Transfer): Effect.Effect<Transfer, MovementInFlight> =>
      insertStatement(t).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.dieMessage("TransferRepo.createFresh: the new movement's key was already stored"),
          onSome: Effect.succeed
        })),
        Effect.catchTag("SqlError", (error) => (inFlightViolation(error) ? Effect.fail(new MovementInFlight()) : Effect.die(error)))
      )

    /** The patch's journal columns that are set (an absent or undefined key leaves its column as it is). */
    const definedOf = (patch: TransferPatch): Record<string, unknown> => {
      const set: Record<string, unknown> = {}
      for (const key of patchKeys) {
        const value = patch[key]
        if (value !== undefined) set[key] = value
      }
      return set
    }
    const decodeLease = decodeRows(Schema.Struct({ leaseUntil: Transfer.fields.leaseUntil }))

    /**
     * The fenced journal write (applied only while the writer's epoch is still the movement's):
     * the patch's columns, updated_at = now, and the lease renewed from the database's clock (see
     * leaseFromNow); `returning` says what comes back (no row: fenced out).
     */
    const journalWrite = (claim: TransferClaim, patch: TransferPatch, now: Date, returning: Fragment) => {
      const set = definedOf(patch)
      set.updatedAt = now
      const lease = patch.leaseUntil === undefined
        ? sql``
        : patch.leaseUntil === null
        ? sql`, lease_until = NULL`
        : sql`, lease_until = ${leaseFromNow(sql, now, patch.leaseUntil)}, lease_holder = ${holder.id}`
      return sql`
        UPDATE transactions SET ${sql.update(set)}${lease}
        WHERE id = ${claim.id} AND type = 'transfer' AND epoch = ${claim.epoch}
        RETURNING ${returning}`
    }

    return TransferRepo.of({
      create,
      createFresh,
      findById: (id) => orDieDb(first(sql`SELECT * FROM transactions WHERE id = ${id} AND type = 'transfer'`)),
      findByIdempotencyKey: (customerId, idempotencyKey) => orDieDb(byKey(customerId, idempotencyKey)),
      hasMovementInFlight: (customerId) =>
        orDieDb(
          sql<{ readonly inFlight: boolean }>`
            SELECT EXISTS (SELECT 1 FROM transactions WHERE customer_id = ${customerId} AND in_flight) AS in_flight`
        ).pipe(Effect.map((rows) => rows[0]?.inFlight === true)),
      hasUnsettledMovement: (customerId, except) =>
        orDieDb(
          sql<{ readonly unsettled: boolean }>`
            SELECT EXISTS (
              SELECT 1 FROM transactions
              WHERE customer_id = ${customerId} AND type = 'transfer' AND status = 'pending'
                ${except === undefined ? sql`` : sql`AND id <> ${except}`}
            ) AS unsettled`
        ).pipe(Effect.map((rows) => rows[0]?.unsettled === true)),
      update: (claim, patch, now) =>
        first(journalWrite(claim, patch, now, sql`*`)).pipe(
          orDieDb,
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new MovementLost({ transferId: claim.id, epoch: claim.epoch })),
            onSome: Effect.succeed
          }))
        ),
      // only the lease comes back (set on the database's clock): reading and decoding the whole
      // row after every journal write was ~5% of the service's CPU per payout
      updateCurrent: (current, patch, now) =>
        journalWrite(current, patch, now, sql`lease_until`).pipe(
          Effect.flatMap(decodeLease),
          orDieDb,
          Effect.flatMap((rows) =>
            rows[0] === undefined
              ? Effect.fail(new MovementLost({ transferId: current.id, epoch: current.epoch }))
              : Effect.succeed(instanceOf(Transfer, { ...current, ...definedOf(patch), updatedAt: now, leaseUntil: rows[0].leaseUntil }))
          )
        ),
      claimDue: (now, leaseUntil, limit) =>
        orDieDb(sql.withTransaction(Effect.gen(function*() {
          const due = yield* sql<{ readonly id: string }>`
            SELECT id FROM transactions
            WHERE type = 'transfer' AND status = 'pending'
              -- lease expired, or its holder stopped heartbeating (concurrency/LeaseHolder.ts)
              AND ${freeLease(sql)}
              -- not restored: the saga is mid-way; restored but not pending at the bank: only its
              -- final status is left to write (its driver died just before); pending: requery when due
              AND (NOT restored OR transfer_state <> 'pending' OR next_attempt_at <= ${now})
              -- a refused reversal, once the account is put back, waits for an operator
              AND NOT (restored AND reversal_state = 'refused')
            ORDER BY created_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED`
          if (due.length === 0) return []
          const claimed = yield* transfers(sql`
            UPDATE transactions SET lease_until = ${leaseFromNow(sql, now, leaseUntil)}, lease_holder = ${holder.id}, epoch = epoch + 1
            WHERE ${sql.in("id", due.map((r) => r.id))}
            RETURNING *`)
          return [...claimed].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        })))
    })
  })
)
