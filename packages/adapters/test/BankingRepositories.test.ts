/**
 * The banking SQL repositories (customer bank fields, transactions, beneficiaries) against a real
 * database: PGlite, or PostgreSQL when TEST_DATABASE_URL is set. On PostgreSQL the concurrency
 * tests really run statements in parallel on several connections.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Account, AccountId, AccountRepo, BeneficiaryId, BeneficiaryRepo, Customer, CustomerId, TransactionRepo, UnitOfWork, type BvnVerifiedDetails, type NewBeneficiary } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-01-01T10:00:00.000Z")
const later = (ms: number) => new Date(at.getTime() + ms)

let phoneCounter = 0
const newAccount = (email: string, customer: Partial<ConstructorParameters<typeof Customer>[0]> = {}) => {
  const accountId = AccountId.make(randomUUID())
  phoneCounter++
  return {
    account: new Account({
      id: accountId,
      email,
      phone: `+23481${String(phoneCounter).padStart(8, "0")}`,
      passwordHash: "hash",
      firstName: "Ada",
      lastName: "Obi",
      otherNames: null,
      dateOfBirth: "1990-01-31",
      gender: "female",
      address: "1 Marina, Lagos",
      emailVerified: true,
      phoneVerified: true,
      createdAt: at,
      updatedAt: at
    }),
    customer: new Customer({
      id: CustomerId.make(randomUUID()),
      accountId,
      customerStatus: "verified",
      kycStatus: "pending",
      referralCode: randomUUID().slice(0, 8).toUpperCase(),
      referredBy: null,
      pinHash: null,
      smsEnabled: true,
      emailEnabled: true,
      createdAt: at,
      updatedAt: at,
      ...customer
    })
  }
}

const created = (email: string, customer: Partial<ConstructorParameters<typeof Customer>[0]> = {}) =>
  Effect.gen(function*() {
    const input = newAccount(email, customer)
    yield* (yield* AccountRepo).create(input)
    return input
  })

const details = (overrides: Partial<BvnVerifiedDetails> = {}): BvnVerifiedDetails => ({
  bvnHash: randomUUID(),
  firstName: "Adaeze",
  lastName: "Obi",
  phone: `+23490${String(++phoneCounter).padStart(8, "0")}`,
  address: "2 Broad Street, Lagos",
  gender: "female",
  dateOfBirth: "1990-01-01",
  ...overrides
})

const deposit = (customerId: CustomerId, providerReference: string, amountKobo: bigint, postedAt = at) => ({
  id: randomUUID(),
  customerId,
  amountKobo,
  providerReference,
  postedAt,
  now: later(1)
})

const beneficiary = (customerId: CustomerId, accountNumber: string, createdAt = at, bankCode = "000013"): NewBeneficiary => ({
  id: BeneficiaryId.make(randomUUID()),
  customerId,
  accountNumber,
  bankCode,
  bankName: "Guaranty Trust Bank",
  accountName: `SANDBOX ACCOUNT ${accountNumber.slice(-4)}`,
  createdAt
})

layer(Repos, { timeout: "60 seconds" })(`banking SQL repositories (${describeBackend()})`, (it) => {
  describe("AccountRepo: bank fields", () => {
    it.effect("round-trips the banking fields of a customer (null by default)", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const plain = yield* created("bank-plain@example.com")
        const plainFound = Option.getOrThrow(yield* repo.findById(plain.account.id))
        expect(plainFound.customer).toEqual(plain.customer)
        expect(plainFound.customer).toMatchObject({
          bvnHash: null,
          coreAccountNumber: null,
          coreAccountReference: null,
          firstDepositAt: null
        })
        const full = yield* created("bank-full@example.com", {
          customerStatus: "active",
          kycStatus: "bvn_verified",
          bvnHash: "hash-full",
          coreAccountNumber: "3000000901",
          coreAccountReference: "A12345678901",
          firstDepositAt: later(5)
        })
        expect(Option.getOrThrow(yield* repo.findById(full.account.id)).customer).toEqual(full.customer)
        expect(Option.getOrThrow(yield* repo.findByBvnHash("hash-full")).account.id).toBe(full.account.id)
        expect(Option.getOrThrow(yield* repo.findByCoreAccountNumber("3000000901")).account.id).toBe(full.account.id)
        expect(Option.isNone(yield* repo.findByBvnHash("unknown"))).toBe(true)
        expect(Option.isNone(yield* repo.findByCoreAccountNumber("0000000000"))).toBe(true)
      }))

    it.effect("setBvnVerified: digest, KYC and identity at once, only while pending; a new phone is unverified", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const owner = yield* created("bvn1@example.com")
        const d = details()
        expect(yield* repo.setBvnVerified(owner.account.id, d, later(1))).toBe(true)
        const found = Option.getOrThrow(yield* repo.findById(owner.account.id))
        expect(found.customer).toMatchObject({ kycStatus: "bvn_verified", bvnHash: d.bvnHash, updatedAt: later(1) })
        expect(found.account).toMatchObject({
          firstName: "Adaeze",
          lastName: "Obi",
          phone: d.phone,
          phoneVerified: false,
          address: "2 Broad Street, Lagos",
          gender: "female",
          dateOfBirth: "1990-01-01",
          updatedAt: later(1)
        })
        // not pending any more: nothing changes
        expect(yield* repo.setBvnVerified(owner.account.id, details({ firstName: "Other" }), later(2))).toBe(false)
        expect(Option.getOrThrow(yield* repo.findById(owner.account.id)).account.firstName).toBe("Adaeze")

        // the same phone keeps its verification
        const same = yield* created("bvn2@example.com")
        yield* repo.setBvnVerified(same.account.id, details({ phone: same.account.phone! }), later(1))
        expect(Option.getOrThrow(yield* repo.findById(same.account.id)).account.phoneVerified).toBe(true)
      }))

    it.effect("setBvnVerified: a BVN digest or phone held by someone else fails with the field and writes nothing", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const first = yield* created("bvn3@example.com")
        const second = yield* created("bvn4@example.com")
        const d = details()
        yield* repo.setBvnVerified(first.account.id, d, later(1))
        const dupBvn = yield* Effect.flip(repo.setBvnVerified(second.account.id, details({ bvnHash: d.bvnHash }), later(2)))
        expect(dupBvn.field).toBe("bvnHash")
        const dupPhone = yield* Effect.flip(repo.setBvnVerified(second.account.id, details({ phone: d.phone }), later(2)))
        expect(dupPhone.field).toBe("phone")
        const found = Option.getOrThrow(yield* repo.findById(second.account.id))
        expect(found.customer).toMatchObject({ kycStatus: "pending", bvnHash: null })
        expect(found.account.firstName).toBe("Ada")
      }))

    it.effect("setBvnVerified inside a failed unit of work is rolled back; a unique clash does not poison it", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const uow = yield* UnitOfWork
        const holder = yield* created("bvn5@example.com")
        const other = yield* created("bvn6@example.com")
        const d = details()
        yield* repo.setBvnVerified(holder.account.id, d, later(1))
        // the clash fails a savepoint; the transaction goes on and commits the rest
        const result = yield* uow.atomically(Effect.gen(function*() {
          const clash = yield* Effect.either(repo.setBvnVerified(other.account.id, details({ bvnHash: d.bvnHash }), later(2)))
          yield* repo.markFirstDeposit(other.account.id, later(3), later(3))
          return clash._tag
        }))
        expect(result).toBe("Left")
        expect(Option.getOrThrow(yield* repo.findById(other.account.id)).customer.firstDepositAt).toEqual(later(3))
        // and a failed unit of work leaves nothing behind
        yield* Effect.flip(uow.atomically(Effect.gen(function*() {
          yield* repo.setBvnVerified(other.account.id, details(), later(4))
          return yield* Effect.fail("stop" as const)
        })))
        expect(Option.getOrThrow(yield* repo.findById(other.account.id)).customer.kycStatus).toBe("pending")
      }))

    it.effect("concurrent verifications of one BVN by two customers: exactly one wins", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const a = yield* created("bvnrace1@example.com")
        const b = yield* created("bvnrace2@example.com")
        const bvnHash = randomUUID()
        const results = yield* Effect.all(
          [a, b].map((x) => Effect.either(repo.setBvnVerified(x.account.id, details({ bvnHash }), later(1)))),
          { concurrency: "unbounded" }
        )
        expect(results.filter((r) => r._tag === "Right")).toHaveLength(1)
        expect(results.filter((r) => r._tag === "Left").map((r) => r._tag === "Left" && r.left.field)).toEqual(["bvnHash"])
      }))

    it.effect("setCoreAccount and markFirstDeposit only set once", () =>
      Effect.gen(function*() {
        const repo = yield* AccountRepo
        const owner = yield* created("core1@example.com")
        expect(yield* repo.setCoreAccount(owner.account.id, { accountNumber: "3000000001", reference: "A00000000001" }, later(1)))
          .toBe(true)
        expect(yield* repo.setCoreAccount(owner.account.id, { accountNumber: "3000000002", reference: "A00000000002" }, later(2)))
          .toBe(false)
        expect(yield* repo.markFirstDeposit(owner.account.id, later(10), later(11))).toBe(true)
        expect(yield* repo.markFirstDeposit(owner.account.id, later(20), later(21))).toBe(false)
        const found = Option.getOrThrow(yield* repo.findByCoreAccountNumber("3000000001"))
        expect(found.customer).toMatchObject({
          coreAccountNumber: "3000000001",
          coreAccountReference: "A00000000001",
          firstDepositAt: later(10),
          updatedAt: later(11)
        })
        const concurrent = yield* created("core2@example.com")
        const sets = yield* Effect.all(
          Array.from({ length: 6 }, (_, i) =>
            repo.setCoreAccount(concurrent.account.id, { accountNumber: `310000000${i}`, reference: "A00000000009" }, later(1))),
          { concurrency: "unbounded" }
        )
        expect(sets.filter((x) => x)).toHaveLength(1)
      }))
  })

  describe("TransactionRepo", () => {
    it.effect("recordDeposit stores a confirmed credit deposit; int8 amounts round-trip as bigint", () =>
      Effect.gen(function*() {
        const repo = yield* TransactionRepo
        const { customer } = yield* created("tx1@example.com")
        const big = 9_007_199_254_740_993n // above Number.MAX_SAFE_INTEGER
        const input = deposit(customer.id, "NIP000000001", big, later(100))
        expect(yield* repo.recordDeposit(input)).toBe(true)
        const row = Option.getOrThrow(yield* repo.findById(input.id))
        expect(row).toMatchObject({
          id: input.id,
          customerId: customer.id,
          planId: null,
          type: "credit",
          purpose: "deposit",
          amountKobo: big,
          feeKobo: 0n,
          status: "confirmed",
          retrievalReference: null,
          transferReference: null,
          providerReference: "NIP000000001",
          failureReason: null,
          retryCount: 0,
          createdAt: later(100),
          updatedAt: later(1)
        })
        expect(Option.isNone(yield* repo.findById(randomUUID()))).toBe(true)
      }))

    it.effect("concurrent recordDeposit of one reference: exactly one row; another customer may reuse the reference", () =>
      Effect.gen(function*() {
        const repo = yield* TransactionRepo
        const sql = yield* SqlClient.SqlClient
        const { customer } = yield* created("tx2@example.com")
        const other = yield* created("tx3@example.com")
        const results = yield* Effect.all(
          Array.from({ length: 10 }, () => repo.recordDeposit(deposit(customer.id, "NIP000000777", 5_000n))),
          { concurrency: "unbounded" }
        )
        expect(results.filter((x) => x)).toHaveLength(1)
        const counted = yield* sql<{ n: string | number }>`
          SELECT count(*) AS n FROM transactions WHERE customer_id = ${customer.id} AND provider_reference = 'NIP000000777'`
        expect(Number(counted[0]!.n)).toBe(1)
        expect(yield* repo.recordDeposit(deposit(other.customer.id, "NIP000000777", 5_000n))).toBe(true)
      }))

    it.effect("listForCustomer: newest first, paginated, with the total; only the customer's rows", () =>
      Effect.gen(function*() {
        const repo = yield* TransactionRepo
        const { customer } = yield* created("tx4@example.com")
        const other = yield* created("tx5@example.com")
        for (let i = 1; i <= 5; i++) yield* repo.recordDeposit(deposit(customer.id, `NIPL${i}`, BigInt(i * 100), later(i * 1000)))
        yield* repo.recordDeposit(deposit(other.customer.id, "NIPL9", 1n))
        const page1 = yield* repo.listForCustomer(customer.id, { page: 1, pageSize: 2 })
        expect(page1.total).toBe(5)
        expect(page1.items.map((t) => t.amountKobo)).toEqual([500n, 400n])
        const page3 = yield* repo.listForCustomer(customer.id, { page: 3, pageSize: 2 })
        expect(page3).toMatchObject({ page: 3, pageSize: 2, total: 5 })
        expect(page3.items.map((t) => t.amountKobo)).toEqual([100n])
        expect((yield* repo.listForCustomer(customer.id, { page: 4, pageSize: 2 })).items).toEqual([])
        expect((yield* repo.listForCustomer(CustomerId.make(randomUUID()), { page: 1, pageSize: 20 })).total).toBe(0)
      }))
  })

  describe("BeneficiaryRepo", () => {
    it.effect("the first saved is the default; duplicates are refused; listed default first then oldest", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const { customer } = yield* created("ben1@example.com")
        const a = Option.getOrThrow(yield* repo.add(beneficiary(customer.id, "0123450001", later(1))))
        const b = Option.getOrThrow(yield* repo.add(beneficiary(customer.id, "0123450002", later(2))))
        const c = Option.getOrThrow(yield* repo.add(beneficiary(customer.id, "0123450001", later(3), "000015")))
        expect([a.isDefault, b.isDefault, c.isDefault]).toEqual([true, false, false])
        expect(a).toMatchObject({ customerId: customer.id, accountNumber: "0123450001", createdAt: later(1) })
        expect(Option.isNone(yield* repo.add(beneficiary(customer.id, "0123450002", later(4))))).toBe(true)
        expect((yield* repo.list(customer.id)).map((x) => x.id)).toEqual([a.id, b.id, c.id])

        expect(Option.getOrThrow(yield* repo.setDefault(customer.id, c.id)).isDefault).toBe(true)
        expect((yield* repo.list(customer.id)).map((x) => [x.id, x.isDefault])).toEqual([[c.id, true], [a.id, false], [
          b.id,
          false
        ]])
        const other = yield* created("ben2@example.com")
        expect(Option.isNone(yield* repo.findById(other.customer.id, a.id))).toBe(true)
        expect(Option.isNone(yield* repo.setDefault(other.customer.id, a.id))).toBe(true)
        expect(Option.isNone(yield* repo.remove(other.customer.id, a.id))).toBe(true)
        expect(Option.getOrThrow(yield* repo.findById(customer.id, a.id)).id).toBe(a.id)
      }))

    it.effect("the database allows at most one default per customer", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const sql = yield* SqlClient.SqlClient
        const { customer } = yield* created("ben3@example.com")
        yield* repo.add(beneficiary(customer.id, "0123450001"))
        const second = beneficiary(customer.id, "0123450002")
        const error = yield* Effect.flip(sql`
          INSERT INTO beneficiaries (id, customer_id, account_number, bank_code, bank_name, account_name, is_default, created_at)
          VALUES (${second.id}, ${customer.id}, ${second.accountNumber}, ${second.bankCode}, ${second.bankName},
                  ${second.accountName}, true, ${at})`)
        expect(String((error.cause as { message?: string }).message ?? error.message)).toMatch(/beneficiaries_one_default_key|unique/)
      }))

    it.effect("remove returns the row; promoteOldest promotes only when no default remains", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const { customer } = yield* created("ben4@example.com")
        const a = Option.getOrThrow(yield* repo.add(beneficiary(customer.id, "0123450001", later(1))))
        const b = Option.getOrThrow(yield* repo.add(beneficiary(customer.id, "0123450002", later(2))))
        const c = Option.getOrThrow(yield* repo.add(beneficiary(customer.id, "0123450003", later(3))))
        expect(Option.isNone(yield* repo.promoteOldest(customer.id))).toBe(true) // a is still the default
        const removed = Option.getOrThrow(yield* repo.remove(customer.id, a.id))
        expect(removed).toMatchObject({ id: a.id, isDefault: true })
        expect(Option.getOrThrow(yield* repo.promoteOldest(customer.id)).id).toBe(b.id)
        expect((yield* repo.list(customer.id)).map((x) => [x.id, x.isDefault])).toEqual([[b.id, true], [c.id, false]])
        yield* repo.remove(customer.id, b.id)
        yield* repo.remove(customer.id, c.id)
        expect(Option.isNone(yield* repo.promoteOldest(customer.id))).toBe(true)
        expect(yield* repo.list(customer.id)).toEqual([])
      }))

    it.effect("concurrent adds of different accounts: exactly one becomes the default", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const { customer } = yield* created("ben5@example.com")
        const added = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => repo.add(beneficiary(customer.id, `012345100${i}`, later(i)))),
          { concurrency: "unbounded" }
        )
        expect(added.filter(Option.isSome)).toHaveLength(8)
        expect((yield* repo.list(customer.id)).filter((x) => x.isDefault)).toHaveLength(1)
      }))

    it.effect("concurrent adds of one account: one row", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const { customer } = yield* created("ben6@example.com")
        const added = yield* Effect.all(
          Array.from({ length: 8 }, () => repo.add(beneficiary(customer.id, "0123452000"))),
          { concurrency: "unbounded" }
        )
        expect(added.filter(Option.isSome)).toHaveLength(1)
        expect(yield* repo.list(customer.id)).toHaveLength(1)
      }))

    it.effect("concurrent setDefault calls never error and leave exactly one default", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const { customer } = yield* created("ben7@example.com")
        const saved = yield* Effect.forEach(
          Array.from({ length: 5 }, (_, i) => beneficiary(customer.id, `012345300${i}`, later(i))),
          (b) => Effect.map(repo.add(b), Option.getOrThrow)
        )
        const results = yield* Effect.all(
          [...saved, ...saved].map((b) => repo.setDefault(customer.id, b.id)),
          { concurrency: "unbounded" }
        )
        expect(results.every(Option.isSome)).toBe(true)
        expect((yield* repo.list(customer.id)).filter((x) => x.isDefault)).toHaveLength(1)
      }))

    it.effect("remove and promote in one unit of work: concurrent removals of the default keep one default", () =>
      Effect.gen(function*() {
        const repo = yield* BeneficiaryRepo
        const uow = yield* UnitOfWork
        const { customer } = yield* created("ben8@example.com")
        const saved = yield* Effect.forEach(
          Array.from({ length: 4 }, (_, i) => beneficiary(customer.id, `012345400${i}`, later(i))),
          (b) => Effect.map(repo.add(b), Option.getOrThrow)
        )
        const removeAndPromote = (id: BeneficiaryId) =>
          uow.atomically(Effect.gen(function*() {
            const removed = yield* repo.remove(customer.id, id)
            if (Option.isSome(removed) && removed.value.isDefault) yield* repo.promoteOldest(customer.id)
          }))
        yield* Effect.all([removeAndPromote(saved[0]!.id), removeAndPromote(saved[1]!.id)], { concurrency: "unbounded" })
        const left = yield* repo.list(customer.id)
        expect(left.map((x) => x.id)).toEqual([saved[2]!.id, saved[3]!.id])
        expect(left.filter((x) => x.isDefault).map((x) => x.id)).toEqual([saved[2]!.id])
      }))
  })
})
