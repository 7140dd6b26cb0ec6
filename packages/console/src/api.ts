/**
 * The back-office HTTP API as the console calls it: /api/v1/admin/* with the admin bearer token,
 * answers in the envelope {apiObject, code, status, message, result, error}. Only endpoints of the
 * OpenAPI document (/api/v1/openapi.json) are called.
 */
export type Permission =
  | "overview:read" | "customers:read" | "customers:freeze" | "customers:unfreeze" | "deletions:read"
  | "deletions:review" | "transactions:read" | "transactions:requery" | "transactions:resolve" | "disbursements:read" | "jobs:read" | "jobs:retry"
  | "settings:read" | "settings:write" | "staff:invite" | "staff:send_link" | "staff:change_email" | "support:read" | "support:reply"
  | "support:note" | "support:assign" | "support:resolve" | "audit:read" | "audit:verify" | "alerts:read"
  | "alerts:ack"

export interface Staff {
  readonly id: string
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly role: "superadmin" | "admin" | "support" | "officer"
  readonly status: string
  readonly createdAt: string
}
export interface Me extends Staff {
  readonly permissions: ReadonlyArray<Permission>
}
export interface Session {
  readonly token: string
  readonly expiresAt: string
  readonly admin: Staff
}
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly page: number
  readonly pageSize: number
  readonly total: number
  readonly totalPages: number
}

export interface Transaction {
  readonly id: string
  readonly customerId: string
  readonly planId: string | null
  readonly type: "credit" | "debit" | "transfer"
  readonly purpose: "deposit" | "manual_transfer" | "disbursement" | "early_withdrawal"
  readonly amountKobo: string
  readonly feeKobo: string
  readonly status: "pending" | "confirmed" | "failed"
  readonly retrievalReference: string | null
  readonly transferReference: string | null
  readonly failureReason: string | null
  readonly retryCount: number
  readonly createdAt: string
  readonly updatedAt: string
}
export interface Requery {
  readonly transaction: Transaction
  readonly provider: {
    readonly debit: { readonly reference: string; readonly status: string } | null
    readonly transfer: { readonly reference: string; readonly status: string } | null
  }
}

export interface CustomerSummary {
  readonly id: string
  readonly accountId: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly email: string
  readonly phone: string | null
  readonly accountNumber: string | null
  readonly customerStatus: string
  readonly kycStatus: string
  readonly referralCode: string
  readonly officerId: string | null
  readonly lastKnownBalanceKobo: string | null
  readonly balanceSeenAt: string | null
  readonly createdAt: string
}
export interface AuditEntry {
  readonly seq: number
  readonly at: string
  readonly actorKind: "staff" | "system" | "customer"
  readonly actorId: string
  readonly action: string
  readonly targetKind: string
  readonly targetId: string
  readonly before: unknown
  readonly after: unknown
  readonly prevHash: string
  readonly hash: string
}
export interface Ticket {
  readonly id: string
  readonly reference: string
  readonly subject: string
  readonly category: string
  readonly transactionId: string | null
  readonly status: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly lastMessageAt: string
  readonly customerId: string
  readonly assignedStaffId: string | null
}
export interface TicketMessage {
  readonly id: string
  readonly authorKind: string
  readonly authorId: string
  readonly body: string
  readonly createdAt: string
}
export interface TicketNote {
  readonly id: string
  readonly staffId: string
  readonly body: string
  readonly createdAt: string
}
export interface TicketThread {
  readonly ticket: Ticket
  readonly messages: ReadonlyArray<TicketMessage>
  readonly notes: ReadonlyArray<TicketNote>
}
export interface Notice {
  readonly id: string
  readonly kind: string
  readonly message: string
  readonly planId: string | null
  readonly transactionId: string | null
  readonly createdAt: string
}
export interface CustomerFile {
  readonly customer: CustomerSummary
  readonly liveBalanceKobo: string | null
  readonly kyc: {
    readonly bvnVerified: boolean
    readonly dateOfBirth: string | null
    readonly gender: string | null
    readonly address: string | null
  } | null
  readonly plan: Record<string, unknown> | null
  readonly recentTransactions: ReadonlyArray<Transaction>
  readonly notices: ReadonlyArray<Notice>
  readonly tickets: ReadonlyArray<Ticket>
  readonly audit: ReadonlyArray<AuditEntry>
}
export interface FreezeOutcome {
  readonly frozen: boolean
  readonly customerStatus: string
  readonly providerFreeze: string
  readonly freezeId: string | null
}
export interface Approval {
  readonly id: string
  readonly action: { readonly _tag: "settings.update"; readonly key: string; readonly value: unknown } | {
    readonly _tag: "customer.unfreeze"
    readonly customerId: string
  } | {
    readonly _tag: "movement.resolve"
    readonly transactionId: string
    readonly outcome: ResolutionOutcome
    readonly note: string
  }
  readonly status: "pending" | "approved" | "rejected"
  readonly requestedBy: string
  readonly requestedAt: string
  readonly decidedBy: string | null
  readonly decidedAt: string | null
  readonly note: string | null
}
/** What staff established with the bank about a movement parked after a refused reversal. */
export type ResolutionOutcome = "credited_back" | "delivered"
export interface Resolution {
  readonly transaction: Transaction
  readonly resolution: {
    readonly outcome: ResolutionOutcome
    readonly note: string
    readonly requestedBy: string
    readonly resolvedBy: string
    readonly resolvedAt: string
  }
  readonly closureStatus: string | null
  readonly planState: string | null
}
export interface PendingApproval {
  readonly pendingApproval: Approval
}
export interface Setting {
  readonly key: string
  readonly description: string
  readonly value: unknown
  readonly defaultValue: unknown
}
export interface Alert {
  readonly id: string
  readonly kind: string
  readonly severity: "critical" | "warning"
  readonly dedupKey: string
  readonly customerId: string | null
  readonly transactionId: string | null
  readonly message: string
  readonly occurrences: number
  readonly firstRaisedAt: string
  readonly lastRaisedAt: string
}
export interface Deletion {
  readonly id: string
  readonly customerId: string
  readonly status: "pending_review" | "reviewed"
  readonly via: string | null
  readonly counts: Record<string, number>
  readonly planId: string | null
  readonly lastBalanceKobo: string | null
  readonly retainUntil: string
  readonly createdAt: string
  readonly reviewedBy: string | null
  readonly reviewedAt: string | null
  readonly reviewNote: string | null
}
export interface Movement {
  readonly count: number
  readonly amountKobo: string
  readonly feeKobo: string
}
export interface DayFigures {
  readonly signUps: number
  readonly deposits: { readonly count: number; readonly amountKobo: string }
  readonly moneyOut: {
    readonly manualTransfer: Movement
    readonly disbursement: Movement
    readonly earlyWithdrawal: Movement
  }
  readonly disbursements: { readonly paid: number; readonly failed: number }
}
export interface Overview {
  readonly days: number
  readonly from: string
  readonly to: string
  readonly asOf: string
  readonly customers: {
    readonly total: number
    readonly byStatus: Record<string, number>
    readonly byKyc: Record<string, number>
  }
  readonly pending: { readonly count: number; readonly amountKobo: string }
  readonly activePlans: number
  readonly totals: DayFigures
  readonly series: ReadonlyArray<DayFigures & { readonly date: string }>
}
export interface AuditVerification {
  readonly ok: boolean
  readonly rows: number
  readonly lastHash?: string
  readonly brokenAt?: number
  readonly reason?: string
}

