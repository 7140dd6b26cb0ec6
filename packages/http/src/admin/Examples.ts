/**
 * The examples of the back office's answers on /docs: the customer of shared/Examples.ts
 * (Chiamaka Okafor) seen by staff, a support agent (Tunde Bakare), an admin who decides four-eyes
 * requests (Adaeze Nwosu), one refused reversal awaiting an operator, one other customer's
 * deletion; kobo amounts, 2026 instants. Each is a decoded value; test/OpenApiDocs.test.ts checks
 * it against the schema it annotates.
 */
import type {
  AlertId, ApprovalId, CustomerId, DeletionId, FreezeId, PlanId, StaffId, TransactionId
} from "@app/domain"
import { planExample } from "../plans/Views.js"
import * as Ex from "../shared/Examples.js"
import { MessageView, TicketView } from "../support/Views.js"
import { TransactionView } from "../transactions/Views.js"
import { StaffEntryView } from "./Views.js"

export const ADMIN_ID = "7e9a1c3e-5b7d-4f2a-8c4e-6a8c0e2a4c86" as StaffId
export const ADMIN_NAME = "Adaeze Nwosu"
export const STAFF_NAME = "Tunde Bakare"
/** the token of an invite or reset link (32 random bytes, base64url), as in the emailed URL */
export const LINK_TOKEN = "Zq8vN3xR1tLw7mKc5pYh2dFs9gBj4aUe6oTi0nWlQ3M"
export const CUSTOMER_NAME = `${Ex.FIRST_NAME} ${Ex.LAST_NAME}`
export const ALERT_ID = "3c5e7a9c-1e3a-4c5e-9a7c-9e1a3c5e7a90" as AlertId
export const APPROVAL_ID = "6f8b0d2f-4a6c-4e8a-b0c2-4e6a8c0e2a47" as ApprovalId
export const DELETION_ID = "8a0c2e4a-6c8e-4a0c-9e2a-6c8e0a2c4e68" as DeletionId
export const FREEZE_ID = "b2d4f6a8-0c2e-4b4d-8f6a-0e2c4a6e8c01" as FreezeId
/** a manual transfer whose reversal the bank refused: it waits on an operator */
export const STUCK_TRANSACTION_ID = "d4f6a8c0-2e4a-4c6e-8a0c-4a6c8e0a2c93" as TransactionId

const transaction = Ex.exampleOf(TransactionView)
const ticket = Ex.exampleOf(TicketView)
const customerMessage = Ex.exampleOf(MessageView)

/** a confirmed payout of the plan, as staff list it */
export const ledgerEntry = { ...transaction, customerName: CUSTOMER_NAME, awaitsOperator: false } as const

/** ₦25,000 to another bank; the transfer failed and the bank refused its reversal */
export const stuckEntry = {
  ...ledgerEntry,
  id: STUCK_TRANSACTION_ID,
  planId: null,
  purpose: "manual_transfer",
  amountKobo: 2_500_000n,
  feeKobo: 2_688n,
  status: "pending",
  retrievalReference: "DQ4NZ8H2KRT6",
  transferReference: "TQ4NZ8H2KRT6",
  failureReason: "reversal refused: 91 beneficiary bank not available",
  retryCount: 3,
  createdAt: "2026-11-24T14:52:19.000Z",
  updatedAt: "2026-11-24T15:12:33.000Z",
  awaitsOperator: true
} as const

export const requery = {
  transaction: ledgerEntry,
  provider: {
    debit: { reference: "DX7CB1V4WAJ3", status: "successful" },
    transfer: { reference: "TX7CB1V4WAJ3", status: "successful" }
  }
} as const

export const resolution = {
  transaction: { ...transaction, ...stuckEntry, status: "confirmed", updatedAt: "2026-11-25T10:03:47.000Z" },
  resolution: {
    outcome: "delivered",
    note: "GTBank confirmed the credit on 24 Nov 2026, NIP session 000013261124151233445566778899.",
    requestedBy: Ex.STAFF_ID,
    resolvedBy: ADMIN_ID,
    resolvedAt: "2026-11-25T10:03:47.000Z"
  },
  closureStatus: null,
  planState: null
} as const

