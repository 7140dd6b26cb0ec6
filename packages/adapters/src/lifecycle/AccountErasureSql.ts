import * as SqlClient from "@effect/sql/SqlClient"
import type { Statement } from "@effect/sql/Statement"
import { AccountErasure, DeletionRecord, type Erasure } from "@app/domain"
import { Effect, Layer, Option, type Redacted, Schema } from "effect"
import { AppConfig } from "../AppConfig.js"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"
import { isSealed, open, retentionKeyFrom, seal } from "./RetentionSeal.js"

type Sql = SqlClient.SqlClient

/**
 * What is counted for the deletion record: name → a query answering one row `{ n }`.
 *
 * >>> MERGE POINT: features that keep per-customer data add their counter here (e.g. the spending
 * >>> log: `spendings: (sql, e) => sql\`SELECT count(*)::int AS n FROM spendings WHERE customer_id = ...\``,
 * >>> support tickets: `tickets: …`), so the deletion record lists what was tied to the user.
 */
const COUNTERS: ReadonlyArray<readonly [string, (sql: Sql, e: Erasure) => Statement<{ n: number }>]> = [
  ["transactions", (sql, e) => sql`SELECT count(*)::int AS n FROM transactions WHERE customer_id = ${e.customerId}`],
  ["beneficiaries", (sql, e) => sql`SELECT count(*)::int AS n FROM beneficiaries WHERE customer_id = ${e.customerId}`],
  ["plans", (sql, e) => sql`SELECT count(*)::int AS n FROM disbursement_plans WHERE customer_id = ${e.customerId}`],
  ["notices", (sql, e) => sql`SELECT count(*)::int AS n FROM notices WHERE customer_id = ${e.customerId}`],
  ["sessions", (sql, e) => sql`SELECT count(*)::int AS n FROM refresh_tokens WHERE account_id = ${e.accountId}`],
  ["spendings", (sql, e) => sql`SELECT count(*)::int AS n FROM spendings WHERE customer_id = ${e.customerId}`],
  ["tickets", (sql, e) => sql`SELECT count(*)::int AS n FROM support_tickets WHERE customer_id = ${e.customerId}`]
]

/**
 * What is kept for the retention period: each kind's rows as JSON text, one record per row. They are
 * sealed (RetentionSeal.ts: AES-256-GCM under RETENTION_KEY) and stored in `retained_records` under
 * the deletion's id only (no customer id), before the live rows go: nothing personal is readable
 * from the database without the key.
 */
const RETAINED: ReadonlyArray<readonly [kind: string, (sql: Sql, e: Erasure) => Statement<{ payload: string }>]> = [
  // the KYC record: who the customer was, as verified
  ["kyc", (sql, e) => sql`
    SELECT jsonb_build_object(
      'accountId', a.id, 'customerId', c.id, 'email', a.email, 'phone', a.phone,
      'firstName', a.first_name, 'lastName', a.last_name, 'otherNames', a.other_names,
      'dateOfBirth', a.date_of_birth, 'gender', a.gender, 'address', a.address,
      'bvnHash', c.bvn_hash, 'kycStatus', c.kyc_status,
      'coreAccountNumber', c.core_account_number, 'coreAccountReference', c.core_account_reference,
      'registeredAt', a.created_at, 'firstDepositAt', c.first_deposit_at
    )::text AS payload
    FROM accounts a JOIN customers c ON c.account_id = a.id WHERE c.id = ${e.customerId}`],
  ["transaction", (sql, e) => sql`
    SELECT to_jsonb(t)::text AS payload FROM transactions t WHERE t.customer_id = ${e.customerId} ORDER BY t.created_at, t.id`],
  ["plan", (sql, e) => sql`
    SELECT to_jsonb(p)::text AS payload FROM disbursement_plans p WHERE p.customer_id = ${e.customerId} ORDER BY p.created_at, p.id`],
  ["plan_instalment", (sql, e) => sql`
    SELECT to_jsonb(i)::text AS payload
    FROM plan_instalments i JOIN disbursement_plans p ON p.id = i.plan_id WHERE p.customer_id = ${e.customerId}
    ORDER BY i.plan_id, i.cycle`]
]

/** Rows per INSERT of sealed records (4 parameters each, far below PostgreSQL's 65535). */
const INSERT_CHUNK = 500

/**
 * The kind of a `retained_records` row that is not a retained record but a hold on an outbox message
 * kept by a deletion (see OUTBOX_KEPT): its payload is `{outboxId}` (a random id, nothing personal),
 * unsealed so that the purge can release it in SQL; its retain_until is the deletion's time.
 */
export const OUTBOX_HOLD = "outbox_hold"

/**
 * The deleted customer's messages in `notification_outbox` (recipient and bodies are personal): those
 * addressed to the account's email or phone. All are deleted except a closure statement
 * (`account_closed`: where the swept money went) still pending, which is delivered first: an
 * `outbox_hold` row marks it, and the daily purge deletes it once it is sent (or failed for good).
 */
