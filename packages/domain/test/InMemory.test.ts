/**
 * The fakes must honour the port contracts, or the domain tests prove nothing.
 * The last block uses them to check the domain's transactional boundaries.
 */
import {describe, expect, it} from "@effect/vitest"
import {Duration, Effect, Exit, Option, Redacted, TestClock} from "effect"
import * as Auth from "../src/auth/index.js"
import { Account, Customer } from "../src/account/Model.js"
import { AccessTokens, type NewOtp, OtpRepo, RefreshTokenRepo } from "../src/auth/Ports.js"
import { AccountRepo } from "../src/account/Ports.js"
import { Ids, PasswordHasher, SecretHasher, SecureRandom, UnitOfWork } from "../src/shared/Ports.js"
import {ADA, inMemory, pw, registerAda} from "./support/Fixtures.js"
import {HasherProbe, RandomControl, Sent, Store, uuidFor} from "./support/InMemory.js"
import { AccountId, CustomerId } from "../src/shared/Ids.js"

const at = (ms: number) => new Date(ms)

const newAccount = (n: number, fields: { email: string; phone: string | null; referralCode: string }) => ({
  account: new Account({
    id: AccountId.make(`acc-${n}`),
    email: fields.email,
    phone: fields.phone,
    passwordHash: null,
    firstName: null,
    lastName: null,
    otherNames: null,
    dateOfBirth: null,
    gender: null,
    address: null,
    emailVerified: false,
    phoneVerified: false,
    createdAt: at(0),
    updatedAt: at(0)
  }),
  customer: new Customer({
    id: CustomerId.make(`cus-${n}`),
    accountId: AccountId.make(`acc-${n}`),
    customerStatus: "unverified",
    kycStatus: "pending",
    referralCode: fields.referralCode,
    referredBy: null,
    pinHash: null,
    smsEnabled: true,
    emailEnabled: true,
    createdAt: at(0),
    updatedAt: at(0)
  })
})

const newOtp = (id: string, overrides: Partial<NewOtp> = {}): NewOtp => ({
  id,
  accountId: AccountId.make("acc-1"),
  channel: "email",
  purpose: "email_verification",
  destination: "a@b.co",
  codeHash: `h-${id}`,
  maxAttempts: 2,
  expiresAt: at(1000),
  createdAt: at(0),
  ...overrides
})

