/** SocialIdentityRepoSql against a real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set). */
import { AccountId, SocialIdentityRepo } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))
const at = new Date("2026-05-01T08:00:00.000Z")

layer(Repos, { timeout: "60 seconds" })(`SocialIdentityRepoSql (${describeBackend()})`, (it) => {
  it.effect("links one subject to one account, both ways; a second link of either is refused", () =>
    Effect.gen(function*() {
      const repo = yield* SocialIdentityRepo
      const account = AccountId.make(randomUUID())
      const other = AccountId.make(randomUUID())
      const subject = `sub-${randomUUID()}`
      expect(yield* repo.findBySubject(subject)).toEqual(Option.none())
      expect(yield* repo.link(account, subject, at)).toBe(true)
      expect(yield* repo.findBySubject(subject)).toEqual(Option.some(account))
      expect(yield* repo.findByAccount(account)).toEqual(Option.some(subject))
      expect(yield* repo.link(other, subject, at)).toBe(false) // the subject is taken
      expect(yield* repo.link(account, `sub-${AccountId.make(randomUUID())}`, at)).toBe(false) // the account is taken
      expect(yield* repo.findByAccount(other)).toEqual(Option.none())
    }))

  it.effect("concurrent links of one subject: exactly one wins", () =>
    Effect.gen(function*() {
      const repo = yield* SocialIdentityRepo
      const subject = `sub-${randomUUID()}`
      const results = yield* Effect.forEach(Array.from({ length: 8 }, () => AccountId.make(randomUUID())), (a) => repo.link(a, subject, at), {
        concurrency: "unbounded"
      })
      expect(results.filter((r) => r)).toHaveLength(1)
    }))
})
