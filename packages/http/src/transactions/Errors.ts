/** The failures of reading transactions and their report, over HTTP. */
import type { Reports, TransactionNotFound } from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type TransactionError = TransactionNotFound | Reports.InvalidReportWindow

export const transactionErrors = {
  TransactionNotFound: () => ({ status: 404, code: "TRANSACTION_NOT_FOUND", message: "Transaction not found" }),
  // the query schema already refuses a bad window; this keeps the domain's own check a 400 too
  InvalidReportWindow: (e) => validationError({ [e.field]: [e.reason] })
} satisfies ErrorTable<TransactionError>

/** The codes of transactionErrors, with their meaning (published in the catalogue). */
export const transactionCodes = {
  TRANSACTION_NOT_FOUND: { status: 404, meaning: "No transaction of the customer has this id" }
} satisfies Catalogue<typeof transactionErrors>
