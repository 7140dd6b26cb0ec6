/** The failures of the spending log and its reports, over HTTP. */
import type { InvalidReportMonth, InvalidSpending, InvalidSpendingWindow, NoSpendingChange, SpendingNotFound } from "@app/domain"
import { validationDetail, VALIDATION_MESSAGE } from "../shared/Envelope.js"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type SpendingError = InvalidSpending | NoSpendingChange | SpendingNotFound | InvalidSpendingWindow | InvalidReportMonth

export const NO_SPENDING_CHANGE_MESSAGE = "Provide amountKobo, category, description or date"

export const spendingErrors = {
  InvalidSpending: (e) => validationError(e.fieldErrors),
  // about the request as a whole: a formError
  NoSpendingChange: () => ({
    status: 400 as const,
    code: "VALIDATION_ERROR" as const,
    message: VALIDATION_MESSAGE,
    detail: validationDetail({}, [NO_SPENDING_CHANGE_MESSAGE])
  }),
  InvalidSpendingWindow: (e) => validationError({ [e.field]: [e.reason] }),
  InvalidReportMonth: (e) => validationError({ month: [e.reason] }),
  SpendingNotFound: () => ({ status: 404, code: "SPENDING_NOT_FOUND", message: "Spending not found" })
} satisfies ErrorTable<SpendingError>

/** The codes of spendingErrors, with their meaning (published in the catalogue). */
export const spendingCodes = {
  SPENDING_NOT_FOUND: { status: 404, meaning: "No spending of the customer has this id" }
} satisfies Catalogue<typeof spendingErrors>
