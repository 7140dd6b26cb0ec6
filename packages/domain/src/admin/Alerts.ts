/**
 * Staff alerts: conditions an operator must act on, kept durably (AlertRepo) until a member of staff
 * acknowledges them. The back office lists the open ones (newest first); until it exists they are in
 * the `staff_alerts` table, and every raise is also logged at error level.
 *
 * The kinds, and what the operator does:
 * - `reversal_refused` (critical): a movement's transfer failed after the customer was debited and
 *   the bank refused to credit the money back. The customer's money is held in settlement, and the
 *   movement is parked (what waits on it, a closure or a plan's payout, waits too): settle it with
 *   the bank (credit it back by hand, or learn that it was delivered), then record that with
 *   "resolve movement" (MovementResolution.ts), which lets what waited go on and acknowledges this.
 * - `lien_removal_refused` (critical): the bank refused to remove the lien a movement placed. The
 *   customer's funds stay locked (recovery keeps retrying): have the bank remove the lien, then
 *   acknowledge.
 * - `transfer_retries_exhausted` (critical): a transfer stayed "pending" at the bank through every
 *   requery and was failed and its debit reversed, as the spec requires. The bank may still pay it:
 *   confirm with the bank that it will not, or recover the money if it did.
 * - `provider_unreachable` (warning): the bank has given no final answer about a movement for longer
 *   than the requery window (timeouts, provider down, an unknown reference). It is requeried until the
 *   bank answers: check the provider's status and the movement with the bank.
 * - `account_frozen_pin_lockout` (critical): a customer's transaction PIN was locked 3 times within
 *   24 hours, so the account was frozen: customerStatus `suspended`, every session revoked, and the
 *   core account frozen at the bank (the message gives the freeze reference, also kept by PinRepo
 *   for the unfreeze). When the message says the bank's answer was unknown or a refusal, check the
 *   core account with the bank and freeze it by hand if needed. Contact the customer (possible
 *   account takeover) before unfreezing; unfreezing is manual.
 * - `account_closure_stuck` (warning): an account closure swept the wallet but the core account could
 *   not be frozen; the closure job retries every minute. Check the account with the bank.
 * - `account_deletion_failed` (critical): an account deletion failed part-way and was rolled back
 *   (nothing erased); the cause is in the logs. Fix it; the customer may ask again.
 * - `closed_account_deposit` (critical): money reached the core account of a closed customer (frozen
 *   at the bank) and was recorded as a deposit on their ledger. Refund it to the sender (or the
 *   customer's withdrawal account) by hand.
 * - `frozen_account_credit` (critical): money was credited to the core account of a customer whose
 *   account is frozen at the bank: a failed movement's debit reversed into the account of a customer
 *   who is closed, deleted or suspended (the transaction id names the movement), or a deposit that
 *   reached a suspended or deleted customer (deposits to closed accounts are `closed_account_deposit`;
 *   a deleted customer's account is found by the digest its erasure kept). The money is there but
 *   the customer cannot move it: refund it by hand, or keep it for the unfreeze, then acknowledge.
 * - `notification_undelivered` (warning): an email or SMS could not be delivered after its retries
 *   (the relay or gateway is down, too slow, refused it, or is not configured in production). One
 *   alert per channel and message kind while open; occurrences count the messages lost. The message
 *   names the channel, kind and reason (never the recipient, the text or a code): check the SMTP
 *   relay or SMS gateway; customers can ask for a new code themselves.
 * - `customer_freeze_failed` (critical): staff froze a customer (status suspended, sessions revoked)
 *   but the bank refused the core account freeze or gave no final answer. Check the account with the
 *   bank and freeze it by hand; the unfreeze will not quote a reference it never got.
 * - `sign_in_throttled` (warning): one client address got customer passwords wrong past its limit
 *   (SIGN_IN_MAX_FAILURES_PER_CLIENT within SIGN_IN_THROTTLE_WINDOW_MINUTES); its sign-ins are refused
 *   (429) until the block ends. One alert per address while open; occurrences count the blocks. The
 *   message names the address: look for credential stuffing in the request logs and block it at the
 *   edge if it goes on (a mobile carrier's shared address may also trip it: raise the limit then).
 * - `otp_checks_locked` (critical): 10 wrong one-time codes for one account within 24 hours (every
 *   purpose together): that account's code checks are refused (429) for 24 hours. Someone is
 *   guessing that customer's codes (the password reset's, or with a session, the OTP gate's): contact
 *   the customer; freeze the account if it looks like a takeover.
 *
 * - `bvn_verification_throttled` (warning): a customer failed BVN verification 3 times within 24
 *   hours (an unknown BVN, or a name or date of birth that does not match the registry), so further
 *   tries are refused (429) until the oldest failure is 24 hours old. Someone may be trying to open
 *   an account on another person's BVN: review the customer (sign-up details, other accounts from
 *   the same device or phone) before helping them verify; freeze them if it looks like fraud.
 *
 * One condition is one alert: raising the same `dedupKey` while its alert is open (unacknowledged)
 * counts another occurrence instead of adding a row. Once acknowledged, a new raise opens a new
 * alert. Messages carry ids, never secrets or personal data (amounts may appear in the stored
 * message, never in the log line).
 *
 * To add a kind: add it to `AlertKind`, give it a severity in `severityOf`, and document it here.
 */
import { Context, Effect, Schema } from "effect"
import type { Ids } from "../shared/Ports.js"
import { now } from "../shared/UseCase.js"
import { withSpan } from "../shared/Spans.js"
import { AlertId, CustomerId, newId, StaffId, TransactionId } from "../shared/Ids.js"

