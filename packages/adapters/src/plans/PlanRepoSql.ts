import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Instalment, Plan, PlanConflict, PlanRepo } from "@app/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { freeLease, LeaseHolder } from "../concurrency/LeaseHolder.js"
import { decodeInstances, decodeRows, instanceOf, leaseFromNow, orDieDb, savepointWhenNested, uniqueViolation } from "../sql/SqlSupport.js"

// Hand-written SQL, not SqlSchema: lease claims (FOR UPDATE SKIP LOCKED), optimistic versions, the one-statement
// markPaidAndSave, and rows made with instanceOf (no second class check) on the payout hot path.

/** A disbursement_plans row: int8 amounts arrive as decimal strings and become bigint kobo. */
const PlanRow = Schema.Struct({
  ...Plan.fields,
  totalAmountKobo: Schema.BigInt,
  paidBeforeKobo: Schema.BigInt,
  payoutFeeCapKobo: Schema.NullOr(Schema.BigInt),
  lastPayoutFeeCapKobo: Schema.NullOr(Schema.BigInt)
})

/** A plan_instalments row. */
const InstalmentRow = Schema.Struct({
  ...Instalment.fields,
  amountKobo: Schema.BigInt
})

/** The partial unique index that allows one plan that is not completed per customer (migration 0005). */
const OPEN_PLAN_INDEX = "disbursement_plans_one_open_key"

type Rows = Effect.Effect<ReadonlyArray<unknown>, SqlError>

/** An instalment as a plan_instalments row (int8 amounts written as decimal strings). */
const instalmentColumns = (i: Instalment) => ({
  planId: i.planId,
  cycle: i.cycle,
  amountKobo: i.amountKobo.toString(),
  kind: i.kind,
  status: i.status,
  attempts: i.attempts,
  transactionId: i.transactionId,
  dueAt: i.dueAt,
  paidAt: i.paidAt,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt
})

/**
 * Plans are `disbursement_plans` rows, written with optimistic concurrency (`version`); a partial
 * unique index on (customer_id) WHERE state <> 'completed' keeps one open plan per customer. Leases
 * (claimDue, claimInactive, release) only write lease_until, never the version.
 */
