/**
 * The transaction PIN: set, change, verify and reset (OTP-gated), with the lockout and freeze of
 * PinLockout.ts. A PIN is stored only as an argon2id hash (PasswordHasher), never logged.
 *
 * Every compare of a PIN (verify, and the current PIN of a change) is guarded: its try is claimed
 * first (PinRepo.claimTry, atomic), so no more than 5 PINs are ever compared per lock, however many
 * arrive at once. The try that locks the PIN for the third time within 24 hours freezes the account
 * (`freezeForPinLockouts`) and answers AccountSuspended.
 */
import { Cause, Effect, Option, Redacted } from "effect"
import { AccountNotFound, AccountSuspended } from "../account/Errors.js"
import type { AccountWithCustomer, Customer, CustomerStatus } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { ensureUsable, requireAccount } from "../account/Accounts.js"
import { raiseAlert } from "../admin/Alerts.js"
import * as Freezes from "../admin/Freezes.js"
import { CoreBanking, type CoreBankingError } from "../banking/CoreBanking.js"
import { PasswordHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import { CurrentPinRequired, InvalidPinFormat, PinIncorrect, PinLocked, PinNotSet } from "./Errors.js"
import { passOtpGate } from "./OtpGate.js"
import { isPinFormat, type PinLock, PinPolicy, retryAfterSeconds, shouldFreeze } from "./PinLockout.js"
import { PinRepo, RefreshTokenRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, FreezeId, newId } from "../shared/Ids.js"

/** True once the customer has set a transaction PIN (the `hasPin` of the profile and sign-in answers). */
export const hasPin = (customer: Customer): boolean => customer.pinHash !== null

const requireFormat = (pin: Redacted.Redacted<string>, field: "pin" | "currentPin") =>
  isPinFormat(Redacted.value(pin)) ? Effect.void : Effect.fail(new InvalidPinFormat({ field }))

/** The signed-in account, if it may use a PIN: not suspended (frozen), not deleted. */
const accountForPin = (accountId: AccountId) =>
  Effect.tap(requireAccount(accountId), (found) => ensureUsable(found, () => new AccountNotFound()))

/**
 * Compares `pin` with the stored hash as one guarded try: PinLocked without a compare while locked;
 * PinIncorrect for a wrong PIN; PinLocked for the wrong PIN that locks; AccountSuspended for the
 * wrong PIN whose lockout freezes the account. A right PIN clears the count.
 */
const checkPin = (found: AccountWithCustomer, hash: string, pin: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const repo = yield* PinRepo
    const customerId = found.customer.id
    const at = yield* now
    const claim = yield* repo.claimTry(customerId, at, PinPolicy)
    if (claim._tag === "Locked") return yield* new PinLocked({ retryAfterSeconds: retryAfterSeconds(claim.lockedUntil, at) })
    if (yield* (yield* PasswordHasher).verify(pin, hash)) return yield* repo.recordCorrectTry(customerId, claim.lock)
    if (claim.lock === null) return yield* new PinIncorrect()
    yield* Effect.logWarning("transaction PIN locked after wrong tries").pipe(
      Effect.annotateLogs({ customerId, lockoutsInWindow: claim.lock.lockoutsInWindow })
    )
    if (shouldFreeze(claim.lock, PinPolicy)) {
      yield* freezeForPinLockouts(found, claim.lock)
      return yield* new AccountSuspended()
    }
    return yield* new PinLocked({ retryAfterSeconds: retryAfterSeconds(claim.lock.until, at) })
  })

/**
 * `POST /auth/pin`: sets the first PIN, or changes it given the right `currentPin` (a guarded try:
 * a wrong one counts towards the lock). CurrentPinRequired when a PIN is set and none was given,
 * or when another request set the first PIN at the same moment.
 */
