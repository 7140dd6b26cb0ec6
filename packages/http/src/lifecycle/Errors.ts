/** The failures close-account and delete-account answer in their own words. */
import { Failure } from "@app/domain"

/**
 * close-account's answer to a code the OTP gate refused (invalid, expired or spent): the spec's row
 * for close-account lists "OTP invalid or expired" under 400, where every other OTP-gated operation
 * (delete-account included) answers 401 `OTP_INVALID`. The handler turns the gate's
 * `OtpGateRejected` into this one; a code keeps one status, so it has its own code.
 */
export class CloseOtpRejected extends Failure("CloseOtpRejected", {
  status: 400,
  code: "CLOSE_OTP_INVALID",
  message: "Invalid or expired OTP",
  meaning:
    "close-account's otpPinId/otpCode is invalid, expired or already spent (the spec answers 400 there; every other OTP-gated operation answers 401 `OTP_INVALID`); request a new code"
}) {}

/**
 * close-account's and delete-account's answer while a movement of the customer is not final (a
 * transfer the bank answered "pending" included): the spec's "a transaction in progress". The
 * domain's `MovementInFlight` is the same refusal; these two endpoints name it for what it means
 * here, since waiting is the customer's only way forward.
 */
export class TransactionInProgress extends Failure("TransactionInProgress", {
  status: 400,
  code: "TRANSACTION_IN_PROGRESS",
  message: "A transaction is in progress. Please wait for it to finish.",
  meaning:
    "close-account or delete-account while a movement of the customer is not final (pending at the bank included); retry once it settles"
}) {}