export const retry = {
  transactionId: "5e7a9c1e-3a5c-4e7a-9c1e-5a7c9e1a3c05" as TransactionId,
  planId: Ex.PLAN_ID,
  cycle: 2,
  stateBefore: "paused",
  state: "active",
  nextDueAt: new Date("2026-11-28T08:00:00.000Z")
} as const

export const alert = {
  id: ALERT_ID,
  kind: "reversal_refused",
  severity: "critical",
  dedupKey: `reversal_refused:${STUCK_TRANSACTION_ID}`,
  customerId: Ex.CUSTOMER_ID,
  customerName: CUSTOMER_NAME,
  transactionId: STUCK_TRANSACTION_ID,
  message: `The bank refused the reversal of movement ${STUCK_TRANSACTION_ID} (₦25,026.88): 91 beneficiary bank not ` +
    "available. The customer's money is held in settlement: credit it back by hand (or confirm with the bank that it " +
    "was delivered), then resolve the movement (console, POST /admin/transactions/{id}/resolve, or cli tx resolve).",
  occurrences: 1,
  firstRaisedAt: "2026-11-24T15:12:33.000Z",
  lastRaisedAt: "2026-11-24T15:12:33.000Z"
} as const

export const setting = {
  key: "plans.borrow.lifetimeCap",
  description: "Borrows per plan, lifetime",
  value: 4,
  defaultValue: 3
} as const

const HASH = "9f2c4e6a8b0d1f3a5c7e9b1d3f5a7c9e0b2d4f6a8c0e2a4c6e8a0c2e4a6c8e0a"

export const auditEntry = {
  seq: 4812,
  at: "2026-11-27T16:40:05.000Z",
  actorKind: "staff",
  actorId: Ex.STAFF_ID,
  actorName: STAFF_NAME,
  action: "customer.freeze",
  targetKind: "customer",
  targetId: Ex.CUSTOMER_ID,
  targetName: CUSTOMER_NAME,
  before: { customerStatus: "active" },
  after: {
    customerStatus: "suspended",
    reason: "Customer reported a stolen phone on 27 Nov 2026; freeze until they confirm their identity.",
    freezeId: FREEZE_ID
  },
  prevHash: "4b6d8f0a2c4e6a8c0e2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2a4c6e8a0c2e4f6a",
  hash: HASH
} as const

export const auditVerified = { ok: true, rows: 4812, lastHash: HASH } as const

export const staffTicket = {
  ...ticket,
  customerId: Ex.CUSTOMER_ID,
  customerName: CUSTOMER_NAME,
  assignedStaffId: Ex.STAFF_ID,
  assignedStaffName: STAFF_NAME
} as const

const customerLine = { ...customerMessage, authorId: Ex.CUSTOMER_ID, authorName: CUSTOMER_NAME } as const
export const staffLine = {
  id: "c5e7a9c1-3e5a-4c7e-9a1c-5e7a9c1e3a58",
  authorKind: "staff",
  authorId: Ex.STAFF_ID,
  authorName: STAFF_NAME,
  body: "Good morning Chiamaka, we can see your ₦50,000 transfer from GTBank. It was credited at 11:42; please check your balance.",
  createdAt: "2026-11-20T11:45:12.000Z"
} as const

export const note = {
  id: "d6f8b0d2-4f6b-4d8f-8b2d-6f8b0d2f4b69",
  staffId: Ex.STAFF_ID,
  staffName: STAFF_NAME,
  body: "Provider webhook arrived late (11:41); no reversal needed. Close if she confirms.",
  createdAt: "2026-11-20T11:43:30.000Z"
} as const

const answered = { ...staffTicket, status: "awaiting_customer", updatedAt: staffLine.createdAt, lastMessageAt: staffLine.createdAt } as const

export const ticketDetail = { ticket: answered, messages: [customerLine, staffLine], notes: [note] } as const
export const staffReply = { message: staffLine, ticket: answered } as const

