/**
 * Customers in the back office: search by every kind of q, filters, sorting by the last-known
 * balance (refreshed when the customer's account is read), and one customer's whole file.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomInt, randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post, verifiedAccount } from "./support/Fixtures.js"
import { deposit } from "./support/PlanFixtures.js"

const CUSTOMERS = "/api/v1/admin/customers"

const sqlRun = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => Effect.orDie(Effect.flatMap(SqlClient.SqlClient, f))

const SECRET_KEY = /hash|password|pin|secret|token/i

/** Every key of a JSON value, and the paths of those named like a secret that hold a value. */
const secretsIn = (value: unknown) => {
  const offending: Array<string> = []
  let keys = 0
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) return v.forEach((item, i) => walk(item, `${path}[${i}]`))
    if (v === null || typeof v !== "object") return
    for (const [k, child] of Object.entries(v)) {
      keys++
      if (SECRET_KEY.test(k) && child !== null && child !== undefined) offending.push(`${path}.${k}`)
      walk(child, `${path}.${k}`)
    }
  }
  walk(value, "$")
  return { keys, offending }
}
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/**
 * Whether `secret` stands in `text` as a value of its own: not inside a longer run of letters and digits
 * (a SHA-256 digest, a reference) nor as one group of a UUID. A short secret such as a four-digit PIN
 * turns up by chance inside random hex in about one run in twenty; a plain substring check is flaky.
 */
