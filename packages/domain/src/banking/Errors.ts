/**
 * Failures of BVN verification, opening the bank account and deposits.
 */
import { Data } from "effect"

/** The customer's KYC is past `pending`: a BVN is already verified (400). */
export class BvnAlreadyVerified extends Data.TaggedError("BvnAlreadyVerified")<{}> {}
/** Another customer holds this BVN (400 'BVN already associated with another account'). */
export class BvnTaken extends Data.TaggedError("BvnTaken")<{}> {}
/** The BVN registry does not know the number (400). */
export class BvnNotFound extends Data.TaggedError("BvnNotFound")<{}> {}
/** The date of birth given differs from the registry's (400). */
export class BvnDateOfBirthMismatch extends Data.TaggedError("BvnDateOfBirthMismatch")<{}> {}
/** The first and last name given do not match the registry's (NameMatch.ts) (400). */
export class BvnNameMismatch extends Data.TaggedError("BvnNameMismatch")<{}> {}
/** Opening a bank account needs customerStatus `verified` (email confirmed, not suspended/closed). */
export class CustomerNotVerified extends Data.TaggedError("CustomerNotVerified")<{
  readonly customerStatus: string
}> {}
/** Opening a bank account needs kycStatus `bvn_verified`. */
export class BvnNotVerified extends Data.TaggedError("BvnNotVerified")<{}> {}
/** The customer already has a bank account (400). */
export class BankAccountExists extends Data.TaggedError("BankAccountExists")<{ readonly accountNumber: string }> {}
/** The operation needs a bank account and the customer has none (400 'No bank account found'). */
export class NoBankAccount extends Data.TaggedError("NoBankAccount")<{}> {}
/** A provider notification named an account number that belongs to no customer. */
export class UnknownAccountNumber extends Data.TaggedError("UnknownAccountNumber")<{ readonly accountNumber: string }> {}
/** An amount outside what the operation allows (e.g. a test deposit above the maximum). */
export class InvalidAmount extends Data.TaggedError("InvalidAmount")<{ readonly reason: string }> {}
