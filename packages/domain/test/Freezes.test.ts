/**
 * Staff freezes and unfreezes in the domain (in-memory ports, the fake bank, the TestClock): our
 * side at once, the bank's freeze only after a movement in flight has finished, four-eyes, audit.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import * as Approvals from "../src/admin/Approvals.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import * as Freezes from "../src/admin/Freezes.js"
import { CoreBanking, ProviderRefused } from "../src/banking/CoreBanking.js"
import * as MovementAudit from "../src/admin/MovementAudit.js"
import { activeStaff as staff } from "./support/StaffFixtures.js"
import * as Audit from "../src/admin/Audit.js"
import { AccountRepo } from "../src/account/Ports.js"
import { UnitOfWork } from "../src/shared/Ports.js"
import * as Auth from "../src/auth/index.js"
import * as Transfers from "../src/transfers/index.js"
import { AlertStore, FakeBank } from "./support/InMemory.js"
import { InMemoryFreezesLive, makeFeed } from "./support/InMemoryFreezes.js"
import { TransferStore } from "./support/InMemoryTransfers.js"
import { fundedAda, statusOf, withLifecycle } from "./support/LifecycleFixtures.js"
import { AccountId, CustomerId, TransactionId } from "../src/shared/Ids.js"

const ADMIN = staff("admin", 1)
const ADMIN2 = staff("admin", 2)
const SUPPORT = staff("support", 3)
const ROOT = staff("superadmin", 4)

const withFreezes = <A, E>(effect: Effect.Effect<A, E, any>, fourEyes = false) =>
  withLifecycle(Effect.provide(
    effect,
    Layer.mergeAll(InMemoryFreezesLive, InMemoryAuditLive, Layer.succeed(Approvals.FourEyes, { enabled: fourEyes }))
  ))

const actions = Effect.map(AuditRows.all, (rows) => rows.map((r) => r.action))

/** ₦1 to a sandbox account whose debit answer is lost: the movement stays in flight. */
const movementInFlight = (accountId: AccountId) =>
  Effect.gen(function*() {
    yield* FakeBank.failNext("debit", FakeBank.unknown("debit"))
    return yield* Transfers.startManualTransfer(accountId, {
      destinationAccountNumber: "0123450001",
      destinationBankCode: "000013",
      destinationBankName: "GTBank",
      destinationAccountName: "SANDBOX ACCOUNT 0001",
      amountKobo: 100n,
      idempotencyKey: "0b8f4a7e-3c1d-4e2f-9a8b-7c6d5e4f3a2b"
    })
  })

