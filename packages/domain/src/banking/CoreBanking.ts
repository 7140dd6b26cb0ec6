/**
 * The core banking provider: the partner bank that holds customers' money. Everything about money
 * goes through this one port. Its failures tell apart:
 *  - ProviderRefused: a definite "no" with the provider's code and reason (nothing happened);
 *  - ProviderUnknownOutcome: the request may or may not have been applied (timeout, connection
 *    reset, 5xx after sending). NEVER treat this as a failure: learn the outcome with `requery`
 *    (or `findAccountByReference`) using the same reference;
 *  - ProviderMisconfigured: credentials or URL are wrong; an operator must act.
 *
 * References (account-opening, debit/credit retrieval references, transfer references) are at most
 * 12 characters and are derived from our own ids, so a repeated call is deduplicated by the
 * provider and returns the first outcome.
 */
import { Context, type Effect, type Option } from "effect"
import type { Kobo } from "../shared/Money.js"
import { Failure } from "../shared/Failure.js"

/**
 * The provider's failures answer the spec's 500 with a descriptive message. An unknown outcome is
 * not a failure of the operation: the client may retry safely (references are deduplicated).
 */
export class ProviderRefused extends Failure("ProviderRefused", {
  status: 500,
  code: "PROVIDER_REFUSED",
  meaning: "The bank refused the request (`error.providerCode`)"
})<{
  readonly operation: string
  /** provider response code, e.g. "51" insufficient funds, "57" not permitted, "07" invalid account */
  readonly code: string
  readonly reason: string
}> {
  override answer() {
    return { ...super.answer(), message: `The bank refused the request: ${this.reason}`, detail: { providerCode: this.code } }
  }
}

export class ProviderUnknownOutcome extends Failure("ProviderUnknownOutcome", {
  status: 500,
  code: "PROVIDER_UNKNOWN_OUTCOME",
  message: "The bank did not confirm the request in time. Please try again shortly; it will not be applied twice.",
  meaning: "The bank gave no answer in time; retrying is safe (never applied twice)"
})<{
  readonly operation: string
  readonly detail: string
}> {}

export class ProviderMisconfigured extends Failure("ProviderMisconfigured", {
  status: 500,
  code: "PROVIDER_UNAVAILABLE",
  message: "The bank is unavailable right now. Please try again later.",
  meaning: "The bank cannot be used right now; retry later"
})<{
  readonly operation: string
  readonly detail: string
}> {}

export type CoreBankingError = ProviderRefused | ProviderUnknownOutcome | ProviderMisconfigured

/** Well-known provider response codes (NIBSS/NIP style). */
export const ResponseCodes = {
  success: "00",
  invalidAccount: "07",
  insufficientFunds: "51",
  notPermitted: "57",
  notFound: "25",
  /** answers that mean "not final yet: requery later" */
  pending: ["01", "09", "91", "97"] as ReadonlyArray<string>
} as const

export const MAX_REFERENCE_LENGTH = 12

/**
 * Opening an account sends the identity the BVN registry confirmed, not the BVN itself: the service
 * keeps only a keyed hash of the BVN, so the number leaves our hands once, at the registry lookup.
 */
export interface OpenAccountInput {
  /** our reference for this customer's account (≤ 12 chars); the same reference never opens a second account */
  readonly reference: string
  readonly firstName: string
  readonly lastName: string
  readonly otherNames: string | null
  readonly phone: string
  readonly email: string
  readonly dateOfBirth: string
  readonly gender: "male" | "female" | null
}

export interface ProviderAccount {
  readonly accountNumber: string
  readonly accountName: string
}

export interface Lien {
  readonly reference: string
  readonly amountKobo: Kobo
}

export interface AccountSnapshot {
  readonly accountNumber: string
  readonly accountName: string
  readonly ledgerBalanceKobo: Kobo
  /** ledger minus liens: what a debit may take */
  readonly withdrawableBalanceKobo: Kobo
  readonly pndActive: boolean
  readonly frozen: boolean
  readonly liens: ReadonlyArray<Lien>
}

export interface ProviderTransaction {
  /** the provider's unique reference of the posting */
  readonly reference: string
  readonly direction: "credit" | "debit"
  readonly amountKobo: Kobo
  readonly narration: string
  readonly postedAt: Date
  /** how it was posted: an inbound interbank transfer, a core debit/credit, an outbound transfer */
  readonly channel: "nip_inbound" | "core_debit" | "core_credit" | "nip_outbound"
  readonly counterpartyName: string | null
  readonly counterpartyAccountNumber: string | null
  readonly counterpartyBankCode: string | null
}

