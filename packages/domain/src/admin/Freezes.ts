/**
 * Staff freezes and unfreezes a customer (POST /admin/customers/{id}/freeze and /unfreeze).
 *
 * Freeze (customers:freeze, a reason required), in this order:
 * 1. Our side, in one unit of work: status `suspended` (from unverified, verified or active: the
 *    status it had is kept for the unfreeze), every session revoked, a freeze record, an audit row.
 *    From here the customer can start nothing: tokens are refused, payouts skip non-active
 *    customers.
 * 2. The core account at the provider, but never under a movement in flight: a saga that has lifted
 *    the account's PND (or placed a lien) is let finish or compensate first. The freeze waits for
 *    it up to `MOVEMENT_WAIT`; if it is still in flight then, the freeze record stays
 *    `pending_provider` and the `finish-freezes` job freezes the account once the movement is done.
 *    A provider refusal or unknown answer leaves the record failed/unknown and raises a critical
 *    `customer_freeze_failed` alert (freeze by hand); it is not retried, because a second freeze
 *    call after an unknown answer could leave two freezes with one reference known.
 * Freezing an already suspended customer with an open freeze answers the same; freezing a
 * suspended one without (a PIN freeze) adds the record and retries nothing at the provider when
 * the PIN freeze already holds a reference.
 *
 * Unfreeze (customers:unfreeze): only a suspended customer. A freeze still waiting for its
 * movement is simply cancelled; a provider freeze is lifted quoting its reference (the record's,
 * or the PIN freeze's kept by PinRepo), and only when the bank agrees does the status go back to
 * the one the customer had before the freeze (the record's `previousStatus`; a PIN freeze opens a
 * record too), never a promotion. A refused or unknown unfreeze keeps the customer suspended (502)
 * so we never show active an account the bank holds. Under four-eyes an approval is bound to the
 * freeze it was filed for (UnfreezeStale otherwise).
 */
