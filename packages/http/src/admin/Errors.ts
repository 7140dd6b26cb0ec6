/** The failures of staff sign-in, links and permissions, over HTTP. */
import type {
  AdminCustomerNotFound,
  OwnStaffChange,
  DeletionAlreadyReviewed,
  DeletionNotFound,
  AdminTransactionNotFound,
  AlertNotFound,
  InvalidSettingValue,
  LinkGone,
  MovementNotAwaitingOperator,
  SettingNotFound,
  PermissionDenied,
  SendLinkEmailRefused,
  StaffEmailTaken,
  StaffInvalidCredentials,
  StaffNotFound,
  StaffSignInThrottled,
  StaffUnauthenticated,
  StaffAccess
} from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type AdminError =
  | StaffInvalidCredentials
  | StaffSignInThrottled
  | StaffUnauthenticated
  | PermissionDenied
  | LinkGone
  | StaffNotFound
  | StaffEmailTaken
  | SendLinkEmailRefused
  | OwnStaffChange
  | SettingNotFound
  | InvalidSettingValue
  | AlertNotFound
  | AdminTransactionNotFound
  | AdminCustomerNotFound
  | DeletionNotFound
  | DeletionAlreadyReviewed
  | StaffAccess.Freezes.CustomerNotFreezable
  | StaffAccess.Freezes.CustomerNotSuspended
  | StaffAccess.Freezes.ProviderUnfreezeFailed
  | StaffAccess.Freezes.UnfreezeStale
  | StaffAccess.Approvals.ApprovalNotFound
  | StaffAccess.Approvals.ApprovalDecided
  | StaffAccess.Approvals.OwnApproval
  | StaffAccess.JobRetryRefused
  | MovementNotAwaitingOperator

export const adminErrors = {
  StaffInvalidCredentials: () => ({ status: 401, code: "INVALID_CREDENTIALS", message: "Invalid credentials" }),
  StaffSignInThrottled: (e) => ({
    status: 429,
    code: "SIGN_IN_THROTTLED",
    message: "Too many failed sign-in attempts; try again later",
    detail: { retryAfterSeconds: e.retryAfterSeconds }
  }),
  StaffUnauthenticated: () => ({ status: 401, code: "AUTHENTICATION_REQUIRED", message: "Authentication required" }),
  PermissionDenied: (e) => ({
    status: 403,
    code: "PERMISSION_DENIED",
    message: "Your role does not allow this",
    detail: { permission: e.permission }
  }),
  LinkGone: () => ({ status: 410, code: "LINK_GONE", message: "This link has expired or was already used" }),
  StaffNotFound: (e) => ({ status: 404, code: "STAFF_NOT_FOUND", message: "Staff member not found", detail: { staffId: e.staffId } }),
  StaffEmailTaken: () => ({ status: 409, code: "STAFF_EMAIL_TAKEN", message: "A staff member already has this email" }),
  SendLinkEmailRefused: () =>
    validationError({
      email: ["send-link sends the link to the member's own email and never changes it; a superadmin changes it with PATCH /api/v1/admin/staff/{id}/email"]
    }),
  OwnStaffChange: (e) => ({
    status: 403,
    code: "OWN_STAFF_CHANGE",
    message: "You cannot change your own role or deactivate yourself: another superadmin must",
    detail: { action: e.action }
  }),
  SettingNotFound: (e) => ({ status: 404, code: "SETTING_NOT_FOUND", message: "No such setting", detail: { key: e.key } }),
  InvalidSettingValue: (e) => validationError({ value: [e.message] }),
  AlertNotFound: () => ({ status: 404, code: "ALERT_NOT_FOUND", message: "No open alert has this id" }),
  AdminTransactionNotFound: () => ({ status: 404, code: "TRANSACTION_NOT_FOUND", message: "Transaction not found" }),
  AdminCustomerNotFound: () => ({ status: 404, code: "CUSTOMER_NOT_FOUND", message: "Customer not found" }),
  DeletionNotFound: () => ({ status: 404, code: "DELETION_NOT_FOUND", message: "Deletion record not found" }),
  DeletionAlreadyReviewed: () => ({ status: 409, code: "DELETION_ALREADY_REVIEWED", message: "This deletion was already reviewed" }),
  CustomerNotFreezable: (e) => ({
    status: 409,
    code: "CUSTOMER_NOT_FREEZABLE",
    message: "This customer is closing, closed or deleted: there is nothing to freeze",
    detail: { customerStatus: e.status }
  }),
  CustomerNotSuspended: (e) => ({
    status: 409,
    code: "CUSTOMER_NOT_SUSPENDED",
    message: "Only a suspended customer can be unfrozen",
    detail: { customerStatus: e.status }
  }),
  ProviderUnfreezeFailed: (e) => ({
    status: 502,
    code: "PROVIDER_UNFREEZE_FAILED",
    message: "The bank did not unfreeze the core account; the customer stays suspended",
    detail: { reason: e.reason }
  }),
  UnfreezeStale: () => ({
    status: 409,
    code: "APPROVAL_STALE",
    message: "The freeze this request was filed for was lifted since; the request is closed. File a new one for the current freeze"
  }),
  ApprovalNotFound: () => ({ status: 404, code: "APPROVAL_NOT_FOUND", message: "No approval request has this id" }),
  ApprovalDecided: (e) => ({
    status: 409,
    code: "APPROVAL_DECIDED",
    message: "This request was already decided",
    detail: { approvalStatus: e.status }
  }),
  OwnApproval: () => ({ status: 403, code: "OWN_APPROVAL", message: "A second member of staff must decide your own request" }),
  JobRetryRefused: (e) => ({ status: 409, code: "JOB_RETRY_REFUSED", message: `This payout cannot be retried: ${e.message}` }),
  MovementNotAwaitingOperator: (e) => ({
    status: 409,
    code: "MOVEMENT_NOT_AWAITING_OPERATOR",
    message: e.why === "in_progress"
      ? "This movement is still being driven by the saga or reconciliation: it cannot be resolved by hand"
      : e.why === "final"
      ? "This movement is already final (confirmed, failed or resolved): it cannot be resolved again"
      : "This transaction is not a money movement out of the wallet: there is nothing to resolve",
    detail: { transactionId: e.transactionId, transactionStatus: e.status, reason: e.why }
  })
} satisfies ErrorTable<AdminError>

