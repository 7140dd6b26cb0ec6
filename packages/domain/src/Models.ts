import { Schema } from "effect"

export const CustomerStatus = Schema.Literal("unverified", "verified", "active", "suspended", "closed", "deleted")
export type CustomerStatus = typeof CustomerStatus.Type

export const KycStatus = Schema.Literal("pending", "bvn_verified", "fully_verified")
export type KycStatus = typeof KycStatus.Type

export const Gender = Schema.Literal("male", "female")
export type Gender = typeof Gender.Type

/** The sign-in identity: who the person is and how they prove it. */
export class Account extends Schema.Class<Account>("Account")({
  id: Schema.String,
  email: Schema.String,
  phone: Schema.NullOr(Schema.String),
  passwordHash: Schema.NullOr(Schema.String),
  firstName: Schema.NullOr(Schema.String),
  lastName: Schema.NullOr(Schema.String),
  otherNames: Schema.NullOr(Schema.String),
  dateOfBirth: Schema.NullOr(Schema.String),
  gender: Schema.NullOr(Gender),
  address: Schema.NullOr(Schema.String),
  emailVerified: Schema.Boolean,
  phoneVerified: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

/** The banking relationship of an account: status, KYC, referral code, preferences. */
export class Customer extends Schema.Class<Customer>("Customer")({
  id: Schema.String,
  accountId: Schema.String,
  customerStatus: CustomerStatus,
  kycStatus: KycStatus,
  referralCode: Schema.String,
  referredBy: Schema.NullOr(Schema.String),
  pinHash: Schema.NullOr(Schema.String),
  smsEnabled: Schema.Boolean,
  emailEnabled: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  // Banking fields (all null until the step that sets them; optional when constructing, default null):
  /** keyed digest of the BVN (SecretHasher.digest("bvn", …)); the BVN itself is never stored */
  bvnHash: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** the account number at the core banking provider */
  coreAccountNumber: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** our reference that opened the provider account (`referenceFor("A", customer.id)`) */
  coreAccountReference: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** when the first confirmed inbound deposit was posted; null = withdrawals not yet allowed (customer-facing PND) */
  firstDepositAt: Schema.optionalWith(Schema.NullOr(Schema.DateFromSelf), { default: () => null })
}) {}

export interface AccountWithCustomer {
  readonly account: Account
  readonly customer: Customer
}

export const OtpChannel = Schema.Literal("email", "sms")
export type OtpChannel = typeof OtpChannel.Type

/**
 * What a code may be used for. A code issued for one purpose never satisfies another:
 * an email-verification code cannot reset a password.
 */
export const OtpPurpose = Schema.Literal("email_verification", "phone_verification", "password_reset", "sensitive_action")
export type OtpPurpose = typeof OtpPurpose.Type

export class OneTimeCode extends Schema.Class<OneTimeCode>("OneTimeCode")({
  id: Schema.String,
  accountId: Schema.String,
  channel: OtpChannel,
  purpose: OtpPurpose,
  destination: Schema.String,
  codeHash: Schema.String,
  attempts: Schema.Number,
  maxAttempts: Schema.Number,
  expiresAt: Schema.DateFromSelf,
  consumedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
}) {}

export class RefreshToken extends Schema.Class<RefreshToken>("RefreshToken")({
  id: Schema.String,
  accountId: Schema.String,
  familyId: Schema.String,
  tokenHash: Schema.String,
  expiresAt: Schema.DateFromSelf,
  usedAt: Schema.NullOr(Schema.DateFromSelf),
  revokedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf
}) {}

export interface TokenPair {
  readonly accessToken: string
  readonly refreshToken: string
}

// ---------------------------------------------------------------------------------------------
// Money movements and saved bank accounts
// ---------------------------------------------------------------------------------------------

export const TransactionType = Schema.Literal("credit", "debit", "transfer")
export type TransactionType = typeof TransactionType.Type

export const TransactionPurpose = Schema.Literal("deposit", "manual_transfer", "disbursement", "early_withdrawal")
export type TransactionPurpose = typeof TransactionPurpose.Type

export const TransactionStatus = Schema.Literal("pending", "confirmed", "failed")
export type TransactionStatus = typeof TransactionStatus.Type

/**
 * One money movement of a customer (the spec's Transaction resource): deposits, manual transfers,
 * disbursements, Borrow and Extra Cash. Amounts are integer kobo (`bigint`).
 */
export class Transaction extends Schema.Class<Transaction>("Transaction")({
  id: Schema.String,
  customerId: Schema.String,
  planId: Schema.NullOr(Schema.String),
  type: TransactionType,
  purpose: TransactionPurpose,
  amountKobo: Schema.BigIntFromSelf,
  feeKobo: Schema.BigIntFromSelf,
  status: TransactionStatus,
  /** our debit/credit reference at the provider (≤ 12 chars) */
  retrievalReference: Schema.NullOr(Schema.String),
  /** our NIP transfer reference at the provider (≤ 12 chars) */
  transferReference: Schema.NullOr(Schema.String),
  /** the provider's own reference of the posting (inbound deposits); unique per customer */
  providerReference: Schema.NullOr(Schema.String),
  failureReason: Schema.NullOr(Schema.String),
  retryCount: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

/** A saved destination bank account of a customer, verified by name enquiry when saved. */
export class Beneficiary extends Schema.Class<Beneficiary>("Beneficiary")({
  id: Schema.String,
  customerId: Schema.String,
  accountNumber: Schema.String,
  bankCode: Schema.String,
  bankName: Schema.String,
  /** the name the destination bank returned for the account */
  accountName: Schema.String,
  /** at most one per customer; whenever a customer has beneficiaries, exactly one is the default */
  isDefault: Schema.Boolean,
  createdAt: Schema.DateFromSelf
}) {}

export interface PageRequest {
  /** 1-based */
  readonly page: number
  readonly pageSize: number
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly page: number
  readonly pageSize: number
  /** rows across all pages */
  readonly total: number
}

/**
 * A money movement out of the customer's account (manual transfer, payout, Borrow, Extra Cash,
 * closing): one Transaction row carrying its saga journal (see TransferSaga.ts).
 */
export class Transfer extends Schema.Class<Transfer>("Transfer")({
  id: Schema.String,
  customerId: Schema.String,
  /** the customer's account at the provider, debited */
  sourceAccountNumber: Schema.String,
  planId: Schema.NullOr(Schema.String),
  purpose: TransactionPurpose,
  amountKobo: Schema.BigIntFromSelf,
  /** NIP fee + VAT (+ the Extra Cash fee), debited with the amount; the recipient gets the full amount */
  feeKobo: Schema.BigIntFromSelf,
  /**
   * What must stay in the wallet after the debit (Extra Cash keeps the plan's remaining payouts):
   * the saga checks it with the balance it reads while holding the customer's one in-flight slot.
   */
  reserveKobo: Schema.optionalWith(Schema.BigIntFromSelf, { default: () => 0n }),
  destinationAccountNumber: Schema.String,
  destinationBankCode: Schema.String,
  destinationBankName: Schema.String,
  destinationAccountName: Schema.String,
  nameEnquirySessionId: Schema.String,
  /** when that session was issued (null: unknown, treated as stale): the saga refreshes a stale one */
  nameEnquiryAt: Schema.optionalWith(Schema.NullOr(Schema.DateFromSelf), { default: () => null }),
  narration: Schema.String,
  idempotencyKey: Schema.String,
  /** a digest of the request, to tell a retry (same body) from a conflicting reuse of the key */
  requestHash: Schema.String,
  status: TransactionStatus,
  failureReason: Schema.NullOr(Schema.String),
  // the journal
  pndLifted: Schema.Boolean,
  lienPlaced: Schema.Boolean,
  debitState: Schema.Literal("none", "attempted", "applied", "refused"),
  transferState: Schema.Literal("none", "attempted", "successful", "pending", "failed"),
  /** "refused": the bank refused to credit the customer back; an operator must act (staff alert) */
  reversalState: Schema.Literal("none", "attempted", "applied", "refused"),
  restored: Schema.Boolean,
  retryCount: Schema.Number,
  /** when reconciliation should requery a pending transfer next */
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  /** a process driving this saga holds it until then; an expired lease means the driver died */
  leaseUntil: Schema.NullOr(Schema.DateFromSelf),
  /**
   * The fencing token of the movement's current driver: 0 for its creator, bumped by every claim.
   * A journal write names the epoch its writer holds and is applied only while it is still the
   * current one, so a driver that stalled past its lease cannot overwrite its successor's journal.
   */
  epoch: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

/** The journal of a movement that has not started: nothing done, nothing sent. */
export const FreshJournal = {
  status: "pending",
  failureReason: null,
  pndLifted: false,
  lienPlaced: false,
  debitState: "none",
  transferState: "none",
  reversalState: "none",
  restored: false,
  retryCount: 0,
  nextAttemptAt: null
} as const

/** A new movement: its request fields, a fresh journal, and the given lease (held by its creator, epoch 0). */
export const newTransfer = (
  fields: Omit<Transfer, keyof typeof FreshJournal | "leaseUntil" | "updatedAt" | "reserveKobo" | "epoch" | "nameEnquiryAt"> & {
    readonly leaseUntil?: Date | null
    readonly reserveKobo?: bigint
    readonly nameEnquiryAt?: Date | null
  }
): Transfer =>
  new Transfer({
    ...fields,
    ...FreshJournal,
    reserveKobo: fields.reserveKobo ?? 0n,
    nameEnquiryAt: fields.nameEnquiryAt ?? null,
    leaseUntil: fields.leaseUntil ?? null,
    epoch: 0,
    updatedAt: fields.createdAt
  })

/** The journal fields a saga step may write. */
export type TransferPatch = Partial<
  Pick<
    Transfer,
    | "status"
    | "failureReason"
    | "pndLifted"
    | "lienPlaced"
    | "debitState"
    | "transferState"
    | "reversalState"
    | "restored"
    | "retryCount"
    | "nextAttemptAt"
    | "leaseUntil"
    | "nameEnquirySessionId"
    | "nameEnquiryAt"
  >
>

/** What a journal write names: the movement, and the claim epoch its writer holds. */
export interface TransferClaim {
  readonly id: string
  readonly epoch: number
}

// ---------------------------------------------------------------------------------------------
// Disbursement plans
// ---------------------------------------------------------------------------------------------

export const PlanFrequency = Schema.Literal("daily", "weekly", "monthly")
export const PlanWeekDay = Schema.Literal("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

/**
 * Where a plan is in its life (the spec shows only `active`; the others are ours, see Plans.ts):
 * - awaiting_funds: created, the wallet does not cover the total yet;
 * - active: paying on schedule;
 * - depleted: a payout found the wallet short; it resumes (catching up) once the wallet covers the rest;
 * - paused: a payout kept failing at the destination bank; resumes when the customer edits the plan;
 * - completed: the last cycle is paid.
 */
export const PlanState = Schema.Literal("awaiting_funds", "active", "depleted", "paused", "completed")
export type PlanState = typeof PlanState.Type

export class Plan extends Schema.Class<Plan>("Plan")({
  id: Schema.String,
  customerId: Schema.String,
  /** the pot of the current schedule */
  totalAmountKobo: Schema.BigIntFromSelf,
  durationDays: Schema.Number,
  frequency: PlanFrequency,
  weekDay: Schema.NullOr(PlanWeekDay),
  /** "HH:MM" in timeZone */
  scheduledTime: Schema.String,
  timeZone: Schema.String,
  withdrawalAccountNumber: Schema.String,
  withdrawalBankCode: Schema.String,
  withdrawalBankName: Schema.String,
  withdrawalAccountName: Schema.String,
  nameEnquirySessionId: Schema.String,
  state: PlanState,
  /** cycles of the current schedule */
  cycleCount: Schema.Number,
  /** the global instalment number of the current schedule's cycle 0 (schedules replaced by an edit keep their numbers) */
  cycleBase: Schema.Number,
  /** the current schedule's next cycle to pay (0-based); cycleCount when all are paid */
  nextCycle: Schema.Number,
  /** local date of cycle 0 ("YYYY-MM-DD"), fixed at activation */
  anchorDate: Schema.NullOr(Schema.String),
  /** when the next cycle is due (or its retry); null unless active */
  nextDueAt: Schema.NullOr(Schema.DateFromSelf),
  borrowCount: Schema.Number,
  /** a scheduler process working on the plan holds it until then */
  leaseUntil: Schema.NullOr(Schema.DateFromSelf),
  /** optimistic concurrency: every save increments it and requires the value read */
  version: Schema.Number,
  activatedAt: Schema.NullOr(Schema.DateFromSelf),
  completedAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

export const InstalmentKind = Schema.Literal("scheduled", "borrow")
export const InstalmentStatus = Schema.Literal("open", "paid")

/**
 * One cycle of a plan: unique per (planId, cycle), so however many schedulers run, a cycle has one
 * record and at most one live payout attempt (`transactionId`). A failed attempt clears the link;
 * the next attempt is a new transaction with a new idempotency key (`attempts` counts them).
 */
export class Instalment extends Schema.Class<Instalment>("Instalment")({
  planId: Schema.String,
  /** global instalment number (plan.cycleBase + the schedule's cycle index) */
  cycle: Schema.Number,
  amountKobo: Schema.BigIntFromSelf,
  /** borrow: paid early at the customer's request; scheduled otherwise */
  kind: InstalmentKind,
  status: InstalmentStatus,
  /** failed payout attempts at the destination bank (not counting a short wallet) */
  attempts: Schema.Number,
  /** the live payout attempt, if any */
  transactionId: Schema.NullOr(Schema.String),
  dueAt: Schema.DateFromSelf,
  paidAt: Schema.NullOr(Schema.DateFromSelf),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}

/** A notice raised to a customer about their money (plan_depleted, disbursement_failed, …), kept for them and for admins. */
export class Notice extends Schema.Class<Notice>("Notice")({
  id: Schema.String,
  customerId: Schema.String,
  planId: Schema.NullOr(Schema.String),
  transactionId: Schema.NullOr(Schema.String),
  kind: Schema.String,
  message: Schema.String,
  createdAt: Schema.DateFromSelf
}) {}
