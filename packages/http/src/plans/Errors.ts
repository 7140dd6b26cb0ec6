/** The failures of plans, Borrow and Extra Cash, over HTTP. */
import type {
  BorrowNotEligible,
  ExtraCashNotAllowed,
  InvalidPlanTerms,
  PayoutInProgress,
  PlanNotActive,
  PlanNotFound
} from "@app/domain"
import { type ErrorTable, validationError } from "../shared/ErrorTable.js"

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
