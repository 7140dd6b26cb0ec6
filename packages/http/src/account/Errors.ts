/** The failures about the account itself, over HTTP. */
import type { AccountNotActive, AccountNotFound, AccountSuspended } from "@app/domain"
import type { Catalogue, ErrorTable } from "../shared/ErrorTable.js"

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

/** The codes of accountErrors, with their meaning (published in the catalogue). */
export const accountCodes = {
  ACCOUNT_NOT_FOUND: { status: 400, meaning: "The signed-in account no longer exists" },
  ACCOUNT_SUSPENDED: { status: 403, meaning: "The account is suspended (frozen by staff or after repeated PIN lockouts); contact support" },
  ACCOUNT_NOT_ACTIVE: { status: 400, meaning: "The operation needs an active account; `error.customerStatus` gives its state" }
} satisfies Catalogue<typeof accountErrors>
