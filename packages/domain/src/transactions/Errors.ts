/**
 * Failures of reading transactions.
 */
import { Failure } from "../shared/Failure.js"

/** No transaction has this id (customer endpoints: none of the customer's; the back office: none at all). */
export const TransactionNotFoundKind = {
  status: 404,
  code: "TRANSACTION_NOT_FOUND",
  message: "Transaction not found",
  meaning: "No transaction has this id (on customer endpoints: none of the customer's)"
} as const

/** No such transaction, or not this customer's (404). */
export class TransactionNotFound extends Failure("TransactionNotFound", TransactionNotFoundKind) {}