export const customerSummary = {
  id: Ex.CUSTOMER_ID,
  accountId: Ex.ACCOUNT_ID,
  firstName: Ex.FIRST_NAME,
  lastName: Ex.LAST_NAME,
  email: Ex.EMAIL,
  phone: Ex.PHONE,
  accountNumber: Ex.CORE_ACCOUNT_NUMBER,
  customerStatus: "active",
  kycStatus: "bvn_verified",
  referralCode: Ex.REFERRAL_CODE,
  officerId: null,
  lastKnownBalanceKobo: 12_450_000n,
  balanceSeenAt: "2026-11-28T07:55:40.000Z",
  createdAt: Ex.CREATED_AT
} as const

const notice = {
  id: "e7a9c1e3-5a7c-4e9a-8c1e-7a9c1e3a5c70",
  kind: "plan_paused",
  message: "Your plan is paused: the payout of ₦60,000.00 to GTBank failed twice. We will try again once the bank answers.",
  planId: Ex.PLAN_ID,
  transactionId: retry.transactionId,
  createdAt: "2026-11-21T08:20:11.000Z"
} as const

export const customerFile = {
  customer: customerSummary,
  liveBalanceKobo: 12_450_000n,
  kyc: { bvnVerified: true, dateOfBirth: Ex.DATE_OF_BIRTH, gender: "female", address: Ex.ADDRESS },
  plan: planExample,
  recentTransactions: [transaction],
  notices: [notice],
  tickets: [staffTicket],
  audit: [auditEntry]
} as const

export const customerPlan = {
  plan: {
    ...planExample,
    perCycleFeeKobo: 5_375n,
    borrow: { used: 0, cap: 3 },
    extraCash: { usedToday: 0, perDay: 1, usedTotal: 1, perPlan: 3, feeBasisPoints: 400n }
  }
} as const

export const messageLogEntry = {
  id: "f8b0d2f4-6b8d-4f0b-9d2f-8b0d2f4b6d81",
  source: "one_time_code",
  channel: "sms",
  kind: "phone_verification",
  destination: "*********4567",
  status: "sent",
  deliveryAttempts: null,
  lastError: null,
  createdAt: "2026-11-27T18:02:44.000Z",
  sentAt: "2026-11-27T18:02:45.000Z",
  codeState: "used",
  codeExpiresAt: "2026-11-27T18:12:44.000Z"
} as const

export const frozen = { frozen: true, customerStatus: "suspended", providerFreeze: "frozen", freezeId: FREEZE_ID } as const
export const unfrozen = { frozen: false, customerStatus: "active", providerFreeze: "lifted", freezeId: FREEZE_ID } as const

export const approval = {
  id: APPROVAL_ID,
  action: { _tag: "customer.unfreeze", customerId: Ex.CUSTOMER_ID, freezeId: FREEZE_ID },
  status: "pending",
  requestedBy: Ex.STAFF_ID,
  requestedAt: "2026-11-28T08:31:56.000Z",
  decidedBy: null,
  decidedAt: null,
  note: null
} as const

export const approved = {
  approval: { ...approval, status: "approved", decidedBy: ADMIN_ID, decidedAt: "2026-11-28T08:47:02.000Z" },
  result: unfrozen
} as const

export const rejected = {
  ...approval,
  status: "rejected",
  decidedBy: ADMIN_ID,
  decidedAt: "2026-11-28T08:47:02.000Z",
  note: "The customer's identity is not confirmed yet: keep the freeze until KYC review."
} as const

export const deletion = {
  id: DELETION_ID,
  customerId: "a9c1e3a5-7c9e-4a1c-8e3a-9c1e3a5c7e92" as CustomerId,
  status: "pending_review",
  via: "mobile",
  counts: { transactions: 14, beneficiaries: 2, plans: 1, notices: 3, sessions: 2, spendings: 9, tickets: 1 },
  planId: "b0d2f4b6-8d0f-4b2d-9f4b-0d2f4b6d8f03" as PlanId,
  lastBalanceKobo: 0n,
  retainUntil: "2031-11-26T13:18:09.000Z",
  createdAt: "2026-11-26T13:18:09.000Z",
  reviewedBy: null,
  reviewedAt: null,
  reviewNote: null
} as const