export interface PostingInput {
  readonly accountNumber: string
  readonly amountKobo: Kobo
  /** retrieval reference, ≤ 12 chars */
  readonly reference: string
  readonly narration: string
}

export interface TransferInput {
  /** transaction reference, ≤ 12 chars */
  readonly reference: string
  readonly amountKobo: Kobo
  readonly destinationAccountNumber: string
  readonly destinationBankCode: string
  readonly destinationAccountName: string
  readonly nameEnquirySessionId: string
  readonly narration: string
}

export type TransferStatus = "successful" | "pending"

/** What a requery learns about a reference. */
export type RequeryStatus = "successful" | "failed" | "pending" | "reversed" | "not_found"

export interface BvnRecord {
  readonly firstName: string
  readonly lastName: string
  readonly phone: string
  readonly dateOfBirth: string
}

export interface Bank {
  /** NIP institution code, e.g. 000013 for GTBank */
  readonly bankCode: string
  readonly bankName: string
}

export interface NameEnquiryResult {
  readonly accountName: string
  readonly sessionId: string
}

type Op<A> = Effect.Effect<A, CoreBankingError>

export class CoreBanking extends Context.Tag("domain/CoreBanking")<CoreBanking, {
  readonly openAccount: (input: OpenAccountInput) => Op<ProviderAccount>
  readonly findAccountByReference: (reference: string) => Op<Option.Option<ProviderAccount>>
  readonly account: (accountNumber: string) => Op<AccountSnapshot>
  readonly history: (accountNumber: string) => Op<ReadonlyArray<ProviderTransaction>>
  readonly activatePnd: (accountNumber: string) => Op<void>
  readonly deactivatePnd: (accountNumber: string) => Op<void>
  readonly placeLien: (input: { accountNumber: string; reference: string; amountKobo: Kobo }) => Op<void>
  readonly removeLien: (input: { accountNumber: string; reference: string }) => Op<void>
  readonly freeze: (input: { accountNumber: string; reason: string }) => Op<{ freezeReference: string }>
  readonly unfreeze: (input: { accountNumber: string; freezeReference: string }) => Op<void>
  readonly debit: (input: PostingInput) => Op<void>
  readonly credit: (input: PostingInput) => Op<void>
  /** ProviderRefused with code "07" when the account does not exist */
  readonly nameEnquiry: (input: { accountNumber: string; bankCode: string }) => Op<NameEnquiryResult>
  readonly transfer: (input: TransferInput) => Op<TransferStatus>
  readonly requery: (reference: string) => Op<RequeryStatus>
  readonly bvnLookup: (bvn: string) => Op<Option.Option<BvnRecord>>
  readonly banks: Op<ReadonlyArray<Bank>>
}>() {}

/**
 * Test funding: credits an account as an inbound interbank transfer would (the sandbox's
 * `POST /sandbox/deposits`). Only the development test-deposit endpoint uses it.
 */
export class TestFunding extends Context.Tag("domain/TestFunding")<TestFunding, {
  readonly deposit: (input: { accountNumber: string; amountKobo: Kobo }) => Op<void>
}>() {}

/**
 * A provider reference (at most 12 characters) derived from one of our ids (UUIDs): a one-letter
 * prefix naming the kind (e.g. "A" account, "D" debit) followed by the id's 122 random bits written
 * in base 36, 12 characters in all (11 base-36 digits: about 57 bits). The same id always gives the
 * same reference, which is what lets the provider deduplicate a repeated call; the chance that two
 * of a million ids share a reference is about 3.5 in a million.
 */
export const referenceFor = (prefix: string, id: string): string => {
  const hex = id.replace(/-/g, "")
  // drop the version and variant nibbles: they are the same in every v4 UUID
  const random = BigInt(`0x${hex.slice(0, 12)}${hex.slice(13, 16)}${hex.slice(17)}`)
  return (prefix + random.toString(36).toUpperCase().padStart(MAX_REFERENCE_LENGTH, "0").slice(-(MAX_REFERENCE_LENGTH - prefix.length)))
    .slice(0, MAX_REFERENCE_LENGTH)
}