const OUTBOX_OF = (sql: Sql, e: Erasure) => sql`
  recipient IN (
    SELECT email FROM accounts WHERE id = ${e.accountId}
    UNION SELECT phone FROM accounts WHERE id = ${e.accountId} AND phone IS NOT NULL
  )`
const OUTBOX_KEPT = (sql: Sql) => sql`(status = 'pending' AND kind = 'account_closed')`

/**
 * What is erased, in order (after the retained copies are made). A feature that keeps personal data
 * adds its erase statement here (devices and avatars, should they ever be stored).
 */
const ERASERS: ReadonlyArray<(sql: Sql, e: Erasure) => Statement<never>> = [
  // the outbox first: it is matched by the email and phone the tombstone below erases
  (sql, e) => sql`
    INSERT INTO retained_records (deletion_id, kind, payload, retain_until)
    SELECT ${e.deletionId}, ${OUTBOX_HOLD}, jsonb_build_object('outboxId', id), ${e.now}
    FROM notification_outbox WHERE ${OUTBOX_OF(sql, e)} AND ${OUTBOX_KEPT(sql)}`,
  (sql, e) => sql`DELETE FROM notification_outbox WHERE ${OUTBOX_OF(sql, e)} AND NOT ${OUTBOX_KEPT(sql)}`,
  (sql, e) => sql`DELETE FROM plan_instalments WHERE plan_id IN (SELECT id FROM disbursement_plans WHERE customer_id = ${e.customerId})`,
  (sql, e) => sql`DELETE FROM disbursement_plans WHERE customer_id = ${e.customerId}`,
  // never the customer's transactions: the ledger is kept (the spec's 5 years), and a movement that
  // is not final yet (a transfer the bank answered "pending", before this rule) is still driven and
  // reconciled to its final state, its reversal included (see Steps.afterReversal)
  (sql, e) => sql`DELETE FROM notices WHERE customer_id = ${e.customerId}`,
  (sql, e) => sql`DELETE FROM beneficiaries WHERE customer_id = ${e.customerId}`,
  (sql, e) => sql`DELETE FROM pin_guards WHERE customer_id = ${e.customerId}`,
  (sql, e) => sql`DELETE FROM refresh_tokens WHERE account_id = ${e.accountId}`,
  (sql, e) => sql`DELETE FROM one_time_codes WHERE account_id = ${e.accountId}`,
  // the spending log is personal and not a financial record of ours: erased, with its report claims
  (sql, e) => sql`DELETE FROM spendings WHERE customer_id = ${e.customerId}`,
  (sql, e) => sql`DELETE FROM spending_report_claims WHERE customer_id = ${e.customerId}`,
  // support tickets stay for the deletion's review (counted above), closed, with what the customer
  // wrote (subjects and messages) erased; staff replies and internal notes carry no customer data
  (sql, e) => sql`
    UPDATE support_tickets SET subject = '[erased]', status = 'closed', updated_at = ${e.now}
    WHERE customer_id = ${e.customerId}`,
  (sql, e) => sql`
    UPDATE support_ticket_messages SET body = '[erased at account deletion]'
    WHERE author_kind = 'customer' AND ticket_id IN (SELECT id FROM support_tickets WHERE customer_id = ${e.customerId})`,
  // the personal fields: a non-personal tombstone frees the email (NOT NULL, unique); phone is null
  (sql, e) => sql`
    UPDATE accounts SET
      email = ${`deleted-${e.accountId}@deleted.invalid`}, phone = NULL, password_hash = NULL,
      first_name = NULL, last_name = NULL, other_names = NULL, date_of_birth = NULL, gender = NULL,
      address = NULL, display_name = NULL, whatsapp_number = NULL,
      email_verified = false, phone_verified = false, updated_at = ${e.now}
    WHERE id = ${e.accountId}`,
  // BVN freed, PIN and preferences erased; the core account number goes to the KYC record, and only
  // its keyed digest stays, so money arriving for it later is recorded and alerted (Deposits.ts)
  (sql, e) => sql`
    UPDATE customers SET
      bvn_hash = NULL, pin_hash = NULL, core_account_number = NULL, core_account_reference = NULL,
      erased_core_account_digest = ${e.coreAccountDigest},
      sms_enabled = true, email_enabled = true, updated_at = ${e.now}
    WHERE id = ${e.customerId}`
]

export const DeletionRow = Schema.Struct({
  ...DeletionRecord.fields,
  lastBalanceKobo: Schema.NullOr(Schema.BigInt),
  counts: Schema.Union(
    Schema.Record({ key: Schema.String, value: Schema.Number }),
    Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Number }))
  )
})

/** Seals each retained row of `e` and stores it under the deletion's id (in the caller's unit of work). */
const retain = (sql: Sql, key: Buffer, e: Erasure) =>
  Effect.gen(function*() {
    for (const [kind, query] of RETAINED) {
      const rows = (yield* query(sql, e)).map((r) => ({
        deletionId: e.deletionId,
        kind,
        payload: JSON.stringify(seal(key, r.payload, e.deletionId, kind)),
        retainUntil: e.retainUntil
      }))
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        yield* sql`INSERT INTO retained_records ${sql.insert(rows.slice(i, i + INSERT_CHUNK))}`
      }
    }
  })

