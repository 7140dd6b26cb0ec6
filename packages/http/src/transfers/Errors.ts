/** The failures of money movements, over HTTP. */
import type {
  IdempotencyConflict,
  InsufficientBalance,
  MovementInFlight,
  TransferFailed,
  WithdrawalsNotAllowed
} from "@app/domain"
import type { Catalogue, ErrorTable } from "../shared/ErrorTable.js"

export type TransferError =
  | WithdrawalsNotAllowed
  | MovementInFlight
  | InsufficientBalance
  | IdempotencyConflict
  | TransferFailed

export const transferErrors = {
  WithdrawalsNotAllowed: () => ({
    status: 400,
    code: "WITHDRAWALS_NOT_ALLOWED",
    message: "Withdrawals are allowed after your first deposit is confirmed"
  }),
  MovementInFlight: () => ({
    status: 400,
    code: "MOVEMENT_IN_FLIGHT",
    message: "Another transaction is in progress. Please wait for it to finish."
  }),
  InsufficientBalance: (e) => ({
    status: 400,
    code: "INSUFFICIENT_BALANCE",
    message: "Insufficient balance",
    detail: { requiredKobo: e.requiredKobo.toString(), availableKobo: e.availableKobo.toString() }
  }),
  IdempotencyConflict: () => ({
    status: 409,
    code: "IDEMPOTENCY_CONFLICT",
    message: "This idempotencyKey was already used for a different request"
  }),
  TransferFailed: (e) => ({
    status: 400,
    code: "TRANSFER_FAILED",
    message: `Transfer failed: ${e.reason}`,
    detail: { transactionId: e.transactionId }
  })
} satisfies ErrorTable<TransferError>

/** The codes of transferErrors, with their meaning (published in the catalogue). */
export const transferCodes = {
  WITHDRAWALS_NOT_ALLOWED: { status: 400, meaning: "Money can leave only after the first deposit is confirmed" },
  MOVEMENT_IN_FLIGHT: { status: 400, meaning: "Another movement of the customer is in progress; retry when it finishes" },
  INSUFFICIENT_BALANCE: { status: 400, meaning: "The balance does not cover amount plus fee (`error.requiredKobo`, `error.availableKobo`)" },
  IDEMPOTENCY_CONFLICT: { status: 409, meaning: "The idempotencyKey was used before for a different request" },
  TRANSFER_FAILED: { status: 400, meaning: "The bank refused the transfer and it was reversed (`error.transactionId`); no money left" }
} satisfies Catalogue<typeof transferErrors>
