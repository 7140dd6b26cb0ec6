/**
 * The user profile of web clients (GET/PATCH /users/profile, cookie-authenticated): a display name
 * and a WhatsApp number the customer may change freely. Neither touches the legal names and the
 * verified phone that KYC set: `name` is a display name (first and last name until one is chosen),
 * `whatsappNumber` a contact number of its own.
 */
import { Effect } from "effect"
import type { Account, AccountWithCustomer } from "./Model.js"
import { AccountRepo } from "./Ports.js"
import { requireAccount } from "./Accounts.js"
import { now } from "../shared/UseCase.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

export interface UserProfile {
  readonly id: string
  readonly name: string
  readonly email: string
  readonly whatsappNumber: string | null
  /** staff use the back office's own sign-in: a customer profile is never an admin */
  readonly isAdmin: boolean
  readonly createdAt: Date
}

/** The display name: the chosen one, else first and last name, else the email's local part. */
export const displayNameOf = (account: Account): string =>
  account.displayName ??
    ([account.firstName, account.lastName].filter((n) => n !== null && n !== "").join(" ") || account.email.split("@")[0]!)

export const userProfileOf = ({ account }: AccountWithCustomer): UserProfile => ({
  id: account.id,
  name: displayNameOf(account),
  email: account.email,
  whatsappNumber: account.whatsappNumber,
  isAdmin: false,
  createdAt: account.createdAt
})

export const getUserProfile = (accountId: AccountId) => Effect.map(requireAccount(accountId), userProfileOf)

/** `PATCH /users/profile`: the fields given (a null whatsappNumber clears it); answers the profile. */
export const updateUserProfile = (
  accountId: AccountId,
  patch: { readonly name?: string | undefined; readonly whatsappNumber?: string | null | undefined }
) =>
  Effect.gen(function*() {
    yield* requireAccount(accountId)
    if (patch.name !== undefined || patch.whatsappNumber !== undefined) {
      yield* (yield* AccountRepo).setProfile(accountId, { displayName: patch.name, whatsappNumber: patch.whatsappNumber }, yield* now)
    }
    return yield* getUserProfile(accountId)
  }).pipe(withSpan("Accounts.updateUserProfile"))