export const setPin = (accountId: AccountId, pin: Redacted.Redacted<string>, currentPin?: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    yield* requireFormat(pin, "pin")
    const found = yield* accountForPin(accountId)
    const current = found.customer.pinHash
    if (current !== null) {
      if (currentPin === undefined) return yield* new CurrentPinRequired()
      yield* requireFormat(currentPin, "currentPin")
      yield* checkPin(found, current, currentPin)
    }
    const hash = yield* (yield* PasswordHasher).hash(pin)
    const replaced = yield* (yield* PinRepo).replacePinHash(found.customer.id, current, hash, yield* now)
    // Lost a race: the PIN this request checked (or its absence) is no longer the stored one.
    if (!replaced) return yield* current === null ? new CurrentPinRequired() : new PinIncorrect()
  }).pipe(withSpan("Auth.setPin"))

/** `POST /auth/pin/verify`: succeeds for the right PIN; see `checkPin` for the failures. */
export const verifyPin = (accountId: AccountId, pin: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    yield* requireFormat(pin, "pin")
    const found = yield* accountForPin(accountId)
    if (found.customer.pinHash === null) return yield* new PinNotSet()
    yield* checkPin(found, found.customer.pinHash, pin)
  }).pipe(withSpan("Auth.verifyPin"))

/**
 * `POST /auth/pin/reset`: a new PIN without the old one, gated by a sensitive-action OTP (spent by
 * this request whatever follows). The new hash and the cleared count (and lifted lock) commit
 * together. Lockouts are kept, so resets cannot dodge the freeze.
 */
export const resetPin = (accountId: AccountId, pin: Redacted.Redacted<string>, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    yield* requireFormat(pin, "pin")
    const found = yield* accountForPin(accountId)
    yield* passOtpGate(accountId, otpPinId, otpCode)
    const hash = yield* (yield* PasswordHasher).hash(pin)
    const customerId = found.customer.id
    yield* atomically(Effect.gen(function*() {
      const repo = yield* PinRepo
      yield* repo.setPinHash(customerId, hash, yield* now)
      yield* repo.clearWrongTries(customerId)
    }))
  }).pipe(withSpan("Auth.resetPin"))

// ---------------------------------------------------------------------------------------------
// The freeze
// ---------------------------------------------------------------------------------------------

/** Statuses a PIN freeze moves to `suspended` (closed and deleted customers keep their marker). */
const FREEZABLE: ReadonlyArray<CustomerStatus> = ["unverified", "verified", "active"]

/** The reason sent to the provider with the freeze. */
export const PIN_FREEZE_REASON = "Transaction PIN locked 3 times in 24 hours"

type ProviderOutcome =
  | { readonly _tag: "Frozen"; readonly freezeReference: string }
  | { readonly _tag: "NoCoreAccount" }
  | { readonly _tag: "Failed"; readonly error: Option.Option<CoreBankingError> }

/** Freezes the core account; never fails: a failure (unknown outcome included) is logged and reported. */
const freezeAtProvider = (customer: Customer, at: Date): Effect.Effect<ProviderOutcome, never, CoreBanking | PinRepo> => {
  const accountNumber = customer.coreAccountNumber
  if (accountNumber === null) return Effect.succeed({ _tag: "NoCoreAccount" })
  return Effect.gen(function*() {
    const { freezeReference } = yield* (yield* CoreBanking).freeze({ accountNumber, reason: PIN_FREEZE_REASON })
    yield* (yield* PinRepo).recordProviderFreeze(customer.id, freezeReference, at)
    return { _tag: "Frozen", freezeReference } as const
  }).pipe(
    Effect.catchAllCause((cause) => {
      const error = Cause.failureOption(cause)
      return Effect.logError("core account freeze after PIN lockouts did not succeed").pipe(
        Effect.annotateLogs({
          customerId: customer.id,
          outcome: Option.match(error, { onNone: () => "defect", onSome: (e) => e._tag }),
          code: Option.match(error, { onNone: () => null, onSome: (e) => e._tag === "ProviderRefused" ? e.code : null })
        }),
        Effect.as({ _tag: "Failed", error } as const)
      )
    })
  )
}

