/**
 * The audit log: every staff action (and, through the same `record`, any other state change worth
 * proving) appends one row: who, what, the target, before/after (no secrets, no full personal
 * data), the time, and a hash chained to the previous row:
 *
 *   hash = SHA-256(previous hash + "\n" + canonical row)
 *
 * where the canonical row is the JSON of {seq, at, actorKind, actorId, action, targetKind,
 * targetId, before, after} with object keys sorted at every level, and the first row's previous
 * hash is 64 zeros. Appends are serialised (the repository locks the chain's head in the caller's
 * transaction), so the chain is one line. `verify` walks it in order and names the first row whose
 * hash or link does not match: an edit, a deletion or an insertion in SQL is caught.
 */
import { Context, Effect, Option, Schema } from "effect"
import { allKeys, SettingsStore } from "../settings/Settings.js"
import type { Page, PageRequest } from "../shared/Paging.js"
import { maskContact as maskEmailOrPhone } from "../shared/Email.js"
import { atomically, now } from "../shared/UseCase.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"

export const GENESIS_HASH = "0".repeat(64)

export const ActorKind = Schema.Literal("staff", "system", "customer")
export type ActorKind = typeof ActorKind.Type

/** A before/after snapshot: JSON, plus bigints and dates (stored as text in the canonical form). */
export type Json = null | boolean | number | string | bigint | Date | ReadonlyArray<Json> | { readonly [k: string]: Json }

export class AuditEntry extends Schema.Class<AuditEntry>("AuditEntry")({
  /** 1, 2, 3…: the position in the chain */
  seq: Schema.Number,
  at: Schema.DateFromSelf,
  actorKind: ActorKind,
  actorId: Schema.String,
  /** e.g. customer.freeze, settings.update, staff.invite */
  action: Schema.String,
  targetKind: Schema.String,
  targetId: Schema.String,
  before: Schema.NullOr(Schema.Unknown),
  after: Schema.NullOr(Schema.Unknown),
  prevHash: Schema.String,
  hash: Schema.String
}) {}

export interface AuditRecord {
  readonly actorKind: ActorKind
  readonly actorId: string
  readonly action: string
  readonly targetKind: string
  readonly targetId: string
  readonly before?: Json | null
  readonly after?: Json | null
}

export interface AuditFilter {
  readonly actorId?: string
  readonly action?: string
  readonly targetKind?: string
  readonly targetId?: string
  readonly from?: Date
  /** exclusive */
  readonly until?: Date
}

export class AuditRepo extends Context.Tag("domain/AuditRepo")<AuditRepo, {
  /**
   * The last row's seq and hash (0 and GENESIS_HASH when empty), LOCKING the chain's head until the
   * caller's transaction ends: call it inside a unit of work, then `insert`.
   */
  readonly lockHead: Effect.Effect<{ readonly seq: number; readonly hash: string }>
  readonly insert: (entry: AuditEntry) => Effect.Effect<void>
  /** Newest first. */
  readonly list: (filter: AuditFilter, page: PageRequest) => Effect.Effect<Page<AuditEntry>>
  /** Rows with seq > after, oldest first, at most `limit`. */
  readonly chunk: (after: number, limit: number) => Effect.Effect<ReadonlyArray<AuditEntry>>
}>() {}

/** SHA-256 of UTF-8 text, lower-case hex (a port: the domain has no crypto of its own). */
export class ContentHash extends Context.Tag("domain/ContentHash")<ContentHash, {
  readonly sha256: (text: string) => Effect.Effect<string>
}>() {}

const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value instanceof Date) return value.toISOString()
  if (typeof value === "bigint") return value.toString()
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]))
  }
  return value
}

/** The canonical text of a row (what its hash covers). */
export const canonical = (e: Omit<AuditEntry, "hash" | "prevHash">): string =>
  JSON.stringify(sortKeys({
    seq: e.seq,
    at: e.at.toISOString(),
    actorKind: e.actorKind,
    actorId: e.actorId,
    action: e.action,
    targetKind: e.targetKind,
    targetId: e.targetId,
    before: e.before ?? null,
    after: e.after ?? null
  }))

const hashOf = (prevHash: string, row: Omit<AuditEntry, "hash" | "prevHash">) =>
  Effect.flatMap(ContentHash, (h) => h.sha256(`${prevHash}\n${canonical(row)}`))

