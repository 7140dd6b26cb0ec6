/** In-memory TransactionRepo and BeneficiaryRepo over the shared Store (see InMemory.ts). */
import { Effect, Layer, Option, Ref } from "effect"
import { Beneficiary } from "../../src/beneficiaries/Model.js"
import { Transaction } from "../../src/transactions/Model.js"
import { BeneficiaryRepo } from "../../src/beneficiaries/Ports.js"
import { TransactionRepo } from "../../src/transactions/Ports.js"
import { type State, Store } from "./InMemoryStore.js"
import { CustomerId, TransactionId } from "../../src/shared/Ids.js"

export const TransactionRepoLive = Layer.effect(
  TransactionRepo,
  Effect.map(Store, ({ ref }) => ({
    recordDeposit: (deposit) =>
      Ref.modify(ref, (st): [boolean, State] => {
        if (
          st.transactions.some((t) => t.customerId === deposit.customerId && t.providerReference === deposit.providerReference)
        ) return [false, st]
        const row = new Transaction({
          id: TransactionId.make(deposit.id),
          customerId: deposit.customerId,
          planId: null,
          type: "credit",
          purpose: "deposit",
          amountKobo: deposit.amountKobo,
          feeKobo: 0n,
          status: "confirmed",
          retrievalReference: null,
          transferReference: null,
          providerReference: deposit.providerReference,
          failureReason: null,
          retryCount: 0,
          createdAt: deposit.postedAt,
          updatedAt: deposit.now
        })
        return [true, { ...st, transactions: [...st.transactions, row] }]
      }),
    findById: (id) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.transactions.find((t) => t.id === id))),
    listForCustomer: (customerId, { page, pageSize }) =>
      Effect.map(Ref.get(ref), (st) => {
        const all = st.transactions
          .filter((t) => t.customerId === customerId)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        return { items: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: all.length }
      }),
    listForCustomerBetween: (customerId, from, until) =>
      Effect.map(Ref.get(ref), (st) =>
        st.transactions
          .filter((t) =>
            t.customerId === customerId && t.createdAt.getTime() >= from.getTime() && t.createdAt.getTime() < until.getTime()
          )
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))),
    listForCustomerByPurpose: (customerId, purpose) =>
      Effect.map(Ref.get(ref), (st) =>
        st.transactions
          .filter((t) => t.customerId === customerId && t.purpose === purpose)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)))
  }))
)

/** The default first, then oldest first (ties by id). */
const beneficiaryOrder = (a: Beneficiary, b: Beneficiary) =>
  Number(b.isDefault) - Number(a.isDefault) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)

export const BeneficiaryRepoLive = Layer.effect(
  BeneficiaryRepo,
  Effect.map(Store, ({ ref }) => {
    const mine = (st: State, customerId: CustomerId) => st.beneficiaries.filter((b) => b.customerId === customerId)
    const replace = (st: State, f: (b: Beneficiary) => Beneficiary): State => ({ ...st, beneficiaries: st.beneficiaries.map(f) })
    return {
      add: (input) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          const own = mine(st, input.customerId)
          if (own.some((b) => b.accountNumber === input.accountNumber && b.bankCode === input.bankCode)) return [Option.none(), st]
          const added = new Beneficiary({ ...input, isDefault: !own.some((b) => b.isDefault) })
          return [Option.some(added), { ...st, beneficiaries: [...st.beneficiaries, added] }]
        }),
      list: (customerId) => Effect.map(Ref.get(ref), (st) => mine(st, customerId).sort(beneficiaryOrder)),
      findById: (customerId, id) =>
        Effect.map(Ref.get(ref), (st) => Option.fromNullable(mine(st, customerId).find((b) => b.id === id))),
      setDefault: (customerId, id) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          if (!mine(st, customerId).some((b) => b.id === id)) return [Option.none(), st]
          const next = replace(st, (b) => b.customerId === customerId && b.isDefault !== (b.id === id) ? new Beneficiary({ ...b, isDefault: b.id === id }) : b)
          return [Option.fromNullable(next.beneficiaries.find((b) => b.id === id)), next]
        }),
      remove: (customerId, id) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          const found = mine(st, customerId).find((b) => b.id === id)
          if (found === undefined) return [Option.none(), st]
          return [Option.some(found), { ...st, beneficiaries: st.beneficiaries.filter((b) => b.id !== id) }]
        }),
      promoteOldest: (customerId) =>
        Ref.modify(ref, (st): [Option.Option<Beneficiary>, State] => {
          const own = mine(st, customerId).sort(beneficiaryOrder)
          if (own.length === 0 || own.some((b) => b.isDefault)) return [Option.none(), st]
          const promoted = new Beneficiary({ ...own[0]!, isDefault: true })
          return [Option.some(promoted), replace(st, (b) => b.id === promoted.id ? promoted : b)]
        })
    }
  })
)