const providerSentence = (outcome: ProviderOutcome) => {
  switch (outcome._tag) {
    case "Frozen":
      return `The core account was frozen at the bank (freeze reference ${outcome.freezeReference}; unfreezing quotes it).`
    case "NoCoreAccount":
      return "The customer has no core account, so nothing was frozen at the bank."
    case "Failed":
      return Option.match(outcome.error, {
        onSome: (e) =>
          e._tag === "ProviderRefused"
            ? `The bank REFUSED to freeze the core account (${e.code}: ${e.reason}): freeze it by hand.`
            : e._tag === "ProviderUnknownOutcome"
            ? "The bank's answer to the core account freeze is UNKNOWN: check with the bank whether it is frozen, " +
              "freeze it by hand if not, and keep the reference."
            : "The core account could NOT be frozen (provider misconfigured): fix the configuration and freeze it by hand.",
        onNone: () => "The core account freeze failed unexpectedly: check with the bank and freeze it by hand."
      })
  }
}

/** The freeze record's state once the provider answered (or there was nothing to freeze there). */
const recordState = (outcome: ProviderOutcome): Freezes.FreezeState =>
  outcome._tag === "Frozen"
    ? "frozen"
    : outcome._tag === "NoCoreAccount"
    ? "no_core_account"
    : Option.exists(outcome.error, (e) => e._tag === "ProviderUnknownOutcome")
    ? "provider_unknown"
    : "provider_failed"

/**
 * Freezes an account after too many PIN lockouts. Our side first, in one unit of work: customer
 * status `suspended` (from unverified, verified or active) and every refresh token revoked, so the
 * account cannot sign in or refresh from now on (access tokens are refused for suspended accounts),
 * and a freeze record opened by the system (FreezeRepo, no staff member) that keeps the status the
 * customer had, so the staff unfreeze gives back exactly that (a `verified` customer without a bank
 * account must not come back `active`). Then the core account is frozen at the provider (its
 * reference kept via PinRepo and on the record); whatever the provider answers, a critical
 * `account_frozen_pin_lockout` staff alert is raised.
 */
export const freezeForPinLockouts = (found: AccountWithCustomer, lock: PinLock) =>
  Effect.gen(function*() {
    const accountId = found.account.id
    const customerId = found.customer.id
    const at = yield* now
    const record = yield* atomically(Effect.gen(function*() {
      const accounts = yield* AccountRepo
      const current = yield* accounts.findById(accountId)
      const status = Option.match(current, { onNone: () => null, onSome: (c) => c.customer.customerStatus })
      let opened: Option.Option<Freezes.CustomerFreeze> = Option.none()
      if (status !== null && FREEZABLE.includes(status)) {
        yield* accounts.transitionStatus(accountId, status, "suspended", at)
        const freezes = yield* Freezes.FreezeRepo
        if (Option.isNone(yield* freezes.findOpen(customerId))) {
          const freeze = new Freezes.CustomerFreeze({
            id: yield* newId(FreezeId),
            customerId,
            staffId: null,
            reason: PIN_FREEZE_REASON,
            previousStatus: status,
            // until the bank answers below; never `pending_provider`, which the finish-freezes job would freeze again
            state: found.customer.coreAccountNumber === null ? "no_core_account" : "provider_unknown",
            providerReference: null,
            requestedAt: at,
            updatedAt: at,
            liftedAt: null,
            liftedBy: null
          })
          yield* freezes.insert(freeze)
          opened = Option.some(freeze)
        }
      }
      yield* (yield* RefreshTokenRepo).revokeAllForAccount(accountId, at)
      return opened
    }))
    const provider = yield* freezeAtProvider(found.customer, at)
    if (Option.isSome(record)) {
      yield* (yield* Freezes.FreezeRepo).saveOpen(new Freezes.CustomerFreeze({
        ...record.value,
        state: recordState(provider),
        providerReference: provider._tag === "Frozen" ? provider.freezeReference : null,
        updatedAt: yield* now
      }))
    }
    yield* raiseAlert({
      kind: "account_frozen_pin_lockout",
      dedupKey: `account_frozen_pin_lockout:${customerId}`,
      message: `Customer ${customerId} was frozen after ${lock.lockoutsInWindow} transaction PIN lockouts within 24 hours: ` +
        `status suspended, every session revoked. ${providerSentence(provider)} ` +
        "Contact the customer (possible account takeover) before unfreezing.",
      customerId
    })
  }).pipe(withSpan("Auth.freezeForPinLockouts"))