export const AlertKind = Schema.Literal(
  "reversal_refused",
  "lien_removal_refused",
  "transfer_retries_exhausted",
  "provider_unreachable",
  "account_frozen_pin_lockout",
  "account_closure_stuck",
  "account_deletion_failed",
  "closed_account_deposit",
  "frozen_account_credit",
  "notification_undelivered",
  "customer_freeze_failed",
  "sign_in_throttled",
  "otp_checks_locked",
  "bvn_verification_throttled"
)
export type AlertKind = typeof AlertKind.Type

/** critical: customer money is stuck or may be lost, act now; warning: degraded, check soon. */
export const AlertSeverity = Schema.Literal("critical", "warning")
export type AlertSeverity = typeof AlertSeverity.Type

/** The severity of each kind (stored with the alert when it is first raised). */
export const severityOf: { readonly [K in AlertKind]: AlertSeverity } = {
  reversal_refused: "critical",
  lien_removal_refused: "critical",
  transfer_retries_exhausted: "critical",
  provider_unreachable: "warning",
  account_frozen_pin_lockout: "critical",
  account_closure_stuck: "warning",
  account_deletion_failed: "critical",
  closed_account_deposit: "critical",
  frozen_account_credit: "critical",
  notification_undelivered: "warning",
  customer_freeze_failed: "critical",
  sign_in_throttled: "warning",
  otp_checks_locked: "critical",
  bvn_verification_throttled: "warning"
}

export class StaffAlert extends Schema.Class<StaffAlert>("StaffAlert")({
  id: AlertId,
  kind: AlertKind,
  severity: AlertSeverity,
  /** names the condition: the same key raised while open is one alert (by convention `<kind>:<subject id>`) */
  dedupKey: Schema.String,
  customerId: Schema.NullOr(CustomerId),
  transactionId: Schema.NullOr(TransactionId),
  /** for staff: what happened and what to do; ids only, no secrets or personal data */
  message: Schema.String,
  /** how many times the condition was raised while this alert was open (1 when new) */
  occurrences: Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)),
  firstRaisedAt: Schema.DateFromSelf,
  lastRaisedAt: Schema.DateFromSelf,
  acknowledgedAt: Schema.NullOr(Schema.DateFromSelf),
  /** the staff member who acknowledged it (their id) */
  acknowledgedBy: Schema.NullOr(StaffId)
}) {}

export class AlertRepo extends Context.Tag("domain/AlertRepo")<AlertRepo, {
  /**
   * Stores a new alert (occurrences 1, first = last raised), unless an UNACKNOWLEDGED alert with its
   * dedupKey exists: then that one gets occurrences + 1 and lastRaisedAt (the later of the two), and
   * keeps its id, message and firstRaisedAt. Atomic: concurrent raises of one key make one open
   * alert. Returns the stored alert.
   */
  readonly raise: (alert: StaffAlert) => Effect.Effect<StaffAlert>
  /** Unacknowledged alerts, most recently raised first (then by id, descending). */
  readonly listOpen: () => Effect.Effect<ReadonlyArray<StaffAlert>>
  /** Marks an open alert acknowledged; false when there is no such alert or it already was. */
  readonly acknowledge: (id: AlertId, by: StaffId, at: Date) => Effect.Effect<boolean>
}>() {}

export interface RaiseAlert {
  readonly kind: AlertKind
  /** names the condition, by convention `<kind>:<subject id>` (e.g. `reversal_refused:<transaction id>`) */
  readonly dedupKey: string
  /** for staff: what happened and what to do; ids only, no secrets or personal data */
  readonly message: string
  readonly customerId?: CustomerId | null
  readonly transactionId?: TransactionId | null
}

/**
 * Raises a staff alert: logs it at error level (kind, severity, dedupKey and ids; not the message)
 * and stores it. Never fails; a storage failure is a defect, as with every repository. Raise it
 * outside a unit of work, or a rollback takes the alert with it.
 */
export const raiseAlert = (input: RaiseAlert): Effect.Effect<StaffAlert, never, AlertRepo | Ids> =>
  Effect.gen(function*() {
    const severity = severityOf[input.kind]
    const customerId = input.customerId ?? null
    const transactionId = input.transactionId ?? null
    yield* Effect.logError("staff alert raised").pipe(
      Effect.annotateLogs({ kind: input.kind, severity, dedupKey: input.dedupKey, customerId, transactionId })
    )
    const at = yield* now
    return yield* (yield* AlertRepo).raise(
      new StaffAlert({
        id: yield* newId(AlertId),
        kind: input.kind,
        severity,
        dedupKey: input.dedupKey,
        customerId,
        transactionId,
        message: input.message,
        occurrences: 1,
        firstRaisedAt: at,
        lastRaisedAt: at,
        acknowledgedAt: null,
        acknowledgedBy: null
      })
    )
  }).pipe(withSpan("Alerts.raiseAlert", { attributes: { kind: input.kind } }))

/** Open alerts, most recently raised first. */
export const listOpen = Effect.flatMap(AlertRepo, (repo) => repo.listOpen())

/** Acknowledges an open alert as `by` (a staff id), now; false when it is missing or was already. */
export const acknowledge = (id: AlertId, by: StaffId) =>
  Effect.gen(function*() {
    const at = yield* now
    return yield* (yield* AlertRepo).acknowledge(id, by, at)
  })
