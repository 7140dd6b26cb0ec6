/**
 * References: a debit, credit or transfer reference is applied once and answers its first outcome.
 * An operation looks its reference up first (`seen`); when it is new, the operation's event claims
 * it (`Store.apply` refuses a reference twice). Looking up and committing happen in one synchronous
 * step, so a concurrent duplicate always sees the first one's stored answer. How a repeat is
 * answered is a `BankRules` option.
 */
import type { DuplicateReferences } from "../Settings.js"
import { duplicate, type Outcome } from "./Answers.js"
import type { BankState, Operation } from "./Store.js"

export interface Claim {
  readonly reference: string
  readonly kind: Operation["kind"]
  readonly accountNumber: string | null
  readonly amount: bigint
  readonly destinationAccountNumber?: string
  readonly destinationBankCode?: string
}

export const outcomeOf = (op: Operation): Outcome =>
  op.code === "00" || op.code === "09"
    ? { code: op.code, message: op.message, data: {} }
    : { code: op.code, message: op.message }

export const sameRequest = (op: Operation, claim: Claim): boolean =>
  op.kind === claim.kind &&
  op.accountNumber === claim.accountNumber &&
  op.amount === claim.amount &&
  op.destinationAccountNumber === (claim.destinationAccountNumber ?? null) &&
  op.destinationBankCode === (claim.destinationBankCode ?? null)

/**
 * The answer to a reference already used, or undefined when it is new. A reference reused for a
 * different request answers "94" and changes nothing; so does any repeat when `duplicates` is
 * "reject". Otherwise a repeat answers the first outcome.
 */
export const seen = (state: BankState, claim: Claim, duplicates: DuplicateReferences): Outcome | undefined => {
  const op = state.operations.get(claim.reference)
  if (op === undefined) return undefined
  const same = sameRequest(op, claim)
  return same && duplicates === "first-outcome" ? outcomeOf(op) : duplicate(claim.reference, same)
}
