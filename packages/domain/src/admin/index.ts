/**
 * The back office: staff access (sign-in, links, permissions) and the audit log.
 */
export * from "./StaffAccess.js"
export { createWithPassword, type CreateInput, InvalidStaffInput, STAFF_PASSWORD_MAX_LENGTH } from "./StaffCreate.js"
export { JobRetryRefused, retryFailedPayout, type RetryResult } from "./JobRetry.js"
export { allPermissions, can, Permission, permissionMatrix, requirePermission } from "./Permissions.js"
export * as Audit from "./Audit.js"
export * as AdminSettings from "./AdminSettings.js"
export * as AlertDesk from "./AlertDesk.js"
export * as Ledger from "./Ledger.js"
export * as Overview from "./Overview.js"
export * as SupportDesk from "./SupportDesk.js"
export * as Customers from "./Customers.js"
export * as Deletions from "./Deletions.js"
export * as Freezes from "./Freezes.js"
export * as Approvals from "./Approvals.js"
export * as MovementAudit from "./MovementAudit.js"
export * as MovementResolution from "./MovementResolution.js"
