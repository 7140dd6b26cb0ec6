/**
 * Failures of the spending log and its reports.
 */
import { Failure, validation, ValidationKind } from "../shared/Failure.js"

export const NO_SPENDING_CHANGE_MESSAGE = "Provide amountKobo, category, description or date"

/** Fields of a spending that break the rules (400 VALIDATION_ERROR), every bad field at once. */
export class InvalidSpending extends Failure("InvalidSpending", ValidationKind)<{
  readonly fieldErrors: Readonly<Record<string, ReadonlyArray<string>>>
}> {
  override answer() {
    return validation(this.fieldErrors)
  }
}

/** A PATCH that changes nothing: none of amountKobo, category, description or date (400, a formError). */
export class NoSpendingChange extends Failure("NoSpendingChange", ValidationKind) {
  override answer() {
    return validation({}, [NO_SPENDING_CHANGE_MESSAGE])
  }
}

/** No spending of this customer has this id (404; another customer's too, never 403). */
export class SpendingNotFound extends Failure("SpendingNotFound", {
  status: 404,
  code: "SPENDING_NOT_FOUND",
  message: "Spending not found",
  meaning: "No spending of the customer has this id"
}) {}

/** A report or list window that is not two real dates with from ≤ to, or is too long (400). */
export class InvalidSpendingWindow extends Failure("InvalidSpendingWindow", ValidationKind)<{
  readonly field: "from" | "to"
  readonly reason: string
}> {
  override answer() {
    return validation({ [this.field]: [this.reason] })
  }
}

/** A report month that is not YYYY-MM, or is still to come (400). */
export class InvalidReportMonth extends Failure("InvalidReportMonth", ValidationKind)<{ readonly reason: string }> {
  override answer() {
    return validation({ month: [this.reason] })
  }
}