const holdsToken = (text: string, secret: string) => {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`).test(text.replace(UUID, "<uuid>"))
}

const search = (query: string, token: string) =>
  Effect.map(adminGet(`${CUSTOMERS}?${query}`, token), (r) => expectSuccess(r, { apiObject: "Admin" }))

describe("the secrets walk", () => {
  it("finds a short secret standing as a value, not inside a digest or a UUID", () => {
    expect(holdsToken(`{"pin":"4826"}`, "4826")).toBe(true)
    expect(holdsToken(`{"note":"my pin is 4826."}`, "4826")).toBe(true)
    expect(holdsToken(`{"n":4826}`, "4826")).toBe(true)
    expect(holdsToken(`{"hash":"ab04826f9"}`, "4826")).toBe(false)
    expect(holdsToken(`{"id":"2c068027-4826-4a64-961b-91b3bc1a0000"}`, "4826")).toBe(false)
    expect(holdsToken(`{"phone":"+2348264826001"}`, "4826")).toBe(false)
  })

  it("names a key like a secret that holds a value, however deep; null is no value", () => {
    expect(secretsIn({ a: [{ b: { passwordHash: "x", pinSet: true } }], accessToken: null, name: "Ada" })).toEqual({
      keys: 6,
      offending: ["$.a[0].b.passwordHash", "$.a[0].b.pinSet"]
    })
  })
})

layer(adminServer(), { excludeTestServices: true, timeout: "90 seconds" })("admin customers", (it) => {
  describe("GET /admin/customers", () => {
    it.effect("q finds by email, name, account number, referral code and id; filters by status and kyc; sorts by last-known balance", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const tag = `dir${randomInt(100_000, 999_999)}`
        const rich = yield* bankCustomer(`${tag}-rich`)
        const poor = yield* bankCustomer(`${tag}-poor`)
        const fresh = yield* verifiedAccount(`${tag}-fresh`)
        yield* deposit(rich.accessToken, 5_000_000)
        yield* deposit(poor.accessToken, 1_000_000)
        // each customer's own balance read leaves the last-known balance behind
        for (const c of [rich, poor]) expectSuccess(yield* get("/api/v1/customers/balance", c.accessToken), { apiObject: "Customer" })
        const byEmail = yield* search(`q=${tag}&sort=balance_desc`, token)
        expect(byEmail.items.map((c: any) => c.id)).toEqual([rich.customerId, poor.customerId, fresh.customerId])
        expect(byEmail.items.map((c: any) => c.lastKnownBalanceKobo)).toEqual(["5000000", "1000000", null])
        expect(byEmail.items[0].balanceSeenAt).not.toBeNull()
        expect((yield* search(`q=${tag}&sort=balance_asc`, token)).items.map((c: any) => c.id)).toEqual([poor.customerId, rich.customerId, fresh.customerId])
        expect((yield* search(`q=${tag}&sort=oldest`, token)).items.map((c: any) => c.id)).toEqual([rich.customerId, poor.customerId, fresh.customerId])
        expect((yield* search(`q=${tag}`, token)).items.map((c: any) => c.id)).toEqual([fresh.customerId, poor.customerId, rich.customerId])
        expect((yield* search(`q=${rich.accountNumber}`, token)).items.map((c: any) => c.id)).toEqual([rich.customerId])
        expect((yield* search(`q=${poor.customerId}`, token)).items.map((c: any) => c.id)).toEqual([poor.customerId])
        const code = byEmail.items[1].referralCode
        expect((yield* search(`q=${code.toLowerCase()}`, token)).items.map((c: any) => c.id)).toContain(poor.customerId)
        expect((yield* search(`q=${tag}&status=verified`, token)).items.map((c: any) => c.id)).toEqual([fresh.customerId])
        expect((yield* search(`q=${tag}&kyc=bvn_verified&pageSize=1&page=2`, token))).toMatchObject({ total: 2, totalPages: 2, page: 2 })
        expect((yield* search(`q=${tag}%25_`, token)).total).toBe(0)
      }))

    it.effect("q finds by name (any case, first, last or both) and by phone (with or without the leading 0, or +234); officer filters", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const tag = `nm${randomInt(100_000, 999_999)}`
        const named = yield* verifiedAccount(`${tag}-named`, { withPhone: true })
        const other = yield* verifiedAccount(`${tag}-other`, { withPhone: true })
        const ids = (query: string) => Effect.map(search(query, token), (p) => p.items.map((c: any) => c.id))
        // a name comes from BVN verification, where the sandbox's is always Ada Obi: a distinct one is set in SQL
        yield* sqlRun((sql) => sql`UPDATE accounts SET first_name = 'Chiamaka', last_name = ${`Zed${tag}`} WHERE id = ${named.id}`)
        expect(yield* ids(`q=${encodeURIComponent(`Chiamaka Zed${tag}`)}`)).toEqual([named.customerId])
        expect(yield* ids(`q=${encodeURIComponent(`chiamaka zed${tag.toUpperCase()}`)}`)).toEqual([named.customerId])
        expect(yield* ids(`q=zed${tag}`)).toEqual([named.customerId])
        expect((yield* search(`q=${encodeURIComponent(`Chiamaka Zed${tag}`)}`, token)).items[0]).toMatchObject({
          firstName: "Chiamaka",
          lastName: `Zed${tag}`,
          phone: named.phone!.e164
        })
        // the phone is stored as +234…: its national spelling, without the 0, or in full finds it
        expect(yield* ids(`q=${named.phone!.national}`)).toEqual([named.customerId])
        expect(yield* ids(`q=${named.phone!.national.slice(1)}`)).toEqual([named.customerId])
        expect(yield* ids(`q=${encodeURIComponent(named.phone!.e164)}`)).toEqual([named.customerId])
        expect(yield* ids(`q=${other.phone!.national}`)).toEqual([other.customerId])

        // nothing assigns account officers yet (the staff tools will): officer_id is set in SQL
        const officer = yield* member("officer")
        yield* sqlRun((sql) => sql`UPDATE customers SET officer_id = ${officer.id} WHERE id = ${named.customerId}`)
        const mine = yield* search(`officer=${officer.id}`, token)
        expect(mine.items.map((c: any) => [c.id, c.officerId])).toEqual([[named.customerId, officer.id]])
        expect(mine.total).toBe(1)
        expect(yield* ids(`officer=${officer.id}&q=${other.phone!.national}`)).toEqual([])
        expect((yield* search(`officer=${randomUUID()}`, token)).total).toBe(0)
        // the officer sees their customers the same way
        expect(yield* Effect.map(search(`officer=${officer.id}`, officer.token), (p) => p.items.map((c: any) => c.id))).toEqual([named.customerId])
      }))

    it.effect("400 for unknown sort, status or kyc; 401 without a staff token; an officer may read", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        expectValidation(yield* adminGet(`${CUSTOMERS}?sort=richest&status=vip&kyc=x&officer=1`, token), {
          fields: ["sort", "status", "kyc", "officer"],
          apiObject: "Admin"
        })
        expectFailure(yield* adminGet(CUSTOMERS), 401, "Authentication required", "Admin")
        const officer = yield* member("officer")
        expectSuccess(yield* adminGet(CUSTOMERS, officer.token), { apiObject: "Admin" })
      }))
  })

  describe("GET /admin/customers/{id}", () => {
    it.effect("the file: summary with a live balance, KYC, recent transactions, tickets; never a hash; 404 unknown, 400 malformed", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* bankCustomer("file")
        yield* deposit(c.accessToken, 2_500_000)
        const file = expectSuccess(yield* adminGet(`${CUSTOMERS}/${c.customerId}`, token), { apiObject: "Admin" })
        expect(file.customer).toMatchObject({ id: c.customerId, email: c.email, accountNumber: c.accountNumber, kycStatus: "bvn_verified" })
        expect(file.liveBalanceKobo).toBe("2500000")
        expect(file.customer.lastKnownBalanceKobo).toBe("2500000")
        expect(file.kyc).toMatchObject({ bvnVerified: true, dateOfBirth: "1990-01-01" })
        expect(file.recentTransactions.map((t: any) => t.purpose)).toEqual(["deposit"])
        expect(file.plan).toBeNull()
        expect(file.tickets).toEqual([])
        expect(Array.isArray(file.audit)).toBe(true)
        expectFailure(yield* adminGet(`${CUSTOMERS}/${randomUUID()}`, token), 404, "Customer not found", "Admin")
        expectValidation(yield* adminGet(`${CUSTOMERS}/nope`, token), { fields: ["id"], apiObject: "Admin" })
      }))

    it.effect("the file never holds a hash or secret: no key named like one with a value, no BVN, password or PIN digits", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* bankCustomer("secrets", { withPhone: true })
        yield* deposit(c.accessToken, 1_000_000)
        expectSuccess(yield* post("/api/v1/auth/pin", { pin: "4826" }, c.accessToken))
        expectSuccess(yield* post("/api/v1/support/tickets", { subject: "Card", message: "Where is my card?", category: "general" }, c.accessToken), {
          status: 201,
          apiObject: "Support"
        })
        // a freeze and an unfreeze put rows in the audit trail the file shows
        expectSuccess(yield* post(`${CUSTOMERS}/${c.customerId}/freeze`, { reason: "check" }, token), { apiObject: "Admin" })
        expectSuccess(yield* post(`${CUSTOMERS}/${c.customerId}/unfreeze`, undefined, token), { apiObject: "Admin" })
        const reply = yield* adminGet(`${CUSTOMERS}/${c.customerId}`, token)
        const file = expectSuccess(reply, { apiObject: "Admin" })
        expect(file.tickets).toHaveLength(1)
        expect(file.recentTransactions.length).toBeGreaterThan(0)
        expect(file.audit.length).toBeGreaterThanOrEqual(3)
        const walked = secretsIn(file)
        expect(walked.keys).toBeGreaterThan(40)
        // the one exemption: the audit chain's own digests (SHA-256 of public row content, which verify needs)
        const chain = /^\$\.audit\[\d+\]\.(hash|prevHash)$/
        expect(walked.offending.filter((p) => !chain.test(p))).toEqual([])
        for (const row of file.audit) expect([row.hash, row.prevHash].every((h: string) => /^[0-9a-f]{64}$/.test(h))).toBe(true)
        const [stored] = yield* sqlRun((sql) =>
          sql<{ passwordHash: string; pinHash: string; bvnHash: string }>`
            SELECT a.password_hash, c.pin_hash, c.bvn_hash FROM customers c JOIN accounts a ON a.id = c.account_id WHERE c.id = ${c.customerId}`)
        expect(stored!.pinHash).not.toBeNull()
        for (const secret of [c.bvn, c.password, stored!.passwordHash, stored!.pinHash, stored!.bvnHash]) {
          expect(reply.text).not.toContain(secret)
        }
        expect(holdsToken(reply.text, "4826")).toBe(false)
      }))
  })
})