import { Context, Effect, Option, Schema } from "effect"
import type { AccountWithCustomer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import type { CustomerStatus } from "../account/Model.js"
import { PinRepo, RefreshTokenRepo } from "../auth/Ports.js"
import { CoreBanking, type CoreBankingError } from "../banking/CoreBanking.js"
import { atomically, now } from "../shared/UseCase.js"
import { TransferRepo } from "../transfers/Ports.js"
import { raiseAlert } from "./Alerts.js"
import * as Audit from "./Audit.js"
import { AdminCustomerNotFound } from "./Customers.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { withSpan } from "../shared/Spans.js"
import { Failure } from "../shared/Failure.js"
import { CustomerId, FreezeId, newId, StaffId } from "../shared/Ids.js"

export const FreezeState = Schema.Literal("pending_provider", "frozen", "no_core_account", "provider_failed", "provider_unknown")
export type FreezeState = typeof FreezeState.Type

export class CustomerFreeze extends Schema.Class<CustomerFreeze>("CustomerFreeze")({
  id: FreezeId,
  customerId: CustomerId,
  /** the staff member who froze, null for a record opened by the system */
  staffId: Schema.NullOr(StaffId),
  reason: Schema.String,
  /** the status before the freeze (restored by the unfreeze when it was not active) */
  previousStatus: Schema.String,
  state: FreezeState,
  providerReference: Schema.NullOr(Schema.String),
  requestedAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  liftedAt: Schema.NullOr(Schema.DateFromSelf),
  liftedBy: Schema.NullOr(StaffId)
}) {}

export class FreezeRepo extends Context.Tag("domain/FreezeRepo")<FreezeRepo, {
  readonly insert: (freeze: CustomerFreeze) => Effect.Effect<void>
  /** The customer's freeze not yet lifted, if any (at most one: a unique index). */
  readonly findOpen: (customerId: CustomerId) => Effect.Effect<Option.Option<CustomerFreeze>>
  /** Writes state, providerReference, updatedAt, liftedAt and liftedBy. */
  readonly save: (freeze: CustomerFreeze) => Effect.Effect<void>
  /** `save`, but only while the record is not lifted; false when an unfreeze closed it meanwhile. */
  readonly saveOpen: (freeze: CustomerFreeze) => Effect.Effect<boolean>
  /**
   * Takes the provider step of one open `pending_provider` freeze (by id, or any when id is
   * undefined, oldest first) that no live process holds, leasing it until `leaseUntil`; safe across
   * processes. None when there is nothing to take.
   */
  readonly claimPending: (id: FreezeId | undefined, now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<CustomerFreeze>>
}>() {}

/** The customer is closing, closed or deleted: nothing to freeze (409). */
export class CustomerNotFreezable extends Failure("CustomerNotFreezable", {
  status: 409,
  code: "CUSTOMER_NOT_FREEZABLE",
  message: "This customer is closing, closed or deleted: there is nothing to freeze",
  meaning: "The customer is closing, closed or deleted (`error.customerStatus`): nothing to freeze"
})<{ readonly status: string }> {
  override answer() {
    return { ...super.answer(), detail: { customerStatus: this.status } }
  }
}
/** Only a suspended customer can be unfrozen (409). */
export class CustomerNotSuspended extends Failure("CustomerNotSuspended", {
  status: 409,
  code: "CUSTOMER_NOT_SUSPENDED",
  message: "Only a suspended customer can be unfrozen",
  meaning: "Unfreeze: the customer is not suspended (`error.customerStatus`)"
})<{ readonly status: string }> {
  override answer() {
    return { ...super.answer(), detail: { customerStatus: this.status } }
  }
}
/** The bank refused the unfreeze or did not answer: the customer stays suspended (502). */
export class ProviderUnfreezeFailed extends Failure("ProviderUnfreezeFailed", {
  status: 502,
  code: "PROVIDER_UNFREEZE_FAILED",
  message: "The bank did not unfreeze the core account; the customer stays suspended",
  meaning: "Unfreeze: the bank refused or gave no final answer (`error.reason`); the customer stays suspended, try again"
})<{ readonly reason: string }> {
  override answer() {
    return { ...super.answer(), detail: { reason: this.reason } }
  }
}

/**
 * An unfreeze filed under four-eyes for one freeze found another (or none) when approved: that
 * freeze was lifted and the customer frozen again since, so the request is stale (409).
 */
export class UnfreezeStale extends Failure("UnfreezeStale", {
  status: 409,
  code: "APPROVAL_STALE",
  message: "The freeze this request was filed for was lifted since; the request is closed. File a new one for the current freeze",
  meaning: "Four-eyes unfreeze: the freeze the request was filed for was lifted and the customer frozen again since; " +
    "the request is closed as rejected and lifts nothing (file a new one)"
})<{
  readonly filedFor: FreezeId | null
  readonly current: FreezeId | null
}> {}

const FREEZABLE: ReadonlyArray<CustomerStatus> = ["unverified", "verified", "active"]

/**
 * The status a suspended customer had before a freeze that left no record of it (a PIN freeze made
 * before PIN freezes opened records): `active` only with a bank account, else what their
 * verification says. Never `active` without an account: such a customer could do nothing.
 */
const inferredPreviousStatus = (found: AccountWithCustomer): CustomerStatus =>
  found.customer.coreAccountNumber !== null ? "active" : found.account.emailVerified ? "verified" : "unverified"

/** How long a freeze waits for a movement in flight before leaving the provider step to the job. */
export const MOVEMENT_WAIT_MILLIS = 5_000
const MOVEMENT_POLL_MILLIS = 250
const LEASE_MILLIS = 60_000

const findCustomer = (customerId: CustomerId) =>
  Effect.flatMap(
    Effect.flatMap(AccountRepo, (r) => r.findByCustomerId(customerId)),
    Option.match({ onNone: () => Effect.fail(new AdminCustomerNotFound()), onSome: Effect.succeed })
  )

export interface FreezeOutcome {
  readonly frozen: boolean
  readonly customerStatus: CustomerStatus
  readonly providerFreeze: FreezeState | "lifted"
  readonly freezeId: FreezeId | null
}

/** Waits (on the Clock) while the customer has a movement in flight, up to MOVEMENT_WAIT_MILLIS. */
const movementSettled = (customerId: CustomerId) =>
  Effect.gen(function*() {
    const transfers = yield* TransferRepo
    for (let waited = 0;; waited += MOVEMENT_POLL_MILLIS) {
      if (!(yield* transfers.hasMovementInFlight(customerId))) return true
      if (waited >= MOVEMENT_WAIT_MILLIS) return false
      yield* Effect.sleep(MOVEMENT_POLL_MILLIS)
    }
  })

const failureText = (error: Option.Option<CoreBankingError>) =>
  Option.match(error, {
    onNone: () => "failed unexpectedly",
    onSome: (e) =>
      e._tag === "ProviderRefused"
        ? `was REFUSED by the bank (${e.code}: ${e.reason})`
        : e._tag === "ProviderUnknownOutcome"
        ? "got no final answer from the bank (unknown outcome)"
        : "could not be sent (provider misconfigured)"
  })

/**
 * The provider step of a claimed freeze: the core account is frozen unless a movement is in flight
 * (then it stays pending for the job). Returns the freeze as saved.
 */
const freezeAtProvider = (freeze: CustomerFreeze, accountNumber: string) =>
  Effect.gen(function*() {
    if (yield* (yield* TransferRepo).hasMovementInFlight(freeze.customerId)) return freeze
    const result = yield* (yield* CoreBanking).freeze({ accountNumber, reason: freeze.reason }).pipe(
      Effect.mapError(Option.some),
      Effect.catchAllDefect(() => Effect.fail(Option.none<CoreBankingError>())),
      Effect.either
    )
    const at = yield* now
    const saved = result._tag === "Right"
      ? new CustomerFreeze({ ...freeze, state: "frozen", providerReference: result.right.freezeReference, updatedAt: at })
      : new CustomerFreeze({
        ...freeze,
        state: Option.exists(result.left, (e) => e._tag === "ProviderUnknownOutcome") ? "provider_unknown" : "provider_failed",
        updatedAt: at
      })
    const stillOpen = yield* atomically(Effect.gen(function*() {
      // an unfreeze may have closed the record while the bank was answering: never reopen it
      if (!(yield* (yield* FreezeRepo).saveOpen(saved))) return false
      if (saved.providerReference !== null) yield* (yield* PinRepo).recordProviderFreeze(freeze.customerId, saved.providerReference, at)
      yield* Audit.record({
        actorKind: "system",
        actorId: "freeze",
        action: "customer.freeze.provider",
        targetKind: "customer",
        targetId: freeze.customerId,
        before: { state: freeze.state },
        after: { state: saved.state, freezeReference: saved.providerReference }
      })
      return true
    }))
    if (!stillOpen) {
      // the customer was unfrozen while this call was at the bank: the bank may now hold a freeze
      // that nothing of ours records, so staff are told to lift it there
      if (saved.state === "frozen" || saved.state === "provider_unknown") {
        yield* raiseAlert({
          kind: "customer_freeze_failed",
          dedupKey: `customer_freeze_after_unfreeze:${freeze.id}`,
          customerId: freeze.customerId,
          message: `Customer ${freeze.customerId} was unfrozen while the bank was freezing the core account ` +
            (saved.providerReference === null
              ? "(its answer never came): check the account with the bank and lift any freeze there."
              : `(freeze reference ${saved.providerReference}): lift that freeze at the bank.`)
        })
      }
      return saved
    }
    if (result._tag === "Left") {
      const error = result.left
      yield* raiseAlert({
        kind: "customer_freeze_failed",
        dedupKey: `customer_freeze_failed:${freeze.id}`,
        customerId: freeze.customerId,
        message: `Customer ${freeze.customerId} is suspended, but the freeze of the core account ${failureText(error)}: ` +
          "check the account with the bank and freeze it by hand."
      })
    }
    return saved
  })

/** Claims the freeze's provider step (or finds it taken) and runs it. */
const settleProvider = (freeze: CustomerFreeze, accountNumber: string | null) =>
  Effect.gen(function*() {
    if (accountNumber === null || freeze.state !== "pending_provider") return freeze
    if (!(yield* movementSettled(freeze.customerId))) return freeze
    const at = yield* now
    const [claimed] = yield* (yield* FreezeRepo).claimPending(freeze.id, at, new Date(at.getTime() + LEASE_MILLIS), 1)
    return claimed === undefined ? freeze : yield* freezeAtProvider(claimed, accountNumber)
  })

const outcome = (status: CustomerStatus, freeze: CustomerFreeze): FreezeOutcome => ({
  frozen: true,
  customerStatus: status,
  providerFreeze: freeze.state,
  freezeId: freeze.id
})

/** POST /admin/customers/{id}/freeze. */
export const freeze = (actor: StaffMember, customerId: CustomerId, reason: string) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "customers:freeze")
    const at = yield* now
    const id = yield* newId(FreezeId)
    // The status is read inside the unit of work: what the record keeps as previousStatus (what an
    // unfreeze restores) and what the transition moves from must be the status as it is now, not
    // as it was before (a closure or a first deposit may have moved it in between).
    const { accountNumber, opened } = yield* atomically(Effect.gen(function*() {
      const found: AccountWithCustomer = yield* findCustomer(customerId)
      const status = found.customer.customerStatus
      if (!FREEZABLE.includes(status) && status !== "suspended") return yield* new CustomerNotFreezable({ status })
      const accountNumber = found.customer.coreAccountNumber
      const freezes = yield* FreezeRepo
      const open = yield* freezes.findOpen(customerId)
      if (Option.isSome(open)) return { accountNumber, opened: open.value }
      const pinFreeze = status === "suspended" ? yield* (yield* PinRepo).lastProviderFreeze(customerId) : Option.none()
      const record = new CustomerFreeze({
        id,
        customerId,
        staffId: actor.id,
        reason,
        previousStatus: status === "suspended" ? inferredPreviousStatus(found) : status,
        state: accountNumber === null ? "no_core_account" : Option.isSome(pinFreeze) ? "frozen" : "pending_provider",
        providerReference: Option.match(pinFreeze, { onNone: () => null, onSome: (f) => f.freezeReference }),
        requestedAt: at,
        updatedAt: at,
        liftedAt: null,
        liftedBy: null
      })
      yield* freezes.insert(record)
      const accounts = yield* AccountRepo
      if (status !== "suspended") yield* accounts.transitionStatus(found.account.id, status, "suspended", at)
      // The read above takes no lock: a change committed between it and the transition makes the
      // transition a no-op. Only a customer suspended now may keep the freeze; otherwise it is
      // refused on the status they have now, and everything above rolls back.
      const current = Option.map(yield* accounts.findByCustomerId(customerId), (c) => c.customer.customerStatus)
      if (Option.isNone(current) || current.value !== "suspended") {
        return yield* new CustomerNotFreezable({ status: Option.getOrElse(current, () => status) })
      }
      yield* (yield* RefreshTokenRepo).revokeAllForAccount(found.account.id, at)
      yield* Audit.record({
        actorKind: "staff",
        actorId: actor.id,
        action: "customer.freeze",
        targetKind: "customer",
        targetId: customerId,
        before: { customerStatus: status },
        after: { customerStatus: "suspended", reason, freezeId: id }
      })
      return { accountNumber, opened: record }
    }))
    return outcome("suspended", yield* settleProvider(opened, accountNumber))
  }).pipe(withSpan("Freezes.freeze"))