const StoredRow = Schema.Struct({
  id: Schema.Union(Schema.String, Schema.Number, Schema.BigIntFromSelf),
  deletionId: Schema.String,
  kind: Schema.String,
  payload: Schema.Union(Schema.parseJson(Schema.Unknown), Schema.Unknown)
})

/**
 * Seals records stored in clear (by a version that did not seal them yet); run by the purge, so a
 * database upgraded with such rows has none left after the next daily run. A row sealed meanwhile by
 * another process is left alone (`payload->>'ct' IS NULL` is checked again by the update).
 */
const sealLegacy = (sql: Sql, key: Buffer) =>
  Effect.gen(function*() {
    const rows = yield* sql<{ id: string; deletionId: string; kind: string; payload: string }>`
      SELECT id::text AS id, deletion_id::text AS deletion_id, kind, payload::text AS payload FROM retained_records
      WHERE kind <> ${OUTBOX_HOLD} AND payload->>'ct' IS NULL`
    for (const r of rows) {
      const sealed = JSON.stringify(seal(key, r.payload, r.deletionId, r.kind))
      yield* sql`UPDATE retained_records SET payload = ${sealed} WHERE id = ${r.id}::int8 AND payload->>'ct' IS NULL`
    }
    return rows.length
  })

/**
 * The retained records of a deletion, opened with RETENTION_KEY (the only way to read them):
 * `{kind, record}` in storage order, `record` the row as it was in its live table (column names
 * snake_case) or the KYC record. Fails (a defect) when a record does not open with this key. The
 * outbox holds are not records and are not listed.
 */
export const readRetained = (retentionKey: Redacted.Redacted<string>, deletionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const key = retentionKeyFrom(retentionKey)
    const rows = yield* sql`
      SELECT id, deletion_id, kind, payload FROM retained_records
      WHERE deletion_id = ${deletionId} AND kind <> ${OUTBOX_HOLD} ORDER BY id`.pipe(Effect.flatMap(decodeRows(StoredRow)))
    return rows.map((r) => {
      if (!isSealed(r.payload)) throw new Error(`retained record ${String(r.id)} is not sealed`)
      return { kind: r.kind, record: JSON.parse(open(key, r.payload, r.deletionId, r.kind)) as unknown }
    })
  }).pipe(orDieDb)

/** The erasure of a deleted customer's data (see the domain's AccountErasure). */
export const AccountErasureSql = Layer.effect(
  AccountErasure,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const key = retentionKeyFrom((yield* AppConfig).retentionKey)
    const decode = decodeRows(DeletionRow)
    return AccountErasure.of({
      erase: (e) =>
        orDieDb(Effect.gen(function*() {
          // the status first: it locks the customer's row, and a second deletion finds it done
          const marked = yield* sql`
            UPDATE customers SET customer_status = 'deleted', updated_at = ${e.now}
            WHERE id = ${e.customerId} AND customer_status <> 'deleted'
            RETURNING id`
          if (marked.length === 0) return Option.none()
          const counts: Record<string, number> = {}
          for (const [name, query] of COUNTERS) counts[name] = Number((yield* query(sql, e))[0]?.n ?? 0)
          yield* retain(sql, key, e)
          for (const statement of ERASERS) yield* statement(sql, e)
          return Option.some(counts)
        })),
      recordDeletion: (r) =>
        orDieDb(sql`
          INSERT INTO deletion_records ${sql.insert({
            id: r.id,
            customerId: r.customerId,
            status: r.status,
            via: r.via,
            counts: JSON.stringify(r.counts),
            planId: r.planId,
            lastBalanceKobo: r.lastBalanceKobo === null ? null : r.lastBalanceKobo.toString(),
            retainUntil: r.retainUntil,
            createdAt: r.createdAt
          })}`).pipe(Effect.asVoid),
      findDeletion: (customerId) =>
        sql`SELECT * FROM deletion_records WHERE customer_id = ${customerId}`.pipe(
          Effect.flatMap(decode),
          Effect.map((rs) => Option.fromNullable(rs[0]).pipe(Option.map((r) => new DeletionRecord(r)))),
          orDieDb
        ),
      purgeRetained: (now) =>
        orDieDb(Effect.gen(function*() {
          const purged = yield* sql`
            DELETE FROM retained_records WHERE retain_until < ${now} AND kind <> ${OUTBOX_HOLD} RETURNING id`
          // kept closure statements: deleted once they are no longer pending, then their holds
          yield* sql`
            DELETE FROM notification_outbox o USING retained_records h
            WHERE h.kind = ${OUTBOX_HOLD} AND o.id = (h.payload->>'outboxId')::uuid AND o.status <> 'pending'`
          yield* sql`
            DELETE FROM retained_records h
            WHERE h.kind = ${OUTBOX_HOLD}
              AND NOT EXISTS (SELECT 1 FROM notification_outbox o WHERE o.id = (h.payload->>'outboxId')::uuid)`
          yield* sealLegacy(sql, key)
          return purged.length
        }))
    })
  })
)
