/**
 * ReferralRepoSql and the notification settings of AccountRepoSql against a real database (PGlite,
 * or PostgreSQL when TEST_DATABASE_URL is set).
 */
import { AccountRepo, ReferralRepo } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import * as SqlClient from "@effect/sql/SqlClient"
import { newCustomer } from "../src/testing/Customers.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-04-01T08:00:00.000Z")
const minutes = (m: number) => new Date(at.getTime() + m * 60_000)

layer(Repos, { timeout: "60 seconds" })(`ReferralRepoSql (${describeBackend()})`, (it) => {
  it.effect("findReferrer finds the owner of a code, and nobody for another", () =>
    Effect.gen(function*() {
      const repo = yield* ReferralRepo
      const owner = yield* newCustomer("ref", "71", at)
      expect(yield* repo.findReferrer(owner.referralCode)).toEqual(Option.some({ customerId: owner.id }))
      expect(yield* repo.findReferrer("NOSUCHCD")).toEqual(Option.none())
    }))

  it.effect("listReferred: the referred customers, oldest first, with names and first deposits", () =>
    Effect.gen(function*() {
      const repo = yield* ReferralRepo
      const owner = yield* newCustomer("ref", "72", at)
      const second = yield* newCustomer("ref", "72", minutes(2), { referredBy: owner.id, firstName: "Chidi", lastName: "Okeke" })
      const first = yield* newCustomer("ref", "72", minutes(1), { referredBy: owner.id, firstName: "Bola", lastName: "Tinubu" })
      yield* newCustomer("ref", "72", minutes(3)) // referred by nobody
      yield* (yield* AccountRepo).markFirstDeposit(second.accountId, minutes(10), minutes(10))
      expect(yield* repo.listReferred(owner.id)).toEqual([
        { customerId: first.id, firstName: "Bola", lastName: "Tinubu", customerStatus: "active", joinedAt: minutes(1), firstDepositAt: null },
        { customerId: second.id, firstName: "Chidi", lastName: "Okeke", customerStatus: "active", joinedAt: minutes(2), firstDepositAt: minutes(10) }
      ])
      expect(yield* repo.listReferred(first.id)).toEqual([])
    }))

  it.effect("the database refuses a customer referring itself", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* newCustomer("ref", "73", at)
      const result = yield* Effect.either(sql`UPDATE customers SET referred_by = id WHERE id = ${owner.id}`)
      expect(result._tag).toBe("Left")
      expect(yield* (yield* ReferralRepo).listReferred(owner.id)).toEqual([])
    }))

  it.effect("setNotificationSettings changes the flags given and keeps the other", () =>
    Effect.gen(function*() {
      const accounts = yield* AccountRepo
      const customer = yield* newCustomer("ref", "74", at)
      const flags = Effect.map(accounts.findById(customer.accountId), (found) => {
        const c = Option.getOrThrow(found).customer
        return { smsEnabled: c.smsEnabled, emailEnabled: c.emailEnabled }
      })
      yield* accounts.setNotificationSettings(customer.accountId, { emailEnabled: false }, minutes(1))
      expect(yield* flags).toEqual({ smsEnabled: true, emailEnabled: false })
      yield* accounts.setNotificationSettings(customer.accountId, { smsEnabled: false }, minutes(2))
      expect(yield* flags).toEqual({ smsEnabled: false, emailEnabled: false })
      yield* accounts.setNotificationSettings(customer.accountId, { smsEnabled: true, emailEnabled: true }, minutes(3))
      expect(yield* flags).toEqual({ smsEnabled: true, emailEnabled: true })
    }))
})