describe("freeze", () => {
  it.effect("suspends, revokes every session and freezes the core account; unfreeze quotes the reference and restores", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(500_000n)
      const out = yield* Freezes.freeze(ADMIN, ada.customerId, "possible account takeover")
      expect(out).toMatchObject({ frozen: true, customerStatus: "suspended", providerFreeze: "frozen" })
      expect(yield* statusOf(ada.accountId)).toBe("suspended")
      expect((yield* Effect.flip(Auth.rotateRefreshToken(ada.tokens.refreshToken)))._tag).toBe("InvalidRefreshToken")
      const account = yield* FakeBank.account(ada.accountNumber)
      expect(account.frozen).toBe(true)
      // freezing again answers the same and asks the bank nothing more
      expect(yield* Freezes.freeze(ADMIN, ada.customerId, "again")).toMatchObject({ providerFreeze: "frozen", freezeId: out.freezeId })
      expect(yield* FakeBank.calls("freeze")).toBe(1)

      const lifted = yield* Freezes.unfreeze(ADMIN, ada.customerId)
      expect(lifted).toEqual({ frozen: false, customerStatus: "active", providerFreeze: "lifted", freezeId: out.freezeId })
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(false)
      expect(yield* statusOf(ada.accountId)).toBe("active")
      expect(yield* actions).toEqual(["customer.freeze", "customer.freeze.provider", "customer.unfreeze"])
      const rows = yield* AuditRows.all
      expect(rows[0]).toMatchObject({ actorId: ADMIN.id, targetId: ada.customerId, before: { customerStatus: "active" } })
      expect(rows[0]!.after).toMatchObject({ customerStatus: "suspended", reason: "possible account takeover" })
      expect(yield* Audit.verify).toMatchObject({ ok: true, rows: 3 })
    })))

  it.effect("a movement in flight is let finish first: the bank's freeze waits, then the job freezes it", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(500_000n)
      const moving = yield* movementInFlight(ada.accountId)
      expect(moving.status).toBe("pending")
      const fiber = yield* Effect.fork(Freezes.freeze(ADMIN, ada.customerId, "fraud report"))
      yield* TestClock.adjust(Duration.millis(Freezes.MOVEMENT_WAIT_MILLIS + 1000))
      const out = yield* Fiber.join(fiber)
      // our side at once; the bank untouched while the saga holds the account
      expect(out).toMatchObject({ customerStatus: "suspended", providerFreeze: "pending_provider" })
      expect(yield* statusOf(ada.accountId)).toBe("suspended")
      expect(yield* FakeBank.calls("freeze")).toBe(0)
      expect(yield* Freezes.finishPendingFreezes()).toEqual({ claimed: 1, frozen: 0 }) // still in flight
      expect(yield* Freezes.finishPendingFreezes()).toEqual({ claimed: 0, frozen: 0 }) // leased by the run before
      expect(yield* FakeBank.calls("freeze")).toBe(0)
      // the saga recovers (suspension does not stop it), then the job freezes the account
      yield* TestClock.adjust(Duration.minutes(5))
      yield* Transfers.processDue()
      const settled = (yield* TransferStore.all).find((t) => t.id === moving.id)!
      expect(settled.status).not.toBe("pending")
      yield* TestClock.adjust(Duration.minutes(2))
      expect(yield* Freezes.finishPendingFreezes()).toEqual({ claimed: 1, frozen: 1 })
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(true)
      expect(yield* FakeBank.conserved).toBe(true)
      expect(yield* Freezes.finishPendingFreezes()).toEqual({ claimed: 0, frozen: 0 })
    })))

  it.effect("no answer to the freeze (it did freeze): suspended with a critical alert, not retried; the unfreeze says the bank may still hold it", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(100_000n)
      yield* FakeBank.failNext("freeze", FakeBank.unknown("freeze"), { afterApplying: true })
      const out = yield* Freezes.freeze(ADMIN, ada.customerId, "court order")
      expect(out).toMatchObject({ customerStatus: "suspended", providerFreeze: "provider_unknown" })
      expect(yield* AlertStore.kinds).toEqual(["customer_freeze_failed"])
      expect((yield* AlertStore.all)[0]!.message).not.toContain(ada.accountNumber)
      expect(yield* Freezes.finishPendingFreezes()).toEqual({ claimed: 0, frozen: 0 })
      // the unfreeze has no reference to quote: our side is lifted, and it does not claim the bank's is
      expect(yield* Freezes.unfreeze(ADMIN, ada.customerId)).toMatchObject({ customerStatus: "active", providerFreeze: "provider_unknown" })
      expect(yield* FakeBank.calls("unfreeze")).toBe(0)
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(true)
      const alerts = yield* AlertStore.all
      expect(alerts).toHaveLength(2)
      expect(alerts[1]!.message).toContain("never answered its freeze")
    })))

  it.effect("a bank refusal: suspended with a critical alert; the unfreeze lifts our side, the bank has nothing to lift", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(100_000n)
      yield* FakeBank.failNext("freeze", new ProviderRefused({ operation: "freeze", code: "57", reason: "Transaction not permitted" }))
      expect(yield* Freezes.freeze(ADMIN, ada.customerId, "court order")).toMatchObject({ providerFreeze: "provider_failed" })
      expect(yield* AlertStore.kinds).toEqual(["customer_freeze_failed"])
      expect(yield* Freezes.unfreeze(ADMIN, ada.customerId)).toMatchObject({ customerStatus: "active", providerFreeze: "lifted" })
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(false)
      expect(yield* AlertStore.kinds).toEqual(["customer_freeze_failed"])
    })))

  it.effect("unfrozen while the bank was freezing: the lifted record is not reopened, and staff are told to lift the bank's freeze", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(100_000n)
      const real = yield* CoreBanking
      const entered = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const slowFreeze = CoreBanking.of({
        ...real,
        freeze: (input) => Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.zipRight(real.freeze(input)))
      })
      const freezing = yield* Effect.fork(Freezes.freeze(ADMIN, ada.customerId, "court order").pipe(Effect.provideService(CoreBanking, slowFreeze)))
      yield* Deferred.await(entered)
      expect(yield* Freezes.unfreeze(ADMIN, ada.customerId)).toMatchObject({ customerStatus: "active" })
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(freezing)
      expect(yield* statusOf(ada.accountId)).toBe("active")
      expect(Option.isNone(yield* (yield* Freezes.FreezeRepo).findOpen(ada.customerId))).toBe(true)
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(true)
      const [alert] = yield* AlertStore.all
      expect(alert).toMatchObject({ kind: "customer_freeze_failed", severity: "critical" })
      expect(alert!.message).toMatch(/unfrozen while the bank was freezing .* \(freeze reference \S+\): lift that freeze at the bank/)
    })))

  it.effect("the status changed after it was read (closed meanwhile): refused on the status it has now; no freeze, no audit, no bank call", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(500_000n)
      const repo = yield* AccountRepo
      // what freeze reads first is the customer as they were; by its unit of work they are closed
      const stale = yield* repo.findByCustomerId(ada.customerId)
      yield* repo.transitionStatus(ada.accountId, "active", "closed", new Date(0))
      const armed = yield* Ref.make(true)
      const staleOnce = Layer.succeed(AccountRepo, {
        ...repo,
        findByCustomerId: (id: CustomerId) =>
          Effect.flatMap(Ref.getAndSet(armed, false), (first) => (first ? Effect.succeed(stale) : repo.findByCustomerId(id)))
      })
      const refusal = yield* Effect.flip(Freezes.freeze(ADMIN, ada.customerId, "possible account takeover").pipe(Effect.provide(staleOnce)))
      expect(refusal).toMatchObject({ _tag: "CustomerNotFreezable", status: "closed" })
      expect(yield* statusOf(ada.accountId)).toBe("closed")
      expect(yield* actions).not.toContain("customer.freeze")
      expect((yield* FakeBank.account(ada.accountNumber)).frozen).toBe(false)
      expect(yield* FakeBank.calls("freeze")).toBe(0)
    })))

  it.effect("a change committed just before its unit of work (verified → active): frozen from the status it has then, which the unfreeze restores", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(500_000n)
      const repo = yield* AccountRepo
      yield* repo.transitionStatus(ada.accountId, "active", "verified", new Date(0))
      // another request (a first deposit) commits verified → active as the freeze's unit of work begins
      const uow = yield* UnitOfWork
      const armed = yield* Ref.make(true)
      const changedFirst = Layer.succeed(UnitOfWork, UnitOfWork.of({
        atomically: (effect) =>
          Effect.zipRight(
            Effect.flatMap(Ref.getAndSet(armed, false), (first) =>
              first ? repo.transitionStatus(ada.accountId, "verified", "active", new Date(0)) : Effect.void),
            uow.atomically(effect)
          )
      }))
      const out = yield* Freezes.freeze(ADMIN, ada.customerId, "possible account takeover").pipe(Effect.provide(changedFirst))
      expect(out).toMatchObject({ frozen: true, customerStatus: "suspended" })
      expect(yield* statusOf(ada.accountId)).toBe("suspended")
      expect((yield* AuditRows.all).find((r) => r.action === "customer.freeze")?.before).toEqual({ customerStatus: "active" })
      expect(yield* Freezes.unfreeze(ADMIN, ada.customerId)).toMatchObject({ customerStatus: "active" })
    })))

  it.effect("refusals: a role without the permission, an unknown customer, a closed one, unfreezing an active one", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(100_000n)
      expect(yield* Effect.flip(Freezes.freeze(SUPPORT, ada.customerId, "x"))).toMatchObject({ _tag: "PermissionDenied", permission: "customers:freeze" })
      expect((yield* Effect.flip(Freezes.freeze(ADMIN, CustomerId.make("9d7c2b1a-0f3e-4d5c-8b7a-6f5e4d3c2b1a"), "x")))._tag).toBe("AdminCustomerNotFound")
      expect(yield* Effect.flip(Freezes.unfreeze(ADMIN, ada.customerId))).toMatchObject({ _tag: "CustomerNotSuspended", status: "active" })
      expect(yield* Effect.flip(Freezes.unfreeze(SUPPORT, ada.customerId))).toMatchObject({ _tag: "PermissionDenied" })
      expect(yield* statusOf(ada.accountId)).toBe("active")
      yield* (yield* AccountRepo).transitionStatus(ada.accountId, "active", "closed", new Date())
      expect(yield* Effect.flip(Freezes.freeze(ADMIN, ada.customerId, "x"))).toMatchObject({ _tag: "CustomerNotFreezable", status: "closed" })
    })))

  it.effect("a refused unfreeze keeps the customer suspended", () =>
    withFreezes(Effect.gen(function*() {
      const ada = yield* fundedAda(100_000n)
      yield* Freezes.freeze(ADMIN, ada.customerId, "check")
      yield* FakeBank.failNext("unfreeze", FakeBank.unknown("unfreeze"))
      expect((yield* Effect.flip(Freezes.unfreeze(ADMIN, ada.customerId)))._tag).toBe("ProviderUnfreezeFailed")
      expect(yield* statusOf(ada.accountId)).toBe("suspended")
      expect((yield* Freezes.unfreeze(ADMIN, ada.customerId)).customerStatus).toBe("active")
    })))
})

