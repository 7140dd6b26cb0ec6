/**
 * Branded ids: an account id and a customer id (a beneficiary id and a spending id, an alert, approval,
 * deletion and freeze id…) are all UUID strings, and mixing them up is a
 * compile error. The `@ts-expect-error` lines are checked by `npx tsc -b` (this file is in the
 * domain project): if a swap ever compiled again, the unused directive would fail the build.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { AccountRepo } from "../src/account/Ports.js"
import * as AlertDesk from "../src/admin/AlertDesk.js"
import { AlertRepo, raiseAlert } from "../src/admin/Alerts.js"
import * as Approvals from "../src/admin/Approvals.js"
import * as Deletions from "../src/admin/Deletions.js"
import { CustomerFreeze, FreezeRepo } from "../src/admin/Freezes.js"
import * as Beneficiaries from "../src/beneficiaries/Beneficiaries.js"
import { BeneficiaryRepo } from "../src/beneficiaries/Ports.js"
import {
  AccountId, AlertId, ApprovalId, BeneficiaryId, CustomerId, DeletionId, FreezeId, newId, PlanId, SpendingId, TicketId
} from "../src/shared/Ids.js"
import { Ids } from "../src/shared/Ports.js"
import * as Spendings from "../src/spending/index.js"
import { SpendingRepo } from "../src/spending/Ports.js"
import { inMemory, registerAda, verifiedAda } from "./support/Fixtures.js"
import { InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { InMemoryFreezesLive } from "./support/InMemoryFreezes.js"
import { withSpendings } from "./support/InMemorySpendings.js"
import { activeStaff } from "./support/StaffFixtures.js"

const ROOT = activeStaff("superadmin", 1)

/** A deletion desk that holds no record: every id it is asked for is unknown. */
const NoDeletions = Layer.succeed(Deletions.DeletionDesk, {
  list: () => Effect.succeed({ items: [], page: 1, pageSize: 20, total: 0 }),
  find: () => Effect.succeed(Option.none()),
  markReviewed: () => Effect.succeed(Option.none())
})

/** The in-memory ports, with freezes, approvals, the audit and `NoDeletions` (what the back office's use cases need). */
const withStaffPorts = <A, E>(self: Effect.Effect<A, E, any>) =>
  inMemory(Effect.provide(self, Layer.mergeAll(InMemoryFreezesLive, InMemoryAuditLive, NoDeletions)))

