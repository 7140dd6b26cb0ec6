/**
 * Saved beneficiary bank accounts: verified by NIP name enquiry when saved; exactly one default
 * whenever a customer has any (the first saved becomes it; removing the default promotes the
 * oldest remaining one); removal is OTP-gated and the code is consumed in the same unit of work.
 *
 * The bank name stored is the bank list's name for the code (the client's spelling is not kept),
 * and a bank code must be in the bank list.
 */
import { Clock, Effect, Option } from "effect"
import { AccountNotFound } from "../account/Errors.js"
import { AccountRepo } from "../account/Ports.js"
import { passOtpGate } from "../auth/OtpGate.js"
import { BankListCache } from "../banking/Caches.js"
import { CoreBanking, type ProviderRefused, ResponseCodes } from "../banking/CoreBanking.js"
import { atomically } from "../shared/UseCase.js"
import { BeneficiaryAccountNotFound, BeneficiaryAlreadySaved, BeneficiaryNotFound, InvalidAccountNumber, InvalidBankCode } from "./Errors.js"
import type { Beneficiary } from "./Model.js"
import { BeneficiaryRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { reserveAttempt } from "../shared/Throttle.js"
import { AccountId, BeneficiaryId, newId } from "../shared/Ids.js"

const requireCustomer = (accountId: AccountId) =>
  Effect.flatMap(AccountRepo, (repo) => repo.findById(accountId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new AccountNotFound()), onSome: (f) => Effect.succeed(f.customer) }))
  )

/** A NUBAN account number: exactly 10 digits. */
export const isAccountNumber = (accountNumber: string): boolean => /^\d{10}$/.test(accountNumber)

/** A well-formed account number at a listed bank; returns the bank. */
const validDestination = (accountNumber: string, bankCode: string) =>
  Effect.gen(function*() {
    if (!isAccountNumber(accountNumber)) return yield* new InvalidAccountNumber()
    const bank = (yield* (yield* BankListCache).get).find((b) => b.bankCode === bankCode)
    if (bank === undefined) return yield* new InvalidBankCode({ bankCode })
    return bank
  })

const nameEnquiry = (accountNumber: string, bankCode: string) =>
  Effect.flatMap(CoreBanking, (core) => core.nameEnquiry({ accountNumber, bankCode })).pipe(
    Effect.catchTag("ProviderRefused", (e): Effect.Effect<never, BeneficiaryAccountNotFound | ProviderRefused> =>
      e.code === ResponseCodes.invalidAccount ? Effect.fail(new BeneficiaryAccountNotFound()) : Effect.fail(e))
  )

export interface LookupResult {
  readonly accountName: string
  readonly accountNumber: string
  readonly bankCode: string
  /** the NIP name-enquiry session, to send with a transfer to this account */
  readonly nipSessionId: string
}

/** NIP name enquiry: who holds this account at this bank. */
export const lookup = (accountNumber: string, bankCode: string) =>
  Effect.gen(function*() {
    yield* validDestination(accountNumber, bankCode)
    const found = yield* nameEnquiry(accountNumber, bankCode)
    return { accountName: found.accountName, accountNumber, bankCode, nipSessionId: found.sessionId } satisfies LookupResult
  }).pipe(withSpan("Beneficiaries.lookup"))

/**
 * `GET /beneficiaries/lookup` (and the look-ups of plan POST/PATCH and of a transfer without a session
 * id): `lookup` for a customer, within their name-enquiry budget
 * (ThrottlePolicy `name_enquiry`: each is a billed provider call that names an account holder, so
 * an unthrottled one lets anyone enumerate names). Counted once the input is valid, before the
 * provider is asked; past the budget TooManyAttempts (429).
 */
export const lookupFor = (accountId: AccountId, accountNumber: string, bankCode: string) =>
  Effect.gen(function*() {
    yield* validDestination(accountNumber, bankCode)
    yield* reserveAttempt(accountId, "name_enquiry")
    return yield* lookup(accountNumber, bankCode)
  })

export interface AddBeneficiaryInput {
  readonly accountNumber: string
  readonly bankCode: string
  /** informational: the bank list's name for the code is stored */
  readonly bankName: string
}

/** Saves a verified account; the customer's first one becomes the default. */
export const add = (accountId: AccountId, input: AddBeneficiaryInput) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const bank = yield* validDestination(input.accountNumber, input.bankCode)
    const repo = yield* BeneficiaryRepo
    const saved = yield* repo.list(customer.id)
    if (saved.some((b) => b.accountNumber === input.accountNumber && b.bankCode === input.bankCode)) {
      return yield* new BeneficiaryAlreadySaved()
    }
    yield* reserveAttempt(accountId, "name_enquiry")
    const verified = yield* nameEnquiry(input.accountNumber, input.bankCode)
    const added = yield* repo.add({
      id: yield* newId(BeneficiaryId),
      customerId: customer.id,
      accountNumber: input.accountNumber,
      bankCode: bank.bankCode,
      bankName: bank.bankName,
      accountName: verified.accountName,
      createdAt: new Date(yield* Clock.currentTimeMillis)
    })
    // none: a concurrent request saved the same account first
    if (Option.isNone(added)) return yield* new BeneficiaryAlreadySaved()
    return added.value
  }).pipe(withSpan("Beneficiaries.add", { attributes: { accountId } }))

/** The default first, then oldest first. */
export const list = (accountId: AccountId) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    return yield* (yield* BeneficiaryRepo).list(customer.id)
  }).pipe(withSpan("Beneficiaries.list", { attributes: { accountId } }))

export const setDefault = (accountId: AccountId, beneficiaryId: BeneficiaryId) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const updated = yield* (yield* BeneficiaryRepo).setDefault(customer.id, beneficiaryId)
    if (Option.isNone(updated)) return yield* new BeneficiaryNotFound()
    return updated.value
  }).pipe(withSpan("Beneficiaries.setDefault", { attributes: { accountId } }))

export interface Removed {
  readonly removed: Beneficiary
  /** the beneficiary that became the default because the default was removed */
  readonly promoted: Beneficiary | null
}

/**
 * OTP-gated removal (code from `Auth.requestActionOtp`). The code is spent first, whatever follows
 * (an unknown beneficiary included); the row is deleted and the next default promoted in one unit
 * of work: both or neither.
 */
export const remove = (accountId: AccountId, beneficiaryId: BeneficiaryId, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    const customer = yield* requireCustomer(accountId)
    const repo = yield* BeneficiaryRepo
    yield* passOtpGate(accountId, otpPinId, otpCode)
    return yield* atomically(
      Effect.gen(function*() {
        const removed = yield* repo.remove(customer.id, beneficiaryId)
        if (Option.isNone(removed)) return yield* new BeneficiaryNotFound()
        const promoted = removed.value.isDefault ? yield* repo.promoteOldest(customer.id) : Option.none()
        return { removed: removed.value, promoted: Option.getOrNull(promoted) } satisfies Removed
      })
    )
  }).pipe(withSpan("Beneficiaries.remove", { attributes: { accountId } }))