/** The codes of adminErrors, with their meaning (published in the catalogue). */
export const adminCodes = {
  INVALID_CREDENTIALS: { status: 401, meaning: "Wrong email or password" },
  SIGN_IN_THROTTLED: {
    status: 429,
    meaning: "Too many failed sign-ins: customer sign-in, 5 for one account (or email or phone) or 50 from one client address " +
      "in 15 minutes (SIGN_IN_*); admin sign-in, 5 for one email from one client or 20 from one client in 15 minutes. " +
      "No password is checked until `error.retryAfterSeconds` (also Retry-After) have passed"
  },
  AUTHENTICATION_REQUIRED: { status: 401, meaning: "No valid bearer token (missing, expired or invalid)" },
  PERMISSION_DENIED: { status: 403, meaning: "The staff member's role lacks the permission (`error.permission`)" },
  LINK_GONE: { status: 410, meaning: "The invite or reset link is unknown, expired or already used; ask for a new one" },
  STAFF_NOT_FOUND: { status: 404, meaning: "No staff member has this id (`error.staffId`)" },
  STAFF_EMAIL_TAKEN: { status: 409, meaning: "Another staff member already has this email" },
  OWN_STAFF_CHANGE: {
    status: 403,
    meaning: "A staff member tried to change their own role or deactivate themselves (`error.action`); another superadmin must"
  },
  SETTING_NOT_FOUND: { status: 404, meaning: "No app setting has this key (`error.key`); GET /admin/settings lists them" },
  ALERT_NOT_FOUND: { status: 404, meaning: "No open staff alert has this id (unknown, or already acknowledged)" },
  TRANSACTION_NOT_FOUND: { status: 404, meaning: "No transaction has this id (on customer endpoints: none of the customer's)" },
  CUSTOMER_NOT_FOUND: { status: 404, meaning: "No customer has this id" },
  DELETION_NOT_FOUND: { status: 404, meaning: "No deletion record has this id" },
  DELETION_ALREADY_REVIEWED: { status: 409, meaning: "The deletion record was reviewed already" },
  CUSTOMER_NOT_FREEZABLE: { status: 409, meaning: "The customer is closing, closed or deleted (`error.customerStatus`): nothing to freeze" },
  CUSTOMER_NOT_SUSPENDED: { status: 409, meaning: "Unfreeze: the customer is not suspended (`error.customerStatus`)" },
  PROVIDER_UNFREEZE_FAILED: {
    status: 502,
    meaning: "Unfreeze: the bank refused or gave no final answer (`error.reason`); the customer stays suspended, try again"
  },
  APPROVAL_STALE: {
    status: 409,
    meaning: "Four-eyes unfreeze: the freeze the request was filed for was lifted and the customer frozen again since; " +
      "the request is closed as rejected and lifts nothing (file a new one)"
  },
  APPROVAL_NOT_FOUND: { status: 404, meaning: "No four-eyes request has this id (or it is one your role cannot decide)" },
  APPROVAL_DECIDED: { status: 409, meaning: "The four-eyes request was already approved or rejected (`error.approvalStatus`)" },
  OWN_APPROVAL: { status: 403, meaning: "Four-eyes: the member who asked cannot approve or reject their own request" },
  JOB_RETRY_REFUSED: {
    status: 409,
    meaning: "Failed-job retry: not a failed plan payout, its instalment was since paid or is being paid, or the plan or customer cannot be paid now"
  },
  MOVEMENT_NOT_AWAITING_OPERATOR: {
    status: 409,
    meaning: "Resolve movement: only a movement parked for an operator (its reversal refused by the bank) can be resolved; " +
      "`error.reason` says why not: `in_progress` (the saga still drives it), `final` (already confirmed, failed or " +
      "resolved), `not_a_movement` (a deposit)"
  }
} satisfies Catalogue<typeof adminErrors>