describe("branded ids", () => {
  it.effect("a customer id where an account id is expected (and back) does not compile", () =>
    inMemory(Effect.gen(function*() {
      const { account, customer } = yield* registerAda()
      const accounts = yield* AccountRepo
      expect(Option.isSome(yield* accounts.findById(account.id))).toBe(true)
      expect(Option.isSome(yield* accounts.findByCustomerId(customer.id))).toBe(true)
      // @ts-expect-error a CustomerId is not an AccountId
      expect(Option.isNone(yield* accounts.findById(customer.id))).toBe(true)
      // @ts-expect-error an AccountId is not a CustomerId
      expect(Option.isNone(yield* accounts.findByCustomerId(account.id))).toBe(true)
      // @ts-expect-error a plain string is not an id of any kind
      expect(Option.isNone(yield* accounts.findById("not-branded"))).toBe(true)
    })))

  it("decoding a string gives the id of that kind, the same string at run time", () => {
    const raw = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"
    const accountId: AccountId = AccountId.make(raw)
    const customerId: CustomerId = CustomerId.make(raw)
    expect(accountId).toBe(raw)
    expect(customerId).toBe(raw)
  })

  it.effect("newId brands the next id of the Ids port", () =>
    Effect.gen(function*() {
      const id: PlanId = yield* newId(PlanId)
      expect(id).toBe("00000000-0000-4000-8000-000000000001")
    }).pipe(Effect.provide(Layer.succeed(Ids, { next: Effect.succeed("00000000-0000-4000-8000-000000000001") }))))

  it.effect("a beneficiary id where a spending id is expected (and back) does not compile, in the use cases and the ports", () =>
    withSpendings(Effect.gen(function*() {
      const { accountId } = yield* verifiedAda
      const { customer } = Option.getOrThrow(yield* (yield* AccountRepo).findById(accountId))
      const beneficiary = yield* Beneficiaries.add(accountId, { accountNumber: "0123450001", bankCode: "000013", bankName: "GTBank" })
      const spending = yield* Spendings.logSpending(accountId, { amountKobo: 100n, category: "food", date: "1970-01-01" })
      const beneficiaryId: BeneficiaryId = beneficiary.id
      const spendingId: SpendingId = spending.id
      // @ts-expect-error a BeneficiaryId is not a SpendingId
      expect((yield* Effect.flip(Spendings.removeSpending(accountId, beneficiaryId)))._tag).toBe("SpendingNotFound")
      // @ts-expect-error a SpendingId is not a BeneficiaryId
      expect((yield* Effect.flip(Beneficiaries.setDefault(accountId, spendingId)))._tag).toBe("BeneficiaryNotFound")
      // @ts-expect-error a SpendingId is not a BeneficiaryId
      expect(Option.isNone(yield* (yield* BeneficiaryRepo).findById(customer.id, spendingId))).toBe(true)
      // @ts-expect-error a BeneficiaryId is not a SpendingId
      expect(Option.isNone(yield* (yield* SpendingRepo).update(customer.id, beneficiaryId, { amountKobo: 1n }, new Date(0)))).toBe(true)
      // @ts-expect-error a plain string is not a SpendingId
      expect(Option.isNone(yield* (yield* SpendingRepo).remove(customer.id, "not-branded"))).toBe(true)
      // each kind where it belongs
      expect(Option.isSome(yield* (yield* BeneficiaryRepo).findById(customer.id, beneficiaryId))).toBe(true)
      expect((yield* Spendings.removeSpending(accountId, spendingId)).id).toBe(spendingId)
    })))

  it.effect("alert, approval, deletion and freeze ids are four kinds: one where another is expected does not compile", () =>
    withStaffPorts(Effect.gen(function*() {
      const { customer } = yield* registerAda()
      const alert = yield* raiseAlert({ kind: "sign_in_throttled", dedupKey: "sign_in_throttled:ids", message: "test" })
      const alertId: AlertId = alert.id
      const approvalId = ApprovalId.make("00000000-0000-4000-8000-00000000a001")
      const deletionId = DeletionId.make("00000000-0000-4000-8000-00000000d001")
      const freezeId = FreezeId.make("00000000-0000-4000-8000-00000000f001")
      const freezes = yield* FreezeRepo
      yield* freezes.insert(new CustomerFreeze({
        id: freezeId,
        customerId: customer.id,
        staffId: null,
        reason: "ids",
        previousStatus: "unverified",
        state: "pending_provider",
        providerReference: null,
        requestedAt: new Date(0),
        updatedAt: new Date(0),
        liftedAt: null,
        liftedBy: null
      }))
      // @ts-expect-error an ApprovalId is not an AlertId
      expect((yield* Effect.flip(AlertDesk.acknowledge(ROOT, approvalId)))._tag).toBe("AlertNotFound")
      // @ts-expect-error a FreezeId is not an AlertId
      expect(yield* (yield* AlertRepo).acknowledge(freezeId, ROOT.id, new Date(0))).toBe(false)
      // @ts-expect-error a DeletionId is not an ApprovalId
      expect((yield* Effect.flip(Approvals.approve(ROOT, deletionId)))._tag).toBe("ApprovalNotFound")
      // @ts-expect-error an AlertId is not a DeletionId
      expect((yield* Effect.flip(Deletions.review(ROOT, alertId)))._tag).toBe("DeletionNotFound")
      // @ts-expect-error a DeletionId is not a FreezeId
      expect(yield* freezes.claimPending(deletionId, new Date(0), new Date(1), 1)).toEqual([])
      // @ts-expect-error a TicketId is not an ApprovalId
      expect((yield* Effect.flip(Approvals.reject(ROOT, TicketId.make(alertId), null)))._tag).toBe("ApprovalNotFound")
      // each kind where it belongs
      expect((yield* freezes.claimPending(freezeId, new Date(0), new Date(1), 1)).map((f) => f.id)).toEqual([freezeId])
      expect(yield* (yield* AlertRepo).acknowledge(alertId, ROOT.id, new Date(0))).toBe(true)
    })))
})