/** Ada frozen by ADMIN, who then asks for her unfreeze (four-eyes on). */
const frozenWithUnfreezeRequest = Effect.gen(function*() {
  const ada = yield* fundedAda(100_000n)
  yield* Freezes.freeze(ADMIN, ada.customerId, "check")
  const filed = yield* Approvals.unfreezeCustomer(ADMIN, ada.customerId)
  if (filed._tag !== "Pending") throw new Error("expected a pending approval")
  return { ada, filed }
})

describe("four-eyes", () => {
  it.effect("an unfreeze waits for a second member: not the requester, once, and it then runs under the approver", () =>
    withFreezes(
      Effect.gen(function*() {
        const { ada, filed } = yield* frozenWithUnfreezeRequest
        expect(filed.approval).toMatchObject({ status: "pending", requestedBy: ADMIN.id, action: { _tag: "customer.unfreeze" } })
        expect(yield* statusOf(ada.accountId)).toBe("suspended")
        expect((yield* Effect.flip(Approvals.approve(ADMIN, filed.approval.id)))._tag).toBe("OwnApproval")
        expect((yield* Effect.flip(Approvals.approve(SUPPORT, filed.approval.id)))._tag).toBe("ApprovalNotFound")
        const done = yield* Approvals.approve(ADMIN2, filed.approval.id)
        expect(done.approval).toMatchObject({ status: "approved", decidedBy: ADMIN2.id })
        expect(yield* statusOf(ada.accountId)).toBe("active")
        expect(yield* Effect.flip(Approvals.approve(ROOT, filed.approval.id))).toMatchObject({ _tag: "ApprovalDecided", status: "approved" })
        const rows = yield* AuditRows.all
        expect(rows.find((r) => r.action === "customer.unfreeze")!.actorId).toBe(ADMIN2.id)
        expect(rows.map((r) => r.action)).toContain("approval.request")
        expect(rows.find((r) => r.action === "approval.approve")!.after).toMatchObject({ requestedBy: ADMIN.id })
      }),
      true
    ))

  it.effect("a failed action leaves the request pending; a settings change is checked when filed and can be rejected", () =>
    withFreezes(
      Effect.gen(function*() {
        const { ada, filed } = yield* frozenWithUnfreezeRequest
        yield* Freezes.unfreeze(ADMIN2, ada.customerId) // someone unfroze directly meanwhile
        expect((yield* Effect.flip(Approvals.approve(ADMIN2, filed.approval.id)))._tag).toBe("CustomerNotSuspended")
        expect((yield* Approvals.list(ADMIN2, "pending", { page: 1, pageSize: 20 })).total).toBe(1)

        expect((yield* Effect.flip(Approvals.updateSetting(ROOT, "plans.borrow.lifetimeCap", "many")))._tag).toBe("InvalidSettingValue")
        expect((yield* Effect.flip(Approvals.updateSetting(ADMIN, "plans.borrow.lifetimeCap", 3)))._tag).toBe("PermissionDenied")
        const setting = yield* Approvals.updateSetting(ROOT, "plans.borrow.lifetimeCap", 3)
        if (setting._tag !== "Pending") throw new Error("expected a pending approval")
        // an admin can neither see nor decide a settings change
        expect((yield* Approvals.list(ADMIN2, undefined, { page: 1, pageSize: 20 })).items.map((a) => a.action._tag)).toEqual(["customer.unfreeze"])
        expect((yield* Effect.flip(Approvals.reject(ADMIN2, setting.approval.id, null)))._tag).toBe("ApprovalNotFound")
        const root2 = staff("superadmin", 5)
        const rejected = yield* Approvals.reject(root2, setting.approval.id, "not now")
        expect(rejected).toMatchObject({ status: "rejected", note: "not now", decidedBy: root2.id })
        expect((yield* Effect.flip(Approvals.approve(root2, setting.approval.id)))._tag).toBe("ApprovalDecided")
      }),
      true
    ))
})

