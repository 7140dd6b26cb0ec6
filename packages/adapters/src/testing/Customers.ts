/**
 * Customers for tests that seed a database: by default an active, BVN-verified customer with a bank
 * account (or, with `bankAccount: false`, a verified one without), inserted through AccountRepo,
 * unique per call (email and account number), created at `createdAt`.
 */
import { Account, AccountId, AccountRepo, Customer, CustomerId } from "@app/domain"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"

let counter = 0

/** `tag` names the test file in the email; `accountPrefix` (2 digits) keeps account numbers apart. */
export const newCustomer = (
  tag: string,
  accountPrefix: string,
  createdAt: Date,
  options: {
    readonly referredBy?: CustomerId
    readonly firstName?: string
    readonly lastName?: string
    readonly bankAccount?: boolean
    readonly referralCode?: string
  } = {}
) =>
  Effect.gen(function*() {
    const accountId = AccountId.make(randomUUID())
    const n = ++counter
    const customer = new Customer({
      id: CustomerId.make(randomUUID()),
      accountId,
      customerStatus: options.bankAccount === false ? "verified" : "active",
      kycStatus: options.bankAccount === false ? "pending" : "bvn_verified",
      referralCode: options.referralCode ?? randomUUID().slice(0, 8).toUpperCase(),
      referredBy: options.referredBy ?? null,
      pinHash: null,
      smsEnabled: true,
      emailEnabled: true,
      createdAt,
      updatedAt: createdAt,
      coreAccountNumber: options.bankAccount === false ? null : `${accountPrefix}${String(n).padStart(8, "0")}${randomUUID().slice(0, 4)}`
    })
    yield* (yield* AccountRepo).create({
      account: new Account({
        id: accountId,
        email: `${tag}-${n}-${randomUUID().slice(0, 8)}@example.com`,
        phone: null,
        passwordHash: "hash",
        firstName: options.firstName ?? "Ada",
        lastName: options.lastName ?? "Obi",
        otherNames: null,
        dateOfBirth: "1990-01-31",
        gender: "female",
        address: "1 Marina, Lagos",
        emailVerified: true,
        phoneVerified: false,
        createdAt,
        updatedAt: createdAt
      }),
      customer
    })
    return customer
  })
