/**
 * Registration: a new account and its customer, with a unique referral code.
 */
import { Effect, Option, Redacted } from "effect"
import { Account, type AccountWithCustomer, Customer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { REFERRAL_ALPHABET, REFERRAL_CODE_LENGTH } from "../referrals/ReferralCode.js"
import { resolveReferrer } from "../referrals/Referrals.js"
import { PasswordHasher, SecureRandom } from "../shared/Ports.js"
import { AccountId, CustomerId, newId } from "../shared/Ids.js"
import { now } from "../shared/UseCase.js"
import { EmailTaken, PhoneTaken } from "./Errors.js"
import { withSpan } from "../shared/Spans.js"

export interface RegisterInput {
  readonly email: string
  readonly password: Redacted.Redacted<string>
  readonly phone?: string | undefined
  readonly firstName?: string | undefined
  readonly lastName?: string | undefined
  readonly otherNames?: string | undefined
  readonly dateOfBirth?: string | undefined
  readonly gender?: "male" | "female" | undefined
  readonly address?: string | undefined
  /** the code of the customer who referred this one (UnknownReferralCode when nobody has it) */
  readonly referralCode?: string | undefined
}

export const register = (input: RegisterInput) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    if (yield* repo.emailExists(input.email)) return yield* new EmailTaken()
    if (input.phone !== undefined && (yield* repo.phoneExists(input.phone))) return yield* new PhoneTaken()
    const referredBy = yield* resolveReferrer(input.referralCode)
    const passwordHash = yield* (yield* PasswordHasher).hash(input.password)
    return yield* createCustomer({
      email: input.email,
      phone: input.phone ?? null,
      passwordHash,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      otherNames: input.otherNames ?? null,
      dateOfBirth: input.dateOfBirth ?? null,
      gender: input.gender ?? null,
      address: input.address ?? null,
      emailVerified: false,
      referredBy: Option.getOrNull(referredBy)
    })
  }).pipe(withSpan("Auth.register"))

export interface NewCustomerInput {
  readonly email: string
  readonly phone: string | null
  /** null for an account created by social sign-in (POST /auth/set-password adds one) */
  readonly passwordHash: string | null
  readonly firstName: string | null
  readonly lastName: string | null
  readonly otherNames: string | null
  readonly dateOfBirth: string | null
  readonly gender: "male" | "female" | null
  readonly address: string | null
  /** true when the identity provider vouches for the email: the customer starts `verified` */
  readonly emailVerified: boolean
  readonly referredBy: CustomerId | null
}

/**
 * Creates an account and its customer, with a fresh unique referral code. A referral-code
 * collision (31^8 codes) is retried with a fresh code; a raced duplicate email or phone is
 * EmailTaken / PhoneTaken.
 */
export const createCustomer = (input: NewCustomerInput) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    const random = yield* SecureRandom
    const at = yield* now
    const accountId = yield* newId(AccountId)
    const account = new Account({
      id: accountId,
      email: input.email,
      phone: input.phone,
      passwordHash: input.passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      otherNames: input.otherNames,
      dateOfBirth: input.dateOfBirth,
      gender: input.gender,
      address: input.address,
      emailVerified: input.emailVerified,
      phoneVerified: false,
      createdAt: at,
      updatedAt: at
    })
    const customerId = yield* newId(CustomerId)
    const create = Effect.gen(function*() {
      const customer = new Customer({
        id: customerId,
        accountId,
        customerStatus: input.emailVerified ? "verified" : "unverified",
        kycStatus: "pending",
        referralCode: yield* random.fromAlphabet(REFERRAL_CODE_LENGTH, REFERRAL_ALPHABET),
        referredBy: input.referredBy,
        pinHash: null,
        smsEnabled: true,
        emailEnabled: true,
        createdAt: at,
        updatedAt: at
      })
      yield* repo.create({ account, customer })
      return { account, customer } satisfies AccountWithCustomer
    })
    return yield* create.pipe(
      Effect.retry({ times: 3, while: (e) => e.field === "referralCode" }),
      Effect.catchTag("UniqueViolation", (e): Effect.Effect<never, EmailTaken | PhoneTaken> =>
        e.field === "email"
          ? Effect.fail(new EmailTaken())
          : e.field === "phone"
          ? Effect.fail(new PhoneTaken())
          : Effect.die(new Error("could not allocate a unique referral code")))
    )
  })

export const checkEmailAvailable = (email: string) =>
  Effect.flatMap(AccountRepo, (repo) => repo.emailExists(email)).pipe(
    Effect.flatMap((taken) => (taken ? Effect.fail(new EmailTaken()) : Effect.void))
  )