/** The `finish-freezes` job: the provider step of freezes that waited for a movement. */
export const finishPendingFreezes = (limit = 50) =>
  Effect.gen(function*() {
    const at = yield* now
    const claimed = yield* (yield* FreezeRepo).claimPending(undefined, at, new Date(at.getTime() + LEASE_MILLIS), limit)
    let frozen = 0
    for (const f of claimed) {
      const found = yield* (yield* AccountRepo).findByCustomerId(f.customerId)
      const accountNumber = Option.match(found, { onNone: () => null, onSome: (c) => c.customer.coreAccountNumber })
      if (accountNumber === null) continue
      const saved = yield* freezeAtProvider(f, accountNumber)
      if (saved.state === "frozen") frozen++
    }
    return { claimed: claimed.length, frozen }
  }).pipe(withSpan("Freezes.finishPendingFreezes"))

/** The checks an unfreeze makes before anything changes (also run when four-eyes files a request). */
export const checkUnfreeze = (actor: StaffMember, customerId: CustomerId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "customers:unfreeze")
    const found = yield* findCustomer(customerId)
    if (found.customer.customerStatus !== "suspended") {
      return yield* new CustomerNotSuspended({ status: found.customer.customerStatus })
    }
    return found
  })

/**
 * POST /admin/customers/{id}/unfreeze (run directly, or by the approver under four-eyes). Under
 * four-eyes `filedFor` is the freeze the request was filed for (null: none was recorded): any other
 * open freeze now is UnfreezeStale, so a stale approval never lifts a later freeze.
 */
