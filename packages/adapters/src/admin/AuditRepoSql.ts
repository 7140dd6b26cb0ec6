/** The audit log on SQL (migration 0018): rows in `audit_log`, the chain's head in `audit_head`. */
import * as SqlClient from "@effect/sql/SqlClient"
import { AuditEntry, AuditRepo, ContentHash } from "@app/domain"
import { Effect, Layer, Schema } from "effect"
import { createHash } from "node:crypto"
import { orDieDb } from "../sql/SqlSupport.js"

interface Row {
  readonly seq: string | number
  readonly at: Date
  readonly actorKind: string
  readonly actorId: string
  readonly action: string
  readonly targetKind: string
  readonly targetId: string
  readonly beforeJson: string | null
  readonly afterJson: string | null
  readonly prevHash: string
  readonly hash: string
}

const decodeEntry = Schema.decodeUnknown(AuditEntry)

/** `before` and `after` are kept as JSON text (null stays null). */
const toJson = (value: unknown) => (value === null ? null : JSON.stringify(value))
const fromJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text))

const toEntry = ({ afterJson, beforeJson, ...r }: Row) =>
  decodeEntry({ ...r, seq: Number(r.seq), before: fromJson(beforeJson), after: fromJson(afterJson) })

export const AuditRepoSql = Layer.effect(
  AuditRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const entries = (rows: ReadonlyArray<Row>) => Effect.forEach(rows, toEntry)
    return AuditRepo.of({
      lockHead: sql<{ seq: string | number; hash: string }>`SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE`.pipe(
        Effect.map((rows) => ({ seq: Number(rows[0]!.seq), hash: rows[0]!.hash })),
        orDieDb
      ),
      insert: ({ after, before, ...e }) =>
        Effect.zipRight(
          sql`INSERT INTO audit_log ${sql.insert({ ...e, beforeJson: toJson(before), afterJson: toJson(after) })}`,
          sql`UPDATE audit_head SET seq = ${e.seq}, hash = ${e.hash} WHERE id = 1`
        ).pipe(Effect.asVoid, orDieDb),
      list: (f, page) => {
        const where = sql.and([
          ...(f.actorId === undefined ? [] : [sql`actor_id = ${f.actorId}`]),
          ...(f.action === undefined ? [] : [sql`action = ${f.action}`]),
          ...(f.targetKind === undefined ? [] : [sql`target_kind = ${f.targetKind}`]),
          ...(f.targetId === undefined ? [] : [sql`target_id = ${f.targetId}`]),
          ...(f.from === undefined ? [] : [sql`at >= ${f.from}`]),
          ...(f.until === undefined ? [] : [sql`at < ${f.until}`])
        ])
        return Effect.all({
          rows: sql<Row>`SELECT * FROM audit_log WHERE ${where} ORDER BY seq DESC LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`,
          total: sql<{ n: string | number }>`SELECT count(*) AS n FROM audit_log WHERE ${where}`
        }).pipe(
          Effect.flatMap(({ rows, total }) =>
            Effect.map(entries(rows), (items) => ({ items, page: page.page, pageSize: page.pageSize, total: Number(total[0]?.n ?? 0) }))
          ),
          orDieDb
        )
      },
      chunk: (after, limit) =>
        sql<Row>`SELECT * FROM audit_log WHERE seq > ${after} ORDER BY seq LIMIT ${limit}`.pipe(Effect.flatMap(entries), orDieDb)
    })
  })
)

export const ContentHashLive = Layer.succeed(ContentHash, {
  sha256: (text) => Effect.sync(() => createHash("sha256").update(text, "utf8").digest("hex"))
})
