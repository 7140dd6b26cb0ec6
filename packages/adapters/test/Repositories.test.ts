/**
 * The SQL repositories against a real database: PGlite, or PostgreSQL when TEST_DATABASE_URL is
 * set (CI runs both). Concurrency tests matter most on PostgreSQL, where statements really run in
 * parallel on several connections.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Account, AccountId, AccountRepo, Customer, CustomerId, OtpRepo, RefreshToken, RefreshTokenRepo, UnitOfWork } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

const newAccount = (n: { email: string; phone?: string; referralCode?: string }) => {
  const accountId = AccountId.make(randomUUID())
  return {
    account: new Account({
      id: accountId,
      email: n.email,
      phone: n.phone ?? null,
      passwordHash: "hash",
      firstName: "Ada",
      lastName: "Obi",
      otherNames: null,
      dateOfBirth: "1990-01-31",
      gender: "female",
      address: "1 Marina, Lagos",
      emailVerified: false,
      phoneVerified: false,
      createdAt: at,
      updatedAt: at
    }),
    customer: new Customer({
      id: CustomerId.make(randomUUID()),
      accountId,
      customerStatus: "unverified",
      kycStatus: "pending",
      referralCode: n.referralCode ?? randomUUID().slice(0, 8).toUpperCase(),
      referredBy: null,
      pinHash: null,
      smsEnabled: true,
      emailEnabled: true,
      createdAt: at,
      updatedAt: at
    })
  }
}

const newOtp = (accountId: AccountId, createdAt = at) => ({
  id: randomUUID(),
  accountId,
  channel: "email" as const,
  purpose: "email_verification" as const,
  destination: "x@example.com",
  codeHash: "digest",
  maxAttempts: 5,
  expiresAt: new Date(createdAt.getTime() + 600_000),
  createdAt
})

layer(Repos, { timeout: "60 seconds" })(`SQL repositories (${describeBackend()})`, (it) => {
  describe("AccountRepo", () => {
    it.effect("round-trips an account with its customer, dates and date of birth intact", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const input = newAccount({ email: "roundtrip@example.com", phone: "+2348030000001" })
        yield* repo.create(input)
        const found = Option.getOrThrow(yield* repo.findById(input.account.id))
        expect(found.account).toEqual(input.account)
        expect(found.customer).toEqual(input.customer)
        expect(Option.getOrThrow(yield* repo.findByEmail("roundtrip@example.com")).account.id).toBe(input.account.id)
        expect(Option.getOrThrow(yield* repo.findByPhone("+2348030000001")).account.id).toBe(input.account.id)
        expect(yield* repo.emailExists("roundtrip@example.com")).toBe(true)
        expect(yield* repo.phoneExists("+2348030000009")).toBe(false)
        expect(Option.isNone(yield* repo.findById(AccountId.make(randomUUID())))).toBe(true)
      }))

    it.effect("a taken email, phone or referral code fails with that field, and writes nothing", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        yield* repo.create(newAccount({ email: "taken@example.com", phone: "+2348030000002", referralCode: "TAKEN234" }))
        const dupEmail = yield* Effect.flip(repo.create(newAccount({ email: "taken@example.com" })))
        const dupPhone = yield* Effect.flip(repo.create(newAccount({ email: "other1@example.com", phone: "+2348030000002" })))
        const dupCode = newAccount({ email: "other2@example.com", referralCode: "TAKEN234" })
        const dupReferral = yield* Effect.flip(repo.create(dupCode))
        expect([dupEmail.field, dupPhone.field, dupReferral.field]).toEqual(["email", "phone", "referralCode"])
        // the account row of the failed customer insert was rolled back with it
        expect(yield* repo.emailExists("other2@example.com")).toBe(false)
      }))

    it.effect("concurrent registrations of one email: exactly one wins", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const results = yield* Effect.all(
          Array.from({ length: 8 }, () => Effect.either(repo.create(newAccount({ email: "race@example.com" })))),
          { concurrency: "unbounded" }
        )
        expect(results.filter((r) => r._tag === "Right")).toHaveLength(1)
      }))

    it.effect("status transitions only from the expected state; verification flags and password", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const input = newAccount({ email: "status@example.com" })
        yield* repo.create(input)
        yield* repo.transitionStatus(input.account.id, "verified", "active", later(1))
        expect(Option.getOrThrow(yield* repo.findById(input.account.id)).customer.customerStatus).toBe("unverified")
        yield* repo.transitionStatus(input.account.id, "unverified", "verified", later(2))
        yield* repo.markEmailVerified(input.account.id, later(2))
        yield* repo.markPhoneVerified(input.account.id, later(2))
        yield* repo.setPasswordHash(input.account.id, "new-hash", later(3))
        const found = Option.getOrThrow(yield* repo.findById(input.account.id))
        expect(found.customer.customerStatus).toBe("verified")
        expect(found.account.emailVerified && found.account.phoneVerified).toBe(true)
        expect(found.account.passwordHash).toBe("new-hash")
        expect(found.account.updatedAt).toEqual(later(3))
      }))

    it.effect("findStanding: the customer's status and bank account number as findByCustomerId has them; none for no such customer", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const input = newAccount({ email: "standing@example.com" })
        yield* repo.create(input)
        const standingOf = (id: CustomerId) =>
          Effect.map(repo.findByCustomerId(id), Option.map(({ customer }) => ({
            customerStatus: customer.customerStatus,
            coreAccountNumber: customer.coreAccountNumber
          })))
        const before = Option.getOrThrow(yield* repo.findStanding(input.customer.id))
        expect(before).toEqual({ customerStatus: "unverified", coreAccountNumber: null })
        expect(before).toEqual(Option.getOrThrow(yield* standingOf(input.customer.id)))

        yield* repo.transitionStatus(input.account.id, "unverified", "verified", later(1))
        yield* repo.setCoreAccount(input.account.id, { accountNumber: "3000000777", reference: "REF-777" }, later(2))
        const after = Option.getOrThrow(yield* repo.findStanding(input.customer.id))
        expect(after).toEqual({ customerStatus: "verified", coreAccountNumber: "3000000777" })
        expect(after).toEqual(Option.getOrThrow(yield* standingOf(input.customer.id)))
        expect(Option.isNone(yield* repo.findStanding(CustomerId.make(randomUUID())))).toBe(true)
      }))
  })

  describe("OtpRepo", () => {
    it.effect("issuing a code retires the live one of the same purpose; latest and issuedSince", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepo
        const otps = yield* OtpRepo
        const owner = newAccount({ email: "otp1@example.com" })
        yield* accounts.create(owner)
        const first = newOtp(owner.account.id, at)
        const second = newOtp(owner.account.id, later(60_000))
        yield* otps.issue(first)
        yield* otps.issue(second)
        expect(Option.getOrThrow(yield* otps.findById(first.id)).consumedAt).toEqual(second.createdAt)
        expect(Option.getOrThrow(yield* otps.latest(owner.account.id, "email_verification")).id).toBe(second.id)
        expect(Option.isNone(yield* otps.latest(owner.account.id, "password_reset"))).toBe(true)
        expect(yield* otps.issuedSince(owner.account.id, "email_verification", later(1))).toEqual([second.createdAt])
        expect(yield* otps.issuedSince(owner.account.id, "email_verification", at)).toEqual([at, second.createdAt])
      }))

    it.effect("12 parallel guesses spend exactly 5 attempts; only live codes can be claimed or consumed", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepo
        const otps = yield* OtpRepo
        const owner = newAccount({ email: "otp2@example.com" })
        yield* accounts.create(owner)
        const code = newOtp(owner.account.id)
        yield* otps.issue(code)
        const claims = yield* Effect.all(Array.from({ length: 12 }, () => otps.claimAttempt(code.id, later(1))), {
          concurrency: "unbounded"
        })
        expect(claims.filter(Option.isSome)).toHaveLength(5)
        expect(Option.getOrThrow(yield* otps.findById(code.id)).attempts).toBe(5)

        const fresh = newOtp(owner.account.id, later(120_000))
        yield* otps.issue(fresh)
        expect(Option.isNone(yield* otps.claimAttempt(fresh.id, fresh.expiresAt))).toBe(true) // expired at that instant
        const consumed = yield* Effect.all(Array.from({ length: 6 }, () => otps.consume(fresh.id, later(120_001))), {
          concurrency: "unbounded"
        })
        expect(consumed.filter((x) => x)).toHaveLength(1)
        expect(Option.isNone(yield* otps.claimAttempt(fresh.id, later(120_002)))).toBe(true) // used
      }))

    it.effect("purgeCreatedBefore deletes only older codes", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepo
        const otps = yield* OtpRepo
        const owner = newAccount({ email: "otp3@example.com" })
        yield* accounts.create(owner)
        const old = newOtp(owner.account.id, new Date("2020-01-01T00:00:00Z"))
        yield* otps.issue(old)
        const purged = yield* otps.purgeCreatedBefore(new Date("2020-01-02T00:00:00Z"))
        expect(purged).toBeGreaterThanOrEqual(1)
        expect(Option.isNone(yield* otps.findById(old.id))).toBe(true)
        expect(Option.isSome(yield* otps.latest(owner.account.id, "email_verification"))).toBe(false)
      }))
  })

  describe("RefreshTokenRepo and UnitOfWork", () => {
    const token = (accountId: AccountId, familyId: string) =>
      new RefreshToken({
        id: randomUUID(),
        accountId,
        familyId,
        tokenHash: randomUUID(),
        expiresAt: later(86_400_000),
        usedAt: null,
        revokedAt: null,
        createdAt: at
      })

    it.effect("a token is marked used exactly once under concurrency; revocation by family and account", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepo
        const tokens = yield* RefreshTokenRepo
        const owner = newAccount({ email: "rt1@example.com" })
        yield* accounts.create(owner)
        const family = randomUUID()
        const a = token(owner.account.id, family)
        const b = token(owner.account.id, family)
        const other = token(owner.account.id, randomUUID())
        yield* Effect.forEach([a, b, other], tokens.insert)
        const marks = yield* Effect.all(Array.from({ length: 8 }, () => tokens.markUsed(a.id, later(1))), {
          concurrency: "unbounded"
        })
        expect(marks.filter((x) => x)).toHaveLength(1)
        expect(Option.getOrThrow(yield* tokens.findByHash(a.tokenHash)).usedAt).toEqual(later(1))
        yield* tokens.revokeFamily(family, later(2))
        expect(Option.getOrThrow(yield* tokens.findByHash(b.tokenHash)).revokedAt).toEqual(later(2))
        expect(yield* tokens.markUsed(b.id, later(3))).toBe(false) // revoked
        expect(Option.getOrThrow(yield* tokens.findByHash(other.tokenHash)).revokedAt).toBeNull()
        yield* tokens.revokeAllForAccount(owner.account.id, later(4))
        expect(Option.getOrThrow(yield* tokens.findByHash(other.tokenHash)).revokedAt).toEqual(later(4))
        expect(Option.isNone(yield* tokens.findByHash("unknown"))).toBe(true)
      }))

    it.effect("atomically rolls back every write when the unit of work fails", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepo
        const uow = yield* UnitOfWork
        const owner = newAccount({ email: "uow@example.com" })
        yield* accounts.create(owner)
        const failed = yield* Effect.flip(uow.atomically(Effect.gen(function*() {
          yield* accounts.markEmailVerified(owner.account.id, later(1))
          yield* accounts.transitionStatus(owner.account.id, "unverified", "verified", later(1))
          return yield* Effect.fail("stop" as const)
        })))
        expect(failed).toBe("stop")
        const found = Option.getOrThrow(yield* accounts.findById(owner.account.id))
        expect(found.account.emailVerified).toBe(false)
        expect(found.customer.customerStatus).toBe("unverified")
      }))
  })
})
