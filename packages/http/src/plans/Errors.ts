/** The failures of plans, Borrow and Extra Cash, over HTTP. */
import type {
  BorrowNotEligible,
  ExtraCashNotAllowed,
  InvalidPlanTerms,
  PayoutInProgress,
  PlanNotActive,
  PlanNotFound
} from "@app/domain"
import { type Catalogue, type ErrorTable, validationError } from "../shared/ErrorTable.js"

export type PlanError =
  | PlanNotFound
  | InvalidPlanTerms
  | PlanNotActive
  | PayoutInProgress
  | BorrowNotEligible
  | ExtraCashNotAllowed

export const planErrors = {
  PlanNotFound: () => ({ status: 404, code: "PLAN_NOT_FOUND", message: "No disbursement plan found" }),
  InvalidPlanTerms: (e) => validationError(e.fieldErrors),
  PlanNotActive: () => ({ status: 400, code: "PLAN_NOT_ACTIVE", message: "No active disbursement plan" }),
  PayoutInProgress: () => ({ status: 400, code: "PAYOUT_IN_PROGRESS", message: "A payout of your plan is in progress; try again shortly" }),
  BorrowNotEligible: (e) => ({ status: 400, code: "BORROW_NOT_ELIGIBLE", message: e.reason }),
  ExtraCashNotAllowed: (e) => ({ status: 400, code: "EXTRA_CASH_NOT_ALLOWED", message: e.reason })
} satisfies ErrorTable<PlanError>

/** The codes of planErrors, with their meaning (published in the catalogue). */
export const planCodes = {
  PLAN_NOT_FOUND: { status: 404, meaning: "The customer has no disbursement plan" },
  PLAN_NOT_ACTIVE: { status: 400, meaning: "The operation needs an active plan" },
  PAYOUT_IN_PROGRESS: { status: 400, meaning: "A payout of the plan is being made; retry shortly" },
  BORROW_NOT_ELIGIBLE: { status: 400, meaning: "Borrow is not available now; the message says why" },
  EXTRA_CASH_NOT_ALLOWED: { status: 400, meaning: "Extra Cash is not available now; the message says why" }
} satisfies Catalogue<typeof planErrors>
