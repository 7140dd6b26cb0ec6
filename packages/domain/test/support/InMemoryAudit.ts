/**
 * An in-memory AuditRepo (rows in seq order; `lockHead` needs no lock in one fiber's tests) and a
 * ContentHash that is a real SHA-256 written in plain TypeScript, so chains can be checked in the
 * domain's tests without node:crypto. `AuditRows` reads and tampers with the rows.
 */
import { Context, Effect, Layer, Ref } from "effect"
import { AuditEntry, AuditRepo, ContentHash, GENESIS_HASH } from "../../src/admin/Audit.js"

export class AuditRows extends Context.Tag("test/AuditRows")<AuditRows, Ref.Ref<ReadonlyArray<AuditEntry>>>() {
  static readonly all = Effect.flatMap(AuditRows, Ref.get)
  static readonly edit = (seq: number, f: (e: AuditEntry) => AuditEntry) =>
    Effect.flatMap(AuditRows, (ref) => Ref.update(ref, (rows) => rows.map((e) => (e.seq === seq ? f(e) : e))))
  static readonly remove = (seq: number) =>
    Effect.flatMap(AuditRows, (ref) => Ref.update(ref, (rows) => rows.filter((e) => e.seq !== seq)))
}

const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
])

/** SHA-256 (FIPS 180-4) of UTF-8 text, hex. */
export const sha256Hex = (text: string): string => {
  const bytes = new TextEncoder().encode(text)
  const length = ((bytes.length + 9 + 63) >> 6) << 6
  const m = new Uint8Array(length)
  m.set(bytes)
  m[bytes.length] = 0x80
  new DataView(m.buffer).setUint32(length - 4, bytes.length * 8)
  new DataView(m.buffer).setUint32(length - 8, Math.floor(bytes.length / 0x20000000))
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))
  for (let off = 0; off < length; off += 64) {
    const view = new DataView(m.buffer, off, 64)
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(i * 4)
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3)
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!]
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0
    }
    const add = [a, b, c, d, e, f, g, hh]
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + add[i]!) >>> 0
  }
  return [...h].map((x) => x.toString(16).padStart(8, "0")).join("")
}

const AuditRepoLive = Layer.effect(
  AuditRepo,
  Effect.map(AuditRows, (ref) =>
    AuditRepo.of({
      lockHead: Effect.map(Ref.get(ref), (rows) => {
        const last = rows.at(-1)
        return last === undefined ? { seq: 0, hash: GENESIS_HASH } : { seq: last.seq, hash: last.hash }
      }),
      insert: (entry) => Ref.update(ref, (rows) => [...rows, entry]),
      list: (filter, page) =>
        Effect.map(Ref.get(ref), (rows) => {
          const hits = rows
            .filter((e) =>
              (filter.actorId === undefined || e.actorId === filter.actorId) &&
              (filter.action === undefined || e.action === filter.action) &&
              (filter.targetKind === undefined || e.targetKind === filter.targetKind) &&
              (filter.targetId === undefined || e.targetId === filter.targetId) &&
              (filter.from === undefined || e.at >= filter.from) &&
              (filter.until === undefined || e.at < filter.until)
            )
            .reverse()
          const start = (page.page - 1) * page.pageSize
          return { items: hits.slice(start, start + page.pageSize), page: page.page, pageSize: page.pageSize, total: hits.length }
        }),
      chunk: (after, limit) => Effect.map(Ref.get(ref), (rows) => rows.filter((e) => e.seq > after).slice(0, limit))
    }))
)

export const InMemoryAuditLive = Layer.mergeAll(AuditRepoLive, Layer.succeed(ContentHash, { sha256: (t) => Effect.succeed(sha256Hex(t)) })).pipe(
  Layer.provideMerge(Layer.effect(AuditRows, Ref.make<ReadonlyArray<AuditEntry>>([])))
)
