/** The failures about the account itself, over HTTP. */
import type { AccountNotActive, AccountNotFound, AccountSuspended } from "@app/domain"
import type { ErrorTable } from "../shared/ErrorTable.js"

export type AccountError = AccountNotFound | AccountSuspended | AccountNotActive

export const accountErrors = {
  AccountNotFound: () => ({ status: 400, code: "ACCOUNT_NOT_FOUND", message: "Account not found" }),
  AccountSuspended: () => ({ status: 403, code: "ACCOUNT_SUSPENDED", message: "Account suspended" }),
  AccountNotActive: (e) => ({
    status: 400,
    code: "ACCOUNT_NOT_ACTIVE",
    message: "Your account is not active",
    detail: { customerStatus: e.customerStatus }
  })
} satisfies ErrorTable<AccountError>
