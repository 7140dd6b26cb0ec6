/**
 * Failures of the spending log and its reports.
 */
import { Data } from "effect"

/** Fields of a spending that break the rules (400 VALIDATION_ERROR), every bad field at once. */
export class InvalidSpending extends Data.TaggedError("InvalidSpending")<{
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}> {}

/** A PATCH that changes nothing: none of amountKobo, category, description or date (400, a formError). */
export class NoSpendingChange extends Data.TaggedError("NoSpendingChange")<{}> {}

/** No spending of this customer has this id (404; another customer's too, never 403). */
export class SpendingNotFound extends Data.TaggedError("SpendingNotFound")<{}> {}

/** A report or list window that is not two real dates with from ≤ to, or is too long (400). */
export class InvalidSpendingWindow extends Data.TaggedError("InvalidSpendingWindow")<{
  readonly field: "from" | "to"
  readonly reason: string
}> {}

/** A report month that is not YYYY-MM, or is still to come (400). */
export class InvalidReportMonth extends Data.TaggedError("InvalidReportMonth")<{ readonly reason: string }> {}