export const unfreeze = (actor: StaffMember, customerId: CustomerId, filedFor?: FreezeId | null) =>
  Effect.gen(function*() {
    const found = yield* checkUnfreeze(actor, customerId)
    const open = yield* (yield* FreezeRepo).findOpen(customerId)
    if (filedFor !== undefined) {
      const current = Option.getOrNull(Option.map(open, (f) => f.id))
      if (current !== filedFor) return yield* new UnfreezeStale({ filedFor, current })
    }
    const reference = Option.isSome(open)
      ? (open.value.state === "frozen" ? open.value.providerReference : null)
      : Option.getOrNull(Option.map(yield* (yield* PinRepo).lastProviderFreeze(customerId), (f) => f.freezeReference))
    const accountNumber = found.customer.coreAccountNumber
    if (reference !== null && accountNumber !== null) {
      yield* (yield* CoreBanking).unfreeze({ accountNumber, freezeReference: reference }).pipe(
        Effect.catchAllDefect(() => Effect.fail(new ProviderUnfreezeFailed({ reason: "unexpected failure" }))),
        Effect.mapError((e) =>
          e._tag === "ProviderUnfreezeFailed"
            ? e
            : new ProviderUnfreezeFailed({
              reason: e._tag === "ProviderRefused" ? `${e.code}: ${e.reason}` : e._tag === "ProviderUnknownOutcome" ? "no final answer" : "provider misconfigured"
            })
        )
      )
    }
    // the status before the freeze, never a promotion: `active` only for a customer who was active
    // (and has a bank account: one without could do nothing and be stuck)
    const before: CustomerStatus = Option.match(open, {
      onNone: () => inferredPreviousStatus(found),
      onSome: (f) => (f.previousStatus === "unverified" || f.previousStatus === "verified" ? f.previousStatus : "active")
    })
    const restored: CustomerStatus = before === "active" && found.customer.coreAccountNumber === null ? inferredPreviousStatus(found) : before
    const at = yield* now
    yield* atomically(Effect.gen(function*() {
      if (Option.isSome(open)) yield* (yield* FreezeRepo).save(new CustomerFreeze({ ...open.value, liftedAt: at, liftedBy: actor.id, updatedAt: at }))
      yield* (yield* AccountRepo).transitionStatus(found.account.id, "suspended", restored, at)
      yield* Audit.record({
        actorKind: "staff",
        actorId: actor.id,
        action: "customer.unfreeze",
        targetKind: "customer",
        targetId: customerId,
        before: { customerStatus: "suspended", freezeId: Option.getOrNull(Option.map(open, (f) => f.id)) },
        after: { customerStatus: restored, providerUnfrozen: reference !== null && accountNumber !== null }
      })
    }))
    // the bank never answered the freeze: it may hold one we have no reference for. Our side is
    // lifted (the customer cannot be kept suspended by a lost answer), and staff are told to check
    const unknownAtBank = Option.exists(open, (f) => f.state === "provider_unknown")
    if (unknownAtBank) {
      yield* raiseAlert({
        kind: "customer_freeze_failed",
        dedupKey: `customer_unfrozen_freeze_unknown:${Option.getOrThrow(open).id}`,
        customerId,
        message: `Customer ${customerId} was unfrozen, but the bank never answered its freeze of the core account: ` +
          "check the account with the bank and lift any freeze there."
      })
    }
    return {
      frozen: false,
      customerStatus: restored,
      providerFreeze: unknownAtBank ? "provider_unknown" : "lifted",
      freezeId: Option.getOrNull(Option.map(open, (f) => f.id))
    } satisfies FreezeOutcome
  }).pipe(withSpan("Freezes.unfreeze"))
