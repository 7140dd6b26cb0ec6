/**
 * Money movements: the transfer saga's executor, reconciliation and manual transfers.
 */
export { INSUFFICIENT_BALANCE, journalOf, LEASE } from "./Steps.js"
export { drive, driveFresh } from "./Executor.js"
export { processDue, reconcile } from "./Reconcile.js"
export { type ManualTransferInput, startManualTransfer } from "./ManualTransfer.js"
