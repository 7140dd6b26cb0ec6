/**
 * The seal of the retention store (`retained_records`): what a deletion keeps for 5 years (the KYC
 * record, transactions, plans) is stored encrypted, so nothing personal can be read from the
 * database without RETENTION_KEY.
 *
 * - AES-256-GCM (node:crypto) under a 32-byte key derived from RETENTION_KEY with HKDF-SHA256
 *   (fixed salt and info: the same secret always gives the same key, and the key is used for this
 *   and nothing else);
 * - a fresh random 96-bit IV per record; the 128-bit tag authenticates the ciphertext and, as
 *   additional data, the record's deletion id and kind, so a sealed payload moved to another
 *   deletion or kind no longer opens;
 * - stored in the row's `payload` (jsonb) as `{v: 1, alg: "A256GCM", iv, tag, ct}`, base64 each.
 *
 * Changing RETENTION_KEY makes the records sealed under the old key unreadable (they are still
 * purged on retain_until); `v` leaves room for a rotation scheme.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"
import { Redacted } from "effect"

export interface SealedPayload {
  readonly v: 1
  readonly alg: "A256GCM"
  /** base64 of the 12-byte IV */
  readonly iv: string
  /** base64 of the 16-byte authentication tag */
  readonly tag: string
  /** base64 of the ciphertext of the record's JSON */
  readonly ct: string
}

/** The AES-256 key of the retention store, derived from RETENTION_KEY. */
export const retentionKeyFrom = (secret: Redacted.Redacted<string>): Buffer =>
  Buffer.from(hkdfSync("sha256", Redacted.value(secret), "kobo-plans retained_records", "AES-256-GCM v1", 32))

const additionalData = (deletionId: string, kind: string) => Buffer.from(`retained_records\u0000${deletionId}\u0000${kind}`, "utf8")

/** Seals one record's JSON text. */
export const seal = (key: Buffer, plaintext: string, deletionId: string, kind: string): SealedPayload => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(additionalData(deletionId, kind))
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return { v: 1, alg: "A256GCM", iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), ct: ct.toString("base64") }
}

export const isSealed = (payload: unknown): payload is SealedPayload =>
  typeof payload === "object" && payload !== null && (payload as SealedPayload).v === 1 &&
  (payload as SealedPayload).alg === "A256GCM" && typeof (payload as SealedPayload).ct === "string"

/** Opens a sealed record (its JSON text); throws when the key, deletion id or kind is not the one it was sealed with. */
export const open = (key: Buffer, sealed: SealedPayload, deletionId: string, kind: string): string => {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"))
  decipher.setAAD(additionalData(deletionId, kind))
  decipher.setAuthTag(Buffer.from(sealed.tag, "base64"))
  return Buffer.concat([decipher.update(Buffer.from(sealed.ct, "base64")), decipher.final()]).toString("utf8")
}
