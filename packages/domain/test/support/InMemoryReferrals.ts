/**
 * An in-memory ReferralRepo over the test Store (InMemory.ts): the accounts of the store are the
 * customers, `referredBy` links them. Part of `InMemoryLayer`.
 */
import { Effect, Option, Ref } from "effect"
import type { ReferralRepo } from "../../src/referrals/Ports.js"
import type { State } from "./InMemory.js"

export const makeInMemoryReferralRepo = (ref: Ref.Ref<State>): ReferralRepo["Type"] => ({
  findReferrer: (code) =>
    Effect.map(Ref.get(ref), (st) =>
      Option.fromNullable([...st.accounts.values()].find((a) => a.customer.referralCode === code)).pipe(
        Option.map((a) => ({ customerId: a.customer.id }))
      )),
  listReferred: (customerId) =>
    Effect.map(Ref.get(ref), (st) =>
      [...st.accounts.values()]
        .filter((a) => a.customer.referredBy === customerId)
        .sort((a, b) => a.customer.createdAt.getTime() - b.customer.createdAt.getTime())
        .map(({ account, customer }) => ({
          customerId: customer.id,
          firstName: account.firstName,
          lastName: account.lastName,
          customerStatus: customer.customerStatus,
          joinedAt: customer.createdAt,
          firstDepositAt: customer.firstDepositAt
        })))
})