describe("in-memory ports", () => {
  it.effect("Ids are deterministic uuid-shaped counters", () =>
    inMemory(Effect.gen(function*() {
      const ids = yield* Ids
      const a = yield* ids.next
      const b = yield* ids.next
      expect([a, b]).toEqual([uuidFor(1), uuidFor(2)])
      expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/)
    })))

  it.effect("SecureRandom: forced values first, then distinct defaults", () =>
    inMemory(Effect.gen(function*() {
      const random = yield* SecureRandom
      yield* RandomControl.pushDigits("000042")
      yield* RandomControl.pushAlphabet("BBBB")
      expect(yield* random.digits(6)).toBe("000042")
      const d1 = yield* random.digits(6)
      const d2 = yield* random.digits(6)
      expect(d1).toMatch(/^\d{6}$/)
      expect(d1).not.toBe(d2)
      expect(yield* random.fromAlphabet(4, "AB")).toBe("BBBB")
      expect([yield* random.fromAlphabet(4, "AB"), yield* random.fromAlphabet(4, "AB")]).toEqual(["AAAA", "AAAB"])
      expect(yield* random.token(32)).not.toBe(yield* random.token(32))
      // a forced value that cannot be right is a defect, not a silent pass
      yield* RandomControl.pushDigits("12")
      expect(Exit.isFailure(yield* Effect.exit(random.digits(6)))).toBe(true)
    })))

  it.effect("PasswordHasher and SecretHasher fakes", () =>
    inMemory(Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const hash = yield* hasher.hash(Redacted.make("pw"))
      expect(hash).toBe("hash:pw")
      expect(yield* hasher.verify(Redacted.make("pw"), hash)).toBe(true)
      expect(yield* hasher.verify(Redacted.make("pw2"), hash)).toBe(false)
      yield* hasher.dummyVerify(Redacted.make("x"))
      expect(yield* HasherProbe.dummyVerifyCalls).toBe(1)
      const secrets = yield* SecretHasher
      const d = yield* secrets.digest("otp", "1")
      expect(secrets.equals(d, yield* secrets.digest("otp", "1"))).toBe(true)
      expect(secrets.equals(d, yield* secrets.digest("refresh", "1"))).toBe(false)
    })))

  it.effect("AccessTokens expire 15 minutes after issue, by the Clock", () =>
    inMemory(Effect.gen(function*() {
      const tokens = yield* AccessTokens
      yield* TestClock.adjust(Duration.minutes(5))
      const token = yield* tokens.issue({ accountId: AccountId.make("acc-1"), sessionVersion: 0 })
      yield* TestClock.adjust(Duration.millis(15 * 60_000 - 1))
      expect(yield* tokens.verify(token)).toEqual(Option.some({ accountId: "acc-1", sessionVersion: 0 }))
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* tokens.verify(token)).toEqual(Option.none())
      expect(yield* tokens.verify("garbage")).toEqual(Option.none())
    })))

  it.effect("AccountRepo.create: UniqueViolation per field, nothing stored", () =>
    inMemory(Effect.gen(function*() {
      const repo = yield* AccountRepo
      yield* repo.create(newAccount(1, { email: "a@x.co", phone: "+2348030000001", referralCode: "AAAAAAAA" }))
      const clash = (n: number, fields: Parameters<typeof newAccount>[1]) =>
        Effect.map(Effect.flip(repo.create(newAccount(n, fields))), (e) => e.field)
      expect(yield* clash(2, { email: "a@x.co", phone: null, referralCode: "BBBBBBBB" })).toBe("email")
      expect(yield* clash(3, { email: "b@x.co", phone: "+2348030000001", referralCode: "BBBBBBBB" })).toBe("phone")
      expect(yield* clash(4, { email: "b@x.co", phone: null, referralCode: "AAAAAAAA" })).toBe("referralCode")
      expect((yield* Store.state).accounts.size).toBe(1)
      yield* repo.create(newAccount(5, { email: "b@x.co", phone: null, referralCode: "BBBBBBBB" }))
      yield* repo.create(newAccount(6, { email: "c@x.co", phone: null, referralCode: "CCCCCCCC" }))
      expect(yield* repo.phoneExists("+2348030000001")).toBe(true)
      expect(yield* repo.emailExists("c@x.co")).toBe(true)
      expect(yield* repo.emailExists("d@x.co")).toBe(false)
    })))

  it.effect("AccountRepo.transitionStatus only moves from the given status", () =>
    inMemory(Effect.gen(function*() {
      const repo = yield* AccountRepo
      yield* repo.create(newAccount(1, { email: "a@x.co", phone: null, referralCode: "AAAAAAAA" }))
      yield* repo.transitionStatus(AccountId.make("acc-1"), "verified", "active", at(1))
      expect((yield* Store.account(AccountId.make("acc-1"))).customer.customerStatus).toBe("unverified")
      yield* repo.transitionStatus(AccountId.make("acc-1"), "unverified", "verified", at(2))
      expect((yield* Store.account(AccountId.make("acc-1"))).customer).toMatchObject({ customerStatus: "verified", updatedAt: at(2) })
    })))

  it.effect("OtpRepo: issue retires other live codes of the same account and purpose only", () =>
    inMemory(Effect.gen(function*() {
      const repo = yield* OtpRepo
      yield* repo.issue(newOtp("a"))
      yield* repo.issue(newOtp("other-purpose", { purpose: "password_reset" }))
      yield* repo.issue(newOtp("other-account", { accountId: AccountId.make("acc-2") }))
      yield* repo.issue(newOtp("b", { createdAt: at(10) }))
      expect((yield* Store.otp("a")).consumedAt).toEqual(at(10))
      expect((yield* Store.otp("other-purpose")).consumedAt).toBeNull()
      expect((yield* Store.otp("other-account")).consumedAt).toBeNull()
      expect((yield* Store.otp("b"))).toMatchObject({ consumedAt: null, attempts: 0 })
      expect(Option.map(yield* repo.latest(AccountId.make("acc-1"), "email_verification"), (o) => o.id)).toEqual(Option.some("b"))
      expect(yield* repo.latest(AccountId.make("acc-3"), "email_verification")).toEqual(Option.none())
    })))

  it.effect("OtpRepo.claimAttempt spends attempts only on live codes at `now`", () =>
    inMemory(Effect.gen(function*() {
      const repo = yield* OtpRepo
      yield* repo.issue(newOtp("a"))
      expect(yield* repo.claimAttempt("a", at(1000))).toEqual(Option.none()) // expired exactly at expiresAt
      expect((yield* Store.otp("a")).attempts).toBe(0)
      expect(Option.map(yield* repo.claimAttempt("a", at(999)), (o) => o.attempts)).toEqual(Option.some(1))
      expect(Option.map(yield* repo.claimAttempt("a", at(999)), (o) => o.attempts)).toEqual(Option.some(2))
      expect(yield* repo.claimAttempt("a", at(999))).toEqual(Option.none()) // maxAttempts 2
      expect((yield* Store.otp("a")).attempts).toBe(2)
      yield* repo.issue(newOtp("c", { accountId: AccountId.make("acc-9") }))
      expect(yield* repo.consume("c", at(5))).toBe(true)
      expect(yield* repo.claimAttempt("c", at(6))).toEqual(Option.none()) // consumed
      expect(yield* repo.consume("c", at(7))).toBe(false)
      expect((yield* Store.otp("c")).consumedAt).toEqual(at(5))
      expect(yield* repo.claimAttempt("nope", at(0))).toEqual(Option.none())
    })))

  it.effect("RefreshTokenRepo.markUsed only on unused, unrevoked tokens; revocation by family and account", () =>
    inMemory(Effect.gen(function*() {
      yield* registerAda()
      const { refreshToken } = yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      const repo = yield* RefreshTokenRepo
      const [t1, t2] = yield* Store.refreshTokens
      expect(Option.map(yield* repo.findByHash(t1!.tokenHash), (t) => t.id)).toEqual(Option.some(t1!.id))
      expect(yield* repo.findByHash(refreshToken)).toEqual(Option.none()) // looked up by hash, not raw
      expect(yield* repo.markUsed(t1!.id, at(1))).toBe(true)
      expect(yield* repo.markUsed(t1!.id, at(2))).toBe(false)
      yield* repo.revokeFamily(t2!.familyId, at(3))
      expect(yield* repo.markUsed(t2!.id, at(4))).toBe(false)
      const [r1, r2] = yield* Store.refreshTokens
      expect(r1).toMatchObject({ usedAt: at(1), revokedAt: null })
      expect(r2).toMatchObject({ usedAt: null, revokedAt: at(3) })
      yield* repo.revokeAllForAccount(t1!.accountId, at(5))
      const [s1, s2] = yield* Store.refreshTokens
      expect(s1!.revokedAt).toEqual(at(5))
      expect(s2!.revokedAt).toEqual(at(3)) // first revocation kept
    })))

  it.effect("Sent records every notification in order", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      yield* Auth.sendPhoneOtp(account.id)
      expect((yield* Sent.all).map((m) => m.kind)).toEqual(["email_verification", "phone_verification"])
    })))

  it.effect("UnitOfWork.atomically keeps writes on success and restores everything on failure", () =>
    inMemory(Effect.gen(function*() {
      const uow = yield* UnitOfWork
      const accounts = yield* AccountRepo
      const otps = yield* OtpRepo
      const before = yield* Store.state
      const failed = yield* Effect.exit(uow.atomically(Effect.gen(function*() {
        yield* accounts.create(newAccount(1, { email: "a@x.co", phone: null, referralCode: "AAAAAAAA" }))
        yield* otps.issue(newOtp("a"))
        return yield* Effect.fail("boom")
      })))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* Store.state).toBe(before)
      // defects roll back too
      yield* Effect.exit(uow.atomically(Effect.zipRight(otps.issue(newOtp("b")), Effect.die("kaboom"))))
      expect(yield* Store.otps).toEqual([])
      yield* uow.atomically(otps.issue(newOtp("c")))
      expect((yield* Store.otps).map((o) => o.id)).toEqual(["c"])
      const store = yield* Store
      expect([yield* store.commits.get, yield* store.rollbacks.get]).toEqual([1, 2])
    })))
})

