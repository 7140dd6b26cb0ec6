/**
 * In-memory ClosureRepo and AccountErasure with the documented semantics of the ports: one
 * `closing` closure per customer, the key unique per customer, leases for claims; erasure marks
 * the customer deleted once (None the second time), keeps the transactions and the KYC record in
 * a retention list, erases the rest and tombstones the account.
 */
import { Context, Effect, Layer, Option, Ref } from "effect"
import { Account, Customer } from "../../src/account/Model.js"
import { AccountClosure, type DeletionRecord } from "../../src/lifecycle/Model.js"
import { AccountErasure, ClosureRepo } from "../../src/lifecycle/Ports.js"
import { Store } from "./InMemory.js"
import { TransferStore } from "./InMemoryTransfers.js"

interface Retained {
  readonly deletionId: string
  readonly kind: string
  readonly payload: unknown
  readonly retainUntil: Date
}

interface LifecycleState {
  readonly closures: ReadonlyMap<string, AccountClosure & { readonly leaseUntil?: Date | null }>
  readonly deletions: ReadonlyArray<DeletionRecord>
  readonly retained: ReadonlyArray<Retained>
}

export class LifecycleStore extends Context.Tag("test/LifecycleStore")<LifecycleStore, Ref.Ref<LifecycleState>>() {
  static readonly state = Effect.flatMap(LifecycleStore, Ref.get)
}

/** Makes `erase` die (a database failure part-way), to test the rollback and the alert. */
export class ErasureFault extends Context.Tag("test/ErasureFault")<ErasureFault, Ref.Ref<boolean>>() {}

const free = (c: { readonly leaseUntil?: Date | null }, now: Date) =>
  c.leaseUntil === undefined || c.leaseUntil === null || c.leaseUntil.getTime() < now.getTime()