/** A failure answer: its HTTP status, the envelope's message and error (code, field…). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly error: Record<string, unknown> | undefined
  ) {
    super(message)
  }
}

export interface Answer<A> {
  readonly status: number
  readonly message: string
  readonly result: A
}

type Query = Record<string, string | number | undefined>

const TOKEN_KEY = "kobo.admin.token"

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY)
export const storeToken = (token: string | null) =>
  token === null ? sessionStorage.removeItem(TOKEN_KEY) : sessionStorage.setItem(TOKEN_KEY, token)

/** Called on a 401 from any endpoint but sign-in: the session is over. */
let onUnauthorized: () => void = () => {}
export const setUnauthorizedHandler = (handler: () => void) => {
  onUnauthorized = handler
}

const queryString = (query: Query | undefined) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") params.set(k, String(v))
  const s = params.toString()
  return s === "" ? "" : `?${s}`
}

export const call = async <A>(
  method: "GET" | "POST" | "PATCH",
  path: string,
  options: { readonly query?: Query; readonly body?: unknown } = {}
): Promise<Answer<A>> => {
  const token = storedToken()
  const headers: Record<string, string> = { accept: "application/json" }
  if (options.body !== undefined) headers["content-type"] = "application/json"
  if (token !== null) headers.authorization = `Bearer ${token}`
  const response = await fetch(`/api/v1/admin${path}${queryString(options.query)}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  let envelope: { message?: string; result?: unknown; error?: Record<string, unknown> } = {}
  try {
    envelope = await response.json()
  } catch {
    // not JSON: a proxy or a crash; the status says enough
  }
  if (!response.ok) {
    if (response.status === 401 && path !== "/auth/sign-in") onUnauthorized()
    throw new ApiError(response.status, envelope.message ?? `Request failed (${response.status})`, envelope.error)
  }
  return { status: response.status, message: envelope.message ?? "", result: envelope.result as A }
}

export const get = async <A>(path: string, query?: Query) =>
  (await call<A>("GET", path, query === undefined ? {} : { query })).result

export const errorText = (e: unknown): string => {
  if (e instanceof ApiError) {
    const field = typeof e.error?.field === "string" ? ` (${e.error.field})` : ""
    return `${e.message}${field}`
  }
  return e instanceof Error ? e.message : String(e)
}
