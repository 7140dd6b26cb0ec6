import {Effect, Redacted} from "effect"
import * as Auth from "../../src/auth/index.js"
import type { TokenPair } from "../../src/auth/Model.js"
import * as Banking from "../../src/banking/index.js"
import {InMemoryLayer, type InMemory, Sent} from "./InMemory.js"

/** Runs a test body against fresh in-memory ports (the TestClock of `it.effect` still applies). */
export const inMemory = <A, E>(self: Effect.Effect<A, E, InMemory>): Effect.Effect<A, E> =>
  Effect.provide(self, InMemoryLayer)

export const pw = (plain: string) => Redacted.make(plain)

export const ADA = {
  email: "ada@example.com",
  phone: "+2348031234567",
  password: "correct horse battery staple"
} as const

export const BOLA = {
  email: "bola@example.com",
  phone: "+2349051234567",
  password: "another long password"
} as const

export const registerAda = (overrides: Partial<Auth.RegisterInput> = {}) =>
  Auth.register({
    email: ADA.email,
    phone: ADA.phone,
    password: pw(ADA.password),
    firstName: "Ada",
    lastName: "Obi",
    ...overrides
  })

export const registerBola = Auth.register({ email: BOLA.email, phone: BOLA.phone, password: pw(BOLA.password) })

/** A 6-digit code that differs from `code` in every position. */
export const wrongCode = (code: string) => [...code].map((d) => String((Number(d) + 1) % 10)).join("")

/** register → sendEmailOtp → verifyEmailOtp: a verified customer, and its first token pair. */
export const verifiedAda = Effect.gen(function*() {
  const { account } = yield* registerAda()
  yield* Auth.sendEmailOtp(account.id)
  // the first verification answers the token pair
  const tokens = (yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))) as TokenPair
  return { accountId: account.id, tokens }
})

/** An 11-digit BVN the fake registry knows as Ada Obi, born 1990-01-01. */
export const ADA_BVN = "22345678901"

export const bvnInput = (overrides: Partial<Banking.VerifyBvnInput> = {}): Banking.VerifyBvnInput => ({
  bvn: ADA_BVN,
  firstName: "Ada",
  lastName: "Obi",
  phone: ADA.phone,
  address: "1 Marina, Lagos",
  gender: "female",
  dateOfBirth: "1990-01-01",
  ...overrides
})

/** A verified customer whose BVN is verified too. */
export const bvnVerifiedAda = Effect.gen(function*() {
  const ada = yield* verifiedAda
  yield* Banking.verifyBvn(ada.accountId, bvnInput())
  return ada
})

/** An active customer with a bank account (PND active, no deposit yet). */
export const bankedAda = Effect.gen(function*() {
  const ada = yield* bvnVerifiedAda
  const { accountNumber } = yield* Banking.openBankAccount(ada.accountId)
  return { ...ada, accountNumber }
})

/** Bola, taken to a bank account the same way, with its own BVN. */
export const bankedBola = Effect.gen(function*() {
  const { account } = yield* registerBola
  yield* Auth.sendEmailOtp(account.id)
  yield* Auth.verifyEmailOtp(account.id, yield* Sent.lastCode("email_verification"))
  yield* Banking.verifyBvn(account.id, bvnInput({ bvn: "22345678902", phone: BOLA.phone }))
  const { accountNumber } = yield* Banking.openBankAccount(account.id)
  return { accountId: account.id, accountNumber }
})
