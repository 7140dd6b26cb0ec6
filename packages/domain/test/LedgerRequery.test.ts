/**
 * The back office's requery (POST /admin/transactions/{id}/requery) when the provider gives no
 * answer or refuses to: each reference is reported `unreachable` or `refused` beside our status,
 * nothing is guessed or changed (the movement stays as stored, no money call is made), and the
 * answer is audited as given. The happy path runs end to end in packages/http/test/AdminLedger.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Ref } from "effect"
import * as Ledger from "../src/admin/Ledger.js"
import { ProviderRefused } from "../src/banking/CoreBanking.js"
import { TransactionRepo } from "../src/transactions/Ports.js"
import { Transaction } from "../src/transactions/Model.js"
import { FakeBank } from "./support/FakeBank.js"
import { InMemoryLayer, Store } from "./support/InMemory.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { activeStaff } from "./support/StaffFixtures.js"
import { CustomerId, TransactionId } from "../src/shared/Ids.js"

const ADMIN = activeStaff("admin", 1)
const SUPPORT = activeStaff("support", 2)
const at = new Date("2026-05-01T08:00:00Z")

/** A manual transfer whose outcome we do not know yet: debit and transfer references stored, pending. */
const pendingTransfer = new Transaction({
  id: TransactionId.make("00000000-0000-4000-8000-00000000a001"),
  customerId: CustomerId.make("00000000-0000-4000-8000-00000000c001"),
  planId: null,
  type: "transfer",
  purpose: "manual_transfer",
  amountKobo: 150_000n,
  feeKobo: 1_075n,
  status: "pending",
  retrievalReference: "KOBO-D-a001",
  transferReference: "KOBO-T-a001",
  providerReference: null,
  failureReason: null,
  retryCount: 0,
  createdAt: at,
  updatedAt: at
})

const seeded = Effect.flatMap(Store, (s) => Ref.update(s.ref, (st) => ({ ...st, transactions: [...st.transactions, pendingTransfer] })))

const env = Layer.provideMerge(InMemoryAuditLive, InMemoryLayer)

/** Every bank operation but the requeries: a requery must not move money or touch the account. */
const otherBankCalls = Effect.map(Effect.flatMap(FakeBank, (bank) => Ref.get(bank.calls)), (calls) => calls.filter((c) => c !== "requery"))

describe("Ledger.requery without a provider answer", () => {
  it.effect("timed out (unknown outcome) for both references: unreachable beside ours, nothing changed, audited", () =>
    Effect.gen(function*() {
      yield* seeded
      yield* FakeBank.failNext("requery", FakeBank.unknown("requery"))
      yield* FakeBank.failNext("requery", FakeBank.unknown("requery"))
      const before = yield* otherBankCalls
      const answer = yield* Ledger.requery(ADMIN, pendingTransfer.id)
      expect(answer.transaction).toEqual(pendingTransfer)
      expect(answer.provider).toEqual({
        debit: { reference: "KOBO-D-a001", status: "unreachable" },
        transfer: { reference: "KOBO-T-a001", status: "unreachable" }
      })
      expect(yield* FakeBank.calls("requery")).toBe(2)
      expect(yield* otherBankCalls).toEqual(before)
      const stored = yield* (yield* TransactionRepo).findById(pendingTransfer.id)
      expect(stored._tag === "Some" && stored.value).toEqual(pendingTransfer)
      const rows = yield* AuditRows.all
      expect(rows.map((r) => [r.action, r.actorId, r.targetId, r.after])).toEqual([
        ["transaction.requery", ADMIN.id, pendingTransfer.id, { ours: "pending", debit: "unreachable", transfer: "unreachable" }]
      ])
    }).pipe(Effect.provide(env)))

  it.effect("refused by the provider: refused, nothing changed; one reference answered and one not are reported each as given", () =>
    Effect.gen(function*() {
      yield* seeded
      const refused = new ProviderRefused({ operation: "requery", code: "57", reason: "not permitted" })
      yield* FakeBank.failNext("requery", refused)
      yield* FakeBank.failNext("requery", refused)
      const first = yield* Ledger.requery(ADMIN, pendingTransfer.id)
      expect([first.provider.debit?.status, first.provider.transfer?.status]).toEqual(["refused", "refused"])
      // one fault left for the next two requeries: whichever reference it hits is unreachable, the
      // other is what the bank knows (neither reference was ever posted: not_found)
      yield* FakeBank.failNext("requery", FakeBank.unknown("requery"))
      const second = yield* Ledger.requery(ADMIN, pendingTransfer.id)
      expect([second.provider.debit?.status, second.provider.transfer?.status].sort()).toEqual(["not_found", "unreachable"])
      const stored = yield* (yield* TransactionRepo).findById(pendingTransfer.id)
      expect(stored._tag === "Some" && stored.value).toEqual(pendingTransfer)
      expect((yield* AuditRows.all).map((r) => r.after)).toEqual([
        { ours: "pending", debit: "refused", transfer: "refused" },
        { ours: "pending", debit: second.provider.debit?.status, transfer: second.provider.transfer?.status }
      ])
    }).pipe(Effect.provide(env)))

  it.effect("a role without transactions:requery asks nothing of the bank and writes no audit row", () =>
    Effect.gen(function*() {
      yield* seeded
      const refusal = yield* Effect.flip(Ledger.requery(SUPPORT, pendingTransfer.id))
      expect(refusal._tag).toBe("PermissionDenied")
      expect(yield* FakeBank.calls("requery")).toBe(0)
      expect(yield* AuditRows.all).toEqual([])
    }).pipe(Effect.provide(env)))
})
