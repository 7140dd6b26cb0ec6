/**
 * What the BankOne adapter sent (table `bankone_requests`, migration 0037; docs/bankone.md B5, B23,
 * B26, B33): every posting, transfer and lien is recorded BEFORE its request leaves, so
 *  - a status query can quote the original's date, type and amount (BankOne requires them);
 *  - a reference with no record was never sent (`requery` answers not_found without asking);
 *  - Account Enquiry's lien total can be attributed to our lien references;
 *  - the transaction list's credits we posted are told apart from money that arrived from outside;
 *  - the TSQ interval is kept per reference (`lastTsqAt`) and the pending count (`tsqCount`).
 *
 * Two implementations: SQL (the service's database; what production uses) and memory (the adapter's
 * unit tests and processes without a database).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Clock, Effect, Option } from "effect"

export type RequestKind = "debit" | "credit" | "transfer" | "lien"
export type RequestState = "sent" | "applied" | "removing" | "removed"

export interface SentRequest {
  readonly reference: string
  readonly kind: RequestKind
  readonly accountNumber: string
  readonly amountKobo: bigint
  /** the posting date as BankOne's TSQ takes it: YYYY-MM-DD, Lagos time (B22) */
  readonly sentOn: string
  readonly state: RequestState
  readonly tsqCount: number
  readonly lastTsqAt: Date | null
  readonly createdAt: Date
}

export interface BankOneJournal {
  /** records a request before it is sent; a reference already recorded keeps its first record (returned) */
  readonly record: (input: { reference: string; kind: RequestKind; accountNumber: string; amountKobo: bigint }) => Effect.Effect<SentRequest>
  readonly find: (reference: string) => Effect.Effect<Option.Option<SentRequest>>
  readonly setState: (reference: string, state: RequestState) => Effect.Effect<void>
  /** a status query was made now; `pending`: it answered Pending (counted) */
  readonly queried: (reference: string, pending: boolean) => Effect.Effect<SentRequest | undefined>
  /** the liens recorded on an account that are not known to be removed, oldest first */
  readonly liens: (accountNumber: string) => Effect.Effect<ReadonlyArray<SentRequest>>
  /** which of `references` are postings we sent */
  readonly ours: (references: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
}

/** Lagos is UTC+1 all year (no daylight saving). */
const LAGOS_OFFSET_MS = 60 * 60 * 1000
export const lagosDate = (at: Date): string => new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10)

export const memoryJournal = (): BankOneJournal => {
  const rows = new Map<string, SentRequest>()
  return {
    record: (input) =>
      Effect.map(Clock.currentTimeMillis, (ms) => {
        const existing = rows.get(input.reference)
        if (existing !== undefined) return existing
        const at = new Date(ms)
        const row: SentRequest = { ...input, sentOn: lagosDate(at), state: "sent", tsqCount: 0, lastTsqAt: null, createdAt: at }
        rows.set(input.reference, row)
        return row
      }),
    find: (reference) => Effect.sync(() => Option.fromNullable(rows.get(reference))),
    setState: (reference, state) =>
      Effect.sync(() => {
        const row = rows.get(reference)
        if (row !== undefined) rows.set(reference, { ...row, state })
      }),
    queried: (reference, pending) =>
      Effect.map(Clock.currentTimeMillis, (ms) => {
        const row = rows.get(reference)
        if (row === undefined) return undefined
        const next = { ...row, lastTsqAt: new Date(ms), tsqCount: row.tsqCount + (pending ? 1 : 0) }
        rows.set(reference, next)
        return next
      }),
    liens: (accountNumber) =>
      Effect.sync(() =>
        [...rows.values()].filter((r) => r.kind === "lien" && r.accountNumber === accountNumber && r.state !== "removed")
      ),
    ours: (references) =>
      Effect.sync(() => new Set(references.filter((r) => rows.get(r)?.kind === "debit" || rows.get(r)?.kind === "credit")))
  }
}

/** columns are aliased in camelCase (quoted), so rows read the same with or without the client's name transform */
interface Row {
  readonly reference: string
  readonly kind: RequestKind
  readonly accountNumber: string
  readonly amountKobo: string | number | bigint
  readonly sentOn: string
  readonly state: RequestState
  readonly tsqCount: number
  readonly lastTsqAt: Date | string | null
  readonly createdAt: Date | string
}

const fromRow = (row: Row): SentRequest => ({
  reference: row.reference,
  kind: row.kind,
  accountNumber: row.accountNumber,
  amountKobo: BigInt(row.amountKobo),
  sentOn: String(row.sentOn).slice(0, 10),
  state: row.state,
  tsqCount: Number(row.tsqCount),
  lastTsqAt: row.lastTsqAt === null ? null : new Date(row.lastTsqAt),
  createdAt: new Date(row.createdAt)
})

const COLUMNS = `reference, kind, account_number AS "accountNumber", amount_kobo::text AS "amountKobo",
  to_char(sent_on, 'YYYY-MM-DD') AS "sentOn", state, tsq_count AS "tsqCount", last_tsq_at AS "lastTsqAt", created_at AS "createdAt"`

/** The journal in the service's database. A database failure is a defect (the adapter cannot work safely without it). */
export const sqlJournal = (sql: SqlClient.SqlClient): BankOneJournal => {
  const one = (reference: string) =>
    Effect.map(
      sql.unsafe<Row>(`SELECT ${COLUMNS} FROM bankone_requests WHERE reference = $1`, [reference]),
      (rows) => Option.map(Option.fromNullable(rows[0]), fromRow)
    )
  return {
    record: (input) =>
      Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis)
        yield* sql`
          INSERT INTO bankone_requests (reference, kind, account_number, amount_kobo, sent_on, state, created_at)
          VALUES (${input.reference}, ${input.kind}, ${input.accountNumber}, ${input.amountKobo.toString()}::bigint,
                  ${lagosDate(at)}::date, 'sent', ${at})
          ON CONFLICT (reference) DO NOTHING`
        return Option.getOrThrow(yield* one(input.reference))
      }).pipe(Effect.orDie),
    find: (reference) => Effect.orDie(one(reference)),
    setState: (reference, state) =>
      Effect.orDie(Effect.asVoid(sql`UPDATE bankone_requests SET state = ${state} WHERE reference = ${reference}`)),
    queried: (reference, pending) =>
      Effect.gen(function*() {
        const at = new Date(yield* Clock.currentTimeMillis)
        yield* sql`
          UPDATE bankone_requests SET last_tsq_at = ${at}, tsq_count = tsq_count + ${pending ? 1 : 0}
          WHERE reference = ${reference}`
        return Option.getOrUndefined(yield* one(reference))
      }).pipe(Effect.orDie),
    liens: (accountNumber) =>
      Effect.map(
        sql.unsafe<Row>(
          `SELECT ${COLUMNS} FROM bankone_requests
           WHERE kind = 'lien' AND account_number = $1 AND state <> 'removed' ORDER BY created_at, reference`,
          [accountNumber]
        ),
        (rows) => rows.map(fromRow)
      ).pipe(Effect.orDie),
    ours: (references) =>
      references.length === 0
        ? Effect.succeed(new Set<string>())
        : Effect.map(
          sql<{ reference: string }>`
            SELECT reference FROM bankone_requests
            WHERE kind IN ('debit', 'credit') AND reference IN ${sql.in(references)}`,
          (rows) => new Set(rows.map((r) => r.reference))
        ).pipe(Effect.orDie)
  }
}
