/**
 * Failures of reading transactions.
 */
import { Data } from "effect"

/** No such transaction, or not this customer's (404). */
export class TransactionNotFound extends Data.TaggedError("TransactionNotFound")<{}> {}