/**
 * Appends one row to the chain, in the caller's unit of work when there is one (so the row commits
 * with the change it records, or not at all).
 */
export const record = (input: AuditRecord) =>
  atomically(
    Effect.gen(function*() {
      const repo = yield* AuditRepo
      const head = yield* repo.lockHead
      const row = {
        seq: head.seq + 1,
        at: yield* now,
        actorKind: input.actorKind,
        actorId: input.actorId,
        action: input.action,
        targetKind: input.targetKind,
        targetId: input.targetId,
        // stored as JSON: the canonical form (sorted keys, ISO dates, bigint as text) is what is kept
        before: input.before === undefined || input.before === null ? null : JSON.parse(JSON.stringify(sortKeys(input.before))),
        after: input.after === undefined || input.after === null ? null : JSON.parse(JSON.stringify(sortKeys(input.after)))
      }
      const entry = new AuditEntry({ ...row, prevHash: head.hash, hash: yield* hashOf(head.hash, row) })
      yield* repo.insert(entry)
      return entry
    })
  )

export type VerifyResult =
  | { readonly ok: true; readonly rows: number; readonly lastHash: string }
  | { readonly ok: false; readonly rows: number; readonly brokenAt: number; readonly reason: string }

/** Walks the whole chain in order; the first row that does not match is named. */
export const verify = Effect.gen(function*() {
  const repo = yield* AuditRepo
  let prev = { seq: 0, hash: GENESIS_HASH }
  let rows = 0
  for (;;) {
    const chunk = yield* repo.chunk(prev.seq, 500)
    if (chunk.length === 0) return { ok: true, rows, lastHash: prev.hash } satisfies VerifyResult
    for (const e of chunk) {
      const broken = (reason: string) => ({ ok: false, rows, brokenAt: e.seq, reason }) satisfies VerifyResult
      if (e.seq !== prev.seq + 1) return broken(`row ${prev.seq + 1} is missing`)
      if (e.prevHash !== prev.hash) return broken("its previous hash is not the previous row's hash")
      if ((yield* hashOf(e.prevHash, e)) !== e.hash) return broken("its content does not match its hash")
      prev = { seq: e.seq, hash: e.hash }
      rows++
    }
  }
})

/**
 * Every stored setting's value is the `after` of its latest `settings.update` row: a change that
 * reached the settings without its audit row (written in SQL, or by a second process on the same
 * embedded database whose own writes were lost) breaks the log's promise as surely as an edited row.
 * A failure names that row's seq (0 when the setting has none).
 */
export const verifySettings = Effect.gen(function*() {
  const store = yield* SettingsStore
  const repo = yield* AuditRepo
  for (const key of allKeys) {
    const stored = yield* store.get(key)
    if (Option.isNone(stored)) continue
    const latest = (yield* repo.list({ action: "settings.update", targetKind: "setting", targetId: key }, { page: 1, pageSize: 1 })).items[0]
    if (latest === undefined) return { brokenAt: 0, reason: `setting ${key} has a value but no audit row` }
    if (JSON.stringify(sortKeys(stored.value)) !== JSON.stringify(sortKeys(latest.after))) {
      return { brokenAt: latest.seq, reason: `setting ${key}'s value is not the after of its latest audit row` }
    }
  }
  return null
})

/** The chain, then the settings against it (`verifySettings`). */
export const verifyAll = Effect.gen(function*() {
  const chain = yield* verify
  if (!chain.ok) return chain
  const settings = yield* verifySettings
  return settings === null ? chain : ({ ok: false, rows: chain.rows, ...settings } satisfies VerifyResult)
})

/** GET /admin/audit: the newest rows matching the filter (audit:read). */
export const browse = (actor: StaffMember, filter: AuditFilter, page: PageRequest) =>
  Effect.zipRight(requirePermission(actor, "audit:read"), Effect.flatMap(AuditRepo, (r) => r.list(filter, page)))

/** POST /admin/audit/verify (audit:verify). */
export const verifyFor = (actor: StaffMember) => Effect.zipRight(requirePermission(actor, "audit:verify"), verifyAll)

/** An email or phone in an audit row, masked (shared/Email.ts). */
export const maskContact = (value: string | null): string | null => (value === null ? null : maskEmailOrPhone(value))