describe("movement audit", () => {
  it.effect("folds each captured change into the chain once, in order, with the states before and after", () =>
    withFreezes(Effect.gen(function*() {
      const { feed, rows } = yield* makeFeed
      const fold = MovementAudit.foldMovementChanges.pipe(Effect.provideService(MovementAudit.MovementChangeFeed, feed))
      const change = (n: number, before: Audit.Json | null, after: Audit.Json) => ({
        id: String(n),
        transactionId: TransactionId.make(`t-${Math.ceil(n / 2)}`),
        customerId: CustomerId.make("c-1"),
        before,
        after,
        changedAt: new Date(n * 1000)
      })
      yield* Ref.set(rows, Array.from({ length: 450 }, (_, i) =>
        i % 2 === 0
          ? change(i + 1, null, { status: "pending", purpose: "manual_transfer", amountKobo: "100" })
          : change(i + 1, { status: "pending" }, { status: "confirmed" })))
      expect(yield* fold).toBe(450)
      expect(yield* Ref.get(rows)).toEqual([])
      const audit = yield* AuditRows.all
      expect(audit.map((r) => r.action).slice(0, 3)).toEqual(["movement.created", "movement.changed", "movement.created"])
      expect(audit[1]).toMatchObject({
        actorKind: "system",
        actorId: "movements",
        targetKind: "transaction",
        targetId: "t-1",
        before: { status: "pending" },
        after: { status: "confirmed", customerId: "c-1", changedAt: "1970-01-01T00:00:02.000Z" }
      })
      expect(yield* fold).toBe(0)
      expect(yield* Audit.verify).toMatchObject({ ok: true, rows: 450 })
    })))
})