describe("domain transactional boundaries (rollback)", () => {
  it.effect("verifyEmailOtp: if the status change fails, the code is not consumed and the email not verified", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.sendEmailOtp(account.id)
      const code = yield* Sent.lastCode("email_verification")
      const repo = yield* AccountRepo
      const broken = { ...repo, transitionStatus: () => Effect.die("database down") }
      const exit = yield* Effect.exit(Auth.verifyEmailOtp(account.id, code).pipe(Effect.provideService(AccountRepo, broken)))
      expect(Exit.isFailure(exit)).toBe(true)
      expect((yield* Store.account(account.id)).account.emailVerified).toBe(false)
      expect((yield* Store.otps)[0]!.consumedAt).toBeNull()
      expect(yield* Store.refreshTokens).toEqual([])
      // once the database is back, the same code works
      yield* Auth.verifyEmailOtp(account.id, code)
      expect((yield* Store.account(account.id)).customer.customerStatus).toBe("verified")
    })))

  it.effect("resetPassword: if revoking sessions fails, the password is untouched (the code is spent)", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Auth.login({ email: ADA.email, password: pw(ADA.password) })
      yield* Auth.forgotPassword(ADA.email)
      const code = yield* Sent.lastCode("password_reset")
      const repo = yield* RefreshTokenRepo
      const broken = { ...repo, revokeAllForAccount: () => Effect.die("database down") }
      const exit = yield* Effect.exit(
        Auth.resetPassword({ email: ADA.email, code, password: pw("new password") }).pipe(
          Effect.provideService(RefreshTokenRepo, broken)
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect((yield* Store.account(account.id)).account.passwordHash).toBe(`hash:${ADA.password}`)
      expect((yield* Store.otps)[0]!.consumedAt).not.toBeNull()
      // a new code comes at once and completes the reset
      yield* Auth.forgotPassword(ADA.email)
      const fresh = yield* Sent.lastCode("password_reset")
      yield* Auth.resetPassword({ email: ADA.email, code: fresh, password: pw("new password") })
      expect((yield* Store.account(account.id)).account.passwordHash).toBe("hash:new password")
    })))
})
