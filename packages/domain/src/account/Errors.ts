/**
 * Failures about the account itself: missing, suspended, not active.
 */
import { Failure } from "../shared/Failure.js"

export class AccountNotFound extends Failure("AccountNotFound", {
  status: 400,
  code: "ACCOUNT_NOT_FOUND",
  message: "Account not found",
  meaning: "The signed-in account no longer exists"
}) {}
export class AccountSuspended extends Failure("AccountSuspended", {
  status: 403,
  code: "ACCOUNT_SUSPENDED",
  message: "Account suspended",
  meaning: "The account is suspended (frozen by staff or after repeated PIN lockouts); contact support"
}) {}
/** The customer is not active (closed, or not yet provisioned). */
export class AccountNotActive extends Failure("AccountNotActive", {
  status: 400,
  code: "ACCOUNT_NOT_ACTIVE",
  message: "Your account is not active",
  meaning: "The operation needs an active account; `error.customerStatus` gives its state"
})<{ readonly customerStatus: string }> {
  override answer() {
    return { ...super.answer(), detail: { customerStatus: this.customerStatus } }
  }
}