export const deletionReviewed = {
  ...deletion,
  status: "reviewed",
  reviewedBy: Ex.STAFF_ID,
  reviewedAt: "2026-11-28T09:14:27.000Z",
  reviewNote: "Balance was swept to GTBank before deletion; KYC record kept until 2031-11-26."
} as const

/** one day of the dashboard: `n` shifts its figures so the week is not flat */
const day = (date: string, n: number) => ({
  date,
  signUps: 3 + n,
  deposits: { count: 11 + n, amountKobo: BigInt(42_500_000 + n * 5_000_000) },
  moneyOut: {
    manualTransfer: { count: 4, amountKobo: 9_800_000n, feeKobo: 10_750n },
    disbursement: { count: 6 + n, amountKobo: BigInt((6 + n) * 4_500_000), feeKobo: BigInt((6 + n) * 5_375) },
    earlyWithdrawal: { count: n % 2, amountKobo: BigInt((n % 2) * 1_500_000), feeKobo: BigInt((n % 2) * 60_000) }
  },
  disbursements: { paid: 6 + n, failed: n === 3 ? 1 : 0 }
})
type Day = ReturnType<typeof day>
const flow = (a: { count: number; amountKobo: bigint }, b: { count: number; amountKobo: bigint }) =>
  ({ count: a.count + b.count, amountKobo: a.amountKobo + b.amountKobo })
const outflow = (a: Day["moneyOut"]["disbursement"], b: Day["moneyOut"]["disbursement"]) =>
  ({ ...flow(a, b), feeKobo: a.feeKobo + b.feeKobo })
const week = [0, 2, 1, 3, 2, 0, 1].map((n, i) => day(`2026-11-${22 + i}`, n))
const { date: _date, ...totals } = week.reduce((a, b) => ({
  date: a.date,
  signUps: a.signUps + b.signUps,
  deposits: flow(a.deposits, b.deposits),
  moneyOut: {
    manualTransfer: outflow(a.moneyOut.manualTransfer, b.moneyOut.manualTransfer),
    disbursement: outflow(a.moneyOut.disbursement, b.moneyOut.disbursement),
    earlyWithdrawal: outflow(a.moneyOut.earlyWithdrawal, b.moneyOut.earlyWithdrawal)
  },
  disbursements: { paid: a.disbursements.paid + b.disbursements.paid, failed: a.disbursements.failed + b.disbursements.failed }
}))

/** the last seven days (GET /admin/overview?days=7), totals the sum of the series */
export const overview = {
  days: 7,
  from: "2026-11-22",
  to: Ex.TODAY,
  asOf: "2026-11-28T09:30:00.000Z",
  customers: {
    total: 1284,
    byStatus: { unverified: 96, verified: 143, active: 1008, suspended: 7, closing: 1, closed: 21, deleted: 8 },
    byKyc: { pending: 239, bvn_verified: 812, fully_verified: 233 }
  },
  pending: { count: 2, amountKobo: 8_500_000n },
  activePlans: 611,
  totals,
  series: week
}

export const attention = {
  total: 4,
  alerts: { count: 1, items: [alert] },
  approvals: { count: 1, items: [{ ...approval, requestedByName: STAFF_NAME }] },
  movements: { count: 1, items: [stuckEntry] },
  tickets: { count: 1, items: [staffTicket] }
} as const

const member = Ex.exampleOf(StaffEntryView)

/** GET /admin/staff: the support agent, and an officer invited but not signed in yet */
export const staffList = {
  items: [
    member,
    {
      ...member,
      id: "1f3b5d7f-9a2c-4e4a-8b6c-8d0f2b4d6f81" as StaffId,
      email: "ngozi.eze@example.com",
      firstName: "Ngozi",
      lastName: "Eze",
      role: "officer",
      status: "invited",
      createdAt: "2026-11-28T08:58:31.000Z",
      lastSignInAt: null,
      pendingInvite: { sentAt: "2026-11-28T08:58:31.000Z", expiresAt: "2026-12-01T09:00:00.000Z", expired: false }
    }
  ]
} as const