export const InMemoryLifecycleLive = Layer.mergeAll(
  Layer.effect(
    ClosureRepo,
    Effect.gen(function*() {
      const ref = yield* LifecycleStore
      const store = yield* Store
      const transfers = yield* TransferStore
      const put = (c: AccountClosure, leaseUntil: Date | null) =>
        Ref.update(ref, (s) => ({ ...s, closures: new Map(s.closures).set(c.id, Object.assign(new AccountClosure(c), { leaseUntil })) }))
      const strip = (c: AccountClosure) => new AccountClosure(c)
      const workLeft = (c: AccountClosure) =>
        Effect.map(Ref.get(store.ref), (st) =>
          c.status === "closing" ||
          (c.status === "closed" && c.deleteRequested &&
            [...st.accounts.values()].some((a) => a.customer.id === c.customerId && a.customer.customerStatus === "closed")))
      const find = (pred: (c: AccountClosure) => boolean) =>
        Effect.map(Ref.get(ref), (s) => Option.fromNullable([...s.closures.values()].filter(pred).at(-1)).pipe(Option.map(strip)))
      return ClosureRepo.of({
        insert: (c) =>
          Effect.flatMap(Ref.get(ref), (s) =>
            [...s.closures.values()].some((o) => o.customerId === c.customerId && (o.idempotencyKey === c.idempotencyKey || (o.status === "closing" && c.status === "closing")))
              ? Effect.succeed(false)
              : Effect.as(put(c, null), true)),
        findById: (id) => find((c) => c.id === id),
        findByKey: (customerId, key) => find((c) => c.customerId === customerId && c.idempotencyKey === key),
        findOpen: (customerId) => find((c) => c.customerId === customerId && c.status === "closing"),
        claim: (id, now, leaseUntil) =>
          Effect.gen(function*() {
            const c = (yield* Ref.get(ref)).closures.get(id)
            if (c === undefined || !free(c, now) || !(yield* workLeft(c))) return Option.none()
            yield* put(c, leaseUntil)
            return Option.some(strip(c))
          }),
        claimSettled: (now, leaseUntil, limit) =>
          Effect.gen(function*() {
            const ts = yield* Ref.get(transfers)
            const picked: Array<AccountClosure> = []
            for (const c of (yield* Ref.get(ref)).closures.values()) {
              if (picked.length >= limit || !free(c, now) || !(yield* workLeft(c))) continue
              if (c.transactionId !== null && ts.get(c.transactionId)?.status === "pending") continue
              yield* put(c, leaseUntil)
              picked.push(strip(c))
            }
            return picked
          }),
        save: (c) =>
          Effect.flatMap(Ref.get(ref), (s) => {
            const stored = s.closures.get(c.id)!
            return put(new AccountClosure({
              ...c,
              deleteRequested: stored.deleteRequested || c.deleteRequested,
              deleteVia: stored.deleteVia ?? c.deleteVia
            }), null)
          }),
        requestDeletion: (id, via, now) =>
          Effect.flatMap(Ref.get(ref), (s) => {
            const stored = s.closures.get(id)!
            return put(new AccountClosure({ ...stored, deleteRequested: true, deleteVia: via, updatedAt: now }), stored.leaseUntil ?? null)
          })
      })
    })
  ),
  Layer.effect(
    AccountErasure,
    Effect.gen(function*() {
      const ref = yield* LifecycleStore
      const store = yield* Store
      const transfers = yield* TransferStore
      const fault = yield* ErasureFault
      return AccountErasure.of({
        erase: (e) =>
          Effect.gen(function*() {
            const st = yield* Ref.get(store.ref)
            const found = st.accounts.get(e.accountId)
            if (found === undefined || found.customer.customerStatus === "deleted") return Option.none()
            const ledger = st.transactions.filter((t) => t.customerId === e.customerId)
            const movements = [...(yield* Ref.get(transfers)).values()].filter((t) => t.customerId === e.customerId)
            const counts = {
              transactions: ledger.length + movements.length,
              beneficiaries: st.beneficiaries.filter((b) => b.customerId === e.customerId).length,
              sessions: st.refreshTokens.filter((t) => t.accountId === e.accountId).length
            }
            const keep = (kind: string, payload: unknown) => ({ deletionId: e.deletionId, kind, payload, retainUntil: e.retainUntil })
            yield* Ref.update(store.ref, (s) => {
              const accounts = new Map(s.accounts)
              accounts.set(e.accountId, {
                account: new Account({
                  ...found.account,
                  email: `deleted-${e.accountId}@deleted.invalid`,
                  phone: null,
                  passwordHash: null,
                  firstName: null,
                  lastName: null,
                  otherNames: null,
                  dateOfBirth: null,
                  gender: null,
                  address: null,
                  displayName: null,
                  whatsappNumber: null,
                  emailVerified: false,
                  phoneVerified: false
                }),
                customer: new Customer({
                  ...found.customer,
                  customerStatus: "deleted",
                  bvnHash: null,
                  pinHash: null,
                  coreAccountNumber: null,
                  coreAccountReference: null
                })
              })
              return {
                ...s,
                accounts,
                transactions: s.transactions.filter((t) => t.customerId !== e.customerId),
                beneficiaries: s.beneficiaries.filter((b) => b.customerId !== e.customerId),
                refreshTokens: s.refreshTokens.filter((t) => t.accountId !== e.accountId),
                otps: s.otps.filter((o) => o.accountId !== e.accountId)
              }
            })
            if (yield* Ref.get(fault)) return yield* Effect.dieMessage("test: erasure failed part-way")
            yield* Ref.update(transfers, (m) => new Map([...m].filter(([, t]) => t.customerId !== e.customerId)))
            yield* Ref.update(ref, (s) => ({
              ...s,
              retained: [
                ...s.retained,
                keep("kyc", { ...found.account, ...found.customer }),
                ...ledger.map((t) => keep("transaction", t)),
                ...movements.map((t) => keep("transaction", t))
              ]
            }))
            return Option.some(counts)
          }),
        recordDeletion: (r) => Ref.update(ref, (s) => ({ ...s, deletions: [...s.deletions, r] })),
        findDeletion: (customerId) =>
          Effect.map(Ref.get(ref), (s) => Option.fromNullable(s.deletions.find((d) => d.customerId === customerId))),
        purgeRetained: (now) =>
          Ref.modify(ref, (s) => {
            const kept = s.retained.filter((r) => r.retainUntil.getTime() >= now.getTime())
            return [s.retained.length - kept.length, { ...s, retained: kept }]
          })
      })
    })
  )
).pipe(
  Layer.provideMerge(Layer.mergeAll(
    Layer.effect(LifecycleStore, Ref.make<LifecycleState>({ closures: new Map(), deletions: [], retained: [] })),
    Layer.effect(ErasureFault, Ref.make(false))
  ))
)
