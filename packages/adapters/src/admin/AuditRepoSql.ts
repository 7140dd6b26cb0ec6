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

const toEntry = (r: Row) =>
  decodeEntry({
    seq: Number(r.seq),
    at: r.at,
    actorKind: r.actorKind,
    actorId: r.actorId,
    action: r.action,
    targetKind: r.targetKind,
    targetId: r.targetId,
    before: r.beforeJson === null ? null : JSON.parse(r.beforeJson),
    after: r.afterJson === null ? null : JSON.parse(r.afterJson),
    prevHash: r.prevHash,
    hash: r.hash
  })

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
      insert: (e) =>
        Effect.zipRight(
          sql`INSERT INTO audit_log ${
            sql.insert({
              seq: e.seq,
              at: e.at,
              actorKind: e.actorKind,
              actorId: e.actorId,
              action: e.action,
              targetKind: e.targetKind,
              targetId: e.targetId,
              beforeJson: e.before === null ? null : JSON.stringify(e.before),
              afterJson: e.after === null ? null : JSON.stringify(e.after),
              prevHash: e.prevHash,
              hash: e.hash
            })
          }`,
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
