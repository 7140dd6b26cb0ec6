/**
 * Deletion review in the back office: a deleted account's record is listed pending_review with
 * what was tied to it, reviewed once with a note (409 after), then listed as reviewed; audited.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { expectFailure, expectSuccess, expectValidation, post, verifiedAccount } from "./support/Fixtures.js"
import { booksBalance, deleteAccount } from "./support/LifecycleFixtures.js"

const DELETIONS = "/api/v1/admin/deletions"

layer(adminServer(), { excludeTestServices: true, timeout: "60 seconds" })("admin deletions", (it) => {
  describe("list and review", () => {
    it.effect("a deletion is pending_review with its counts; reviewed once with a note; then listed as reviewed", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const c = yield* verifiedAccount("del-review")
        expectSuccess(yield* deleteAccount(c, { via: "web" }), { apiObject: "Customer" })
        const pending = expectSuccess(yield* adminGet(`${DELETIONS}?pageSize=100`, token), { apiObject: "Admin" })
        const mine = pending.items.find((d: any) => d.customerId === c.customerId)
        expect(mine).toMatchObject({ status: "pending_review", via: "web", reviewedBy: null, reviewNote: null })
        expect(mine.counts).toMatchObject({ transactions: 0, beneficiaries: 0, spendings: 0, tickets: 0 })
        const support = yield* member("support")
        expectSuccess(yield* adminGet(DELETIONS, support.token), { apiObject: "Admin" })
        expect(expectFailure(yield* post(`${DELETIONS}/${mine.id}/review`, undefined, support.token), 403, /role/, "Admin").permission)
          .toBe("deletions:review")
        const admin = yield* member("admin")
        const reviewed = expectSuccess(yield* post(`${DELETIONS}/${mine.id}/review`, { note: "Nothing left at the bank." }, admin.token), {
          apiObject: "Admin",
          message: "Deletion reviewed."
        })
        expect(reviewed).toMatchObject({ status: "reviewed", reviewedBy: admin.id, reviewNote: "Nothing left at the bank." })
        expect(expectFailure(yield* post(`${DELETIONS}/${mine.id}/review`, undefined, admin.token), 409, /already/, "Admin").code)
          .toBe("DELETION_ALREADY_REVIEWED")
        const done = expectSuccess(yield* adminGet(`${DELETIONS}?status=reviewed&pageSize=100`, token), { apiObject: "Admin" })
        expect(done.items.map((d: any) => d.id)).toContain(mine.id)
        const stillPending = expectSuccess(yield* adminGet(`${DELETIONS}?pageSize=100`, token), { apiObject: "Admin" })
        expect(stillPending.items.map((d: any) => d.id)).not.toContain(mine.id)
        const audit = expectSuccess(yield* adminGet(`/api/v1/admin/audit?action=deletion.review&targetId=${c.customerId}`, token), { apiObject: "Admin" })
        expect(audit.items[0]).toMatchObject({ actorId: admin.id, after: { status: "reviewed", deletionId: mine.id } })
        yield* booksBalance
      }))

    it.effect("404 for an unknown record, 400 for a bad status, id or note, 401 without a staff token", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        expect(expectFailure(yield* post(`${DELETIONS}/${randomUUID()}/review`, undefined, token), 404, /not found/, "Admin").code)
          .toBe("DELETION_NOT_FOUND")
        expectValidation(yield* adminGet(`${DELETIONS}?status=done`, token), { fields: ["status"], apiObject: "Admin" })
        expectValidation(yield* post(`${DELETIONS}/nope/review`, { note: "x".repeat(2001) }, token), { fields: ["id"], apiObject: "Admin" })
        expectValidation(yield* post(`${DELETIONS}/${randomUUID()}/review`, { note: "x".repeat(2001) }, token), { fields: ["note"], apiObject: "Admin" })
        expectFailure(yield* adminGet(DELETIONS), 401, "Authentication required", "Admin")
      }))
  })
})