export const PlanRepoSql = Layer.effect(
  PlanRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const holder = yield* LeaseHolder
    const decodePlans = decodeInstances(PlanRow, Plan)
    const decodeInstalments = decodeInstances(InstalmentRow, Instalment)
    const decodeLeaseAndVersion = decodeRows(Schema.Struct({ leaseUntil: PlanRow.fields.leaseUntil, version: PlanRow.fields.version }))

    const plans = (query: Rows) => query.pipe(Effect.flatMap(decodePlans))
    const plan = (query: Rows) => plans(query).pipe(Effect.map((rs) => Option.fromNullable(rs[0])))
    const instalments = (query: Rows) =>
      query.pipe(Effect.flatMap(decodeInstalments))
    const instalment = (query: Rows) => instalments(query).pipe(Effect.map((rs) => Option.fromNullable(rs[0])))

    /** The row or a defect: a statement that must return one did not. */
    const theOne = (what: string) => <A, E, R>(effect: Effect.Effect<Option.Option<A>, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(effect, Option.match({
        onNone: () => Effect.dieMessage(`PlanRepo.${what}: no row`),
        onSome: (a: A) => Effect.succeed(a)
      }))

    /** Every column `save` writes: all but id, customer_id, created_at, lease_until (and version, which it increments). */
    const savedColumns = (p: Plan) => ({
      totalAmountKobo: p.totalAmountKobo.toString(),
      paidBeforeKobo: p.paidBeforeKobo.toString(),
      payoutFeeCapKobo: p.payoutFeeCapKobo === null ? null : p.payoutFeeCapKobo.toString(),
      lastPayoutFeeCapKobo: p.lastPayoutFeeCapKobo === null ? null : p.lastPayoutFeeCapKobo.toString(),
      durationDays: p.durationDays,
      frequency: p.frequency,
      weekDay: p.weekDay,
      scheduledTime: p.scheduledTime,
      timeZone: p.timeZone,
      withdrawalAccountNumber: p.withdrawalAccountNumber,
      withdrawalBankCode: p.withdrawalBankCode,
      withdrawalBankName: p.withdrawalBankName,
      withdrawalAccountName: p.withdrawalAccountName,
      nameEnquirySessionId: p.nameEnquirySessionId,
      state: p.state,
      cycleCount: p.cycleCount,
      cycleBase: p.cycleBase,
      nextCycle: p.nextCycle,
      anchorDate: p.anchorDate,
      nextDueAt: p.nextDueAt,
      borrowCount: p.borrowCount,
      activatedAt: p.activatedAt,
      completedAt: p.completedAt,
      updatedAt: p.updatedAt
    })

    const insert = (p: Plan): Effect.Effect<Plan, PlanConflict> =>
      // a savepoint in the caller's transaction: a refused insert does not abort the caller's
      savepointWhenNested(sql, plan(sql`
        INSERT INTO disbursement_plans ${
        sql.insert({
          id: p.id,
          customerId: p.customerId,
          ...savedColumns(p),
          leaseUntil: p.leaseUntil,
          version: p.version,
          createdAt: p.createdAt
        })
      }
        RETURNING *`)).pipe(
        theOne("insert"),
        Effect.catchTag("SqlError", (error): Effect.Effect<never, PlanConflict | SqlError> => {
          const constraint = uniqueViolation(error)
          return constraint !== undefined && constraint.includes(OPEN_PLAN_INDEX)
            ? Effect.fail(new PlanConflict())
            : Effect.fail(error)
        }),
        Effect.catchTags({ SqlError: Effect.die, ParseError: Effect.die })
      )

    const save = (p: Plan): Effect.Effect<Plan, PlanConflict> =>
      plan(sql`
        UPDATE disbursement_plans SET ${sql.update(savedColumns(p))}, version = version + 1
        WHERE id = ${p.id} AND version = ${p.version}
        RETURNING *`).pipe(
        orDieDb,
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new PlanConflict()),
          onSome: Effect.succeed
        }))
      )

    /**
     * Leases the plans the `select` picks (ids only, FOR UPDATE SKIP LOCKED), in one transaction, so
     * concurrent claimers never take the same plan; returns them in `order`.
     */
    /** Leases the rows `select` picked (in its order, which the UPDATE's RETURNING does not keep). */
    const claim = (
      select: Effect.Effect<ReadonlyArray<{ readonly id: string }>, SqlError>,
      now: Date,
      leaseUntil: Date
    ) =>
      orDieDb(sql.withTransaction(Effect.gen(function*() {
        const picked = yield* select
        if (picked.length === 0) return []
        const claimed = yield* plans(sql`
          UPDATE disbursement_plans SET lease_until = ${leaseFromNow(sql, now, leaseUntil)}, lease_holder = ${holder.id}
          WHERE ${sql.in("id", picked.map((r) => r.id))}
          RETURNING *`)
        const rank = new Map(picked.map((r, i) => [r.id, i]))
        return [...claimed].sort((a, b) => rank.get(a.id)! - rank.get(b.id)!)
      })))

    return PlanRepo.of({
      findForCustomer: (customerId) =>
        orDieDb(plan(sql`
          SELECT * FROM disbursement_plans WHERE customer_id = ${customerId}
          ORDER BY (state <> 'completed') DESC, created_at DESC, id DESC
          LIMIT 1`)),
      findById: (id) => orDieDb(plan(sql`SELECT * FROM disbursement_plans WHERE id = ${id}`)),
      insert,
      save,
      lock: (id) => orDieDb(plan(sql`SELECT * FROM disbursement_plans WHERE id = ${id} FOR UPDATE`)),
      claimDue: (now, leaseUntil, limit) =>
        claim(
          sql<{ readonly id: string }>`
            SELECT p.id FROM disbursement_plans p
            WHERE p.state = 'active'
              -- lease expired, or its holder stopped heartbeating (concurrency/LeaseHolder.ts)
              AND ${freeLease(sql, "p")}
              AND (
                p.next_due_at <= ${now}
                -- the open instalment's payout finished: settle it. Uncorrelated, so PostgreSQL runs
                -- it once (a hashed subplan over the few open instalments) instead of once per
                -- active plan not yet due: as EXISTS it made the last claims of a 10,000-plan run
                -- take 2.5 to 3.3 s each, every plan already paid being looked up again
                OR p.id IN (
                  SELECT i.plan_id FROM plan_instalments i JOIN transactions t ON t.id = i.transaction_id
                  WHERE i.status = 'open' AND t.status <> 'pending'
                )
              )
            ORDER BY p.next_due_at NULLS LAST, p.id
            LIMIT ${limit}
            FOR UPDATE OF p SKIP LOCKED`,
          now,
          leaseUntil
        ),
      claimInactive: (now, leaseUntil, limit) =>
        claim(
          sql<{ readonly id: string }>`
            SELECT id FROM disbursement_plans
            WHERE state IN ('awaiting_funds', 'depleted')
              AND ${freeLease(sql)}
            -- never claimed first, then the longest since its last claim (the activation job lets the
            -- lease of a plan still short of funds expire, so every plan gets its turn), then updated_at
            ORDER BY lease_until NULLS FIRST, updated_at, id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED`,
          now,
          leaseUntil
        ),
      release: (id) => orDieDb(sql`UPDATE disbursement_plans SET lease_until = NULL WHERE id = ${id}`).pipe(Effect.asVoid),
      releaseMany: (ids) =>
        ids.length === 0
          ? Effect.void
          : orDieDb(sql`UPDATE disbursement_plans SET lease_until = NULL WHERE ${sql.in("id", ids)}`).pipe(Effect.asVoid),
      payoutBoard: (now) =>
        orDieDb(sql<{ active: string | number; due: string | number; claimed: string | number; next: Date | null; inFlight: string | number }>`
          SELECT count(*) FILTER (WHERE state = 'active') AS active,
                 count(*) FILTER (WHERE state = 'active' AND next_due_at <= ${now}) AS due,
                 count(*) FILTER (WHERE lease_until > ${now}) AS claimed,
                 min(next_due_at) FILTER (WHERE state = 'active' AND next_due_at > ${now}) AS next,
                 (SELECT count(*) FROM transactions WHERE purpose = 'disbursement' AND status = 'pending') AS in_flight
          FROM disbursement_plans`).pipe(
          Effect.map(([r]) => ({
            activePlans: Number(r?.active ?? 0),
            dueNow: Number(r?.due ?? 0),
            claimed: Number(r?.claimed ?? 0),
            nextDueAt: r?.next ?? null,
            payoutsInFlight: Number(r?.inFlight ?? 0)
          }))
        ),
      findInstalment: (planId, cycle) =>
        orDieDb(instalment(sql`SELECT * FROM plan_instalments WHERE plan_id = ${planId} AND cycle = ${cycle}`)),
      ensureInstalment: (i) =>
        Effect.gen(function*() {
          const inserted = yield* instalment(sql`
            INSERT INTO plan_instalments ${sql.insert(instalmentColumns(i))}
            ON CONFLICT (plan_id, cycle) DO NOTHING
            RETURNING *`)
          if (Option.isSome(inserted)) return inserted.value
          // DO NOTHING: it exists (a concurrent insert waited on is committed by now, and this
          // separate statement sees it under READ COMMITTED)
          return yield* instalment(sql`SELECT * FROM plan_instalments WHERE plan_id = ${i.planId} AND cycle = ${i.cycle}`).pipe(
            theOne("ensureInstalment")
          )
        }).pipe(orDieDb),
      // one statement: made when missing, taken only while open with no attempt (else nothing written)
      // the payout hold goes in the same statement (a payout's statements are its CPU): released only
      // when the instalment was linked, and undone with it when the caller's unit of work rolls back
      linkInstalment: (i) =>
        orDieDb(instalment(sql`
          WITH linked AS (
            INSERT INTO plan_instalments ${sql.insert(instalmentColumns(i))}
            ON CONFLICT (plan_id, cycle) DO UPDATE SET
              transaction_id = EXCLUDED.transaction_id, amount_kobo = EXCLUDED.amount_kobo,
              due_at = EXCLUDED.due_at, updated_at = EXCLUDED.updated_at
            WHERE plan_instalments.status = 'open' AND plan_instalments.transaction_id IS NULL
            RETURNING *
          ), released AS (
            DELETE FROM payout_holds WHERE plan_id = ${i.planId} AND EXISTS (SELECT 1 FROM linked)
          )
          SELECT * FROM linked`)),
      saveInstalment: (i) =>
        instalment(sql`
          UPDATE plan_instalments SET ${
          sql.update({
            kind: i.kind,
            status: i.status,
            attempts: i.attempts,
            transactionId: i.transactionId,
            amountKobo: i.amountKobo.toString(),
            dueAt: i.dueAt,
            paidAt: i.paidAt,
            updatedAt: i.updatedAt
          })
        }
          WHERE plan_id = ${i.planId} AND cycle = ${i.cycle}
          RETURNING *`).pipe(theOne("saveInstalment"), orDieDb),
      // One statement, so no transaction around it: the plan's row is locked at the version the
      // caller read (none if it moved on), the instalment is marked paid only under that lock, and
      // the plan is written only if the instalment was
      // Only the lease and the version come back: every other column is written from `p` (or never
      // changes: id, customer, creation), and the lease is the one column a claim changes without
      // the version; reading back and decoding the whole row would only make a copy.
      markPaidAndSave: (p, cycle, transactionId, paidAt, now) =>
        orDieDb(sql`
          WITH current AS (
            SELECT id FROM disbursement_plans WHERE id = ${p.id} AND version = ${p.version} FOR UPDATE
          ), paid AS (
            UPDATE plan_instalments SET status = 'paid', paid_at = ${paidAt}, updated_at = ${now}
            WHERE plan_id IN (SELECT id FROM current) AND cycle = ${cycle} AND status = 'open'
              AND transaction_id = ${transactionId}
            RETURNING plan_id
          )
          UPDATE disbursement_plans SET ${sql.update(savedColumns(p))}, version = version + 1
          WHERE id IN (SELECT plan_id FROM paid) AND version = ${p.version}
          RETURNING lease_until, version`.pipe(
          Effect.flatMap(decodeLeaseAndVersion),
          Effect.map((rows) =>
            rows[0] === undefined ? Option.none<Plan>() : Option.some(instanceOf(Plan, { ...p, ...rows[0] }))
          )
        )),
      holdForPayout: (planId, at) =>
        orDieDb(sql`
          INSERT INTO payout_holds (plan_id, customer_id, since)
          SELECT id, customer_id, ${at} FROM disbursement_plans WHERE id = ${planId}
          ON CONFLICT (plan_id) DO NOTHING`).pipe(Effect.asVoid),
      listInstalments: (planId) =>
        orDieDb(instalments(sql`SELECT * FROM plan_instalments WHERE plan_id = ${planId} ORDER BY cycle`)),
      countMovements: (planId, purpose, since) =>
        orDieDb(sql<{ readonly total: string | number }>`
          SELECT count(*) AS total FROM transactions
          WHERE plan_id = ${planId} AND type = 'transfer' AND purpose = ${purpose} AND status <> 'failed'
            ${since === null ? sql`` : sql`AND created_at >= ${since}`}`).pipe(
          Effect.map((rows) => Number(rows[0]?.total ?? 0))
        )
    })
  })
)
