/** The sandbox bank's account operations: opening, details, history, PND, liens, freeze. */
import type { AccountDetails, LienRequest, OpenAccountRequest, WireTransaction } from "@app/adapters/corebanking/Wire"
import { accountNumberFor } from "../TestData.js"
import { badRequest, blank, blankReference, duplicate, invalidAccount, notFound, notPermitted, ok, type Outcome, positive } from "./Answers.js"
import { accountData, type BankRules, type BankState, commit, num } from "./Store.js"

// -------------------------------------------------------------------------------------------------
// Accounts
// -------------------------------------------------------------------------------------------------

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** Opens an account (PND active) once per customerReference; the same reference answers the same account. */
export const openAccount = (state: BankState, req: typeof OpenAccountRequest.Type): Outcome => {
  const invalid = blankReference("customerReference", req.customerReference) ?? blank("firstName", req.firstName) ??
    blank("lastName", req.lastName) ?? blank("phone", req.phone) ?? blank("email", req.email) ??
    (DATE.test(req.dateOfBirth) ? undefined : badRequest("dateOfBirth must be YYYY-MM-DD"))
  if (invalid !== undefined) return invalid
  const existing = state.byCustomerReference.get(req.customerReference)
  if (existing !== undefined) return ok(accountData(state.accounts.get(existing)!))
  const accountNumber = accountNumberFor(state.accountSerial + 1n)
  commit(state, {
    e: "open",
    n: accountNumber,
    ref: req.customerReference,
    fn: req.firstName.trim(),
    ln: req.lastName.trim(),
    on: req.otherNames?.trim() ? req.otherNames.trim() : null,
    ph: req.phone.trim(),
    em: req.email.trim(),
    dob: req.dateOfBirth,
    g: req.gender
  })
  return ok(accountData(state.accounts.get(accountNumber)!))
}

export const accountByReference = (state: BankState, reference: string): Outcome => {
  const accountNumber = state.byCustomerReference.get(reference)
  return accountNumber === undefined
    ? notFound(`no account with customer reference ${reference}`)
    : ok(accountData(state.accounts.get(accountNumber)!))
}

export const accountDetails = (state: BankState, accountNumber: string): Outcome => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  const liens: Array<{ reference: string; amount: number }> = []
  for (const [reference, lien] of account.liens) if (!lien.removed) liens.push({ reference, amount: num(lien.amount) })
  const details: typeof AccountDetails.Type = {
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    ledgerBalance: num(account.balance),
    withdrawableBalance: num(account.balance - account.liened),
    pndActive: account.pndActive,
    frozen: account.frozen,
    liens
  }
  return ok(details)
}

/** Postings of an account, newest first. */
export const transactions = (state: BankState, accountNumber: string): Outcome => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  const list: Array<typeof WireTransaction.Type> = []
  for (let i = account.postings.length - 1; i >= 0; i--) {
    const p = account.postings[i]!
    list.push({
      reference: p.reference,
      type: p.type,
      amount: num(p.amount),
      narration: p.narration,
      postedAt: new Date(p.postedAt).toISOString(),
      channel: p.channel,
      counterpartyName: p.counterpartyName,
      counterpartyAccountNumber: p.counterpartyAccountNumber,
      counterpartyBankCode: p.counterpartyBankCode
    })
  }
  return ok({ transactions: list })
}

export const setPnd = (state: BankState, accountNumber: string, active: boolean): Outcome => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  if (account.pndActive !== active) commit(state, { e: "pnd", n: accountNumber, on: active })
  return ok()
}

/**
 * A lien by reference (per account). Placing the same reference with the same amount again is a
 * no-op ("00"), or "94" when repeats are rejected; reusing it with another amount, or after it was
 * removed, is "94". A lien may exceed the balance (the withdrawable balance is then negative).
 */
export const placeLien = (state: BankState, accountNumber: string, req: typeof LienRequest.Type, rules: BankRules): Outcome => {
  const amount = positive(req.amount)
  if (typeof amount !== "bigint") return amount
  const invalid = blankReference("reference", req.reference)
  if (invalid !== undefined) return invalid
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  const lien = account.liens.get(req.reference)
  if (lien !== undefined) {
    const same = !lien.removed && lien.amount === amount
    return same && rules.duplicateReferences === "first-outcome" ? ok() : duplicate(req.reference, same)
  }
  commit(state, { e: "lien", n: accountNumber, ref: req.reference, amt: String(amount), why: req.reason })
  return ok()
}

/** Removing an unknown lien is "25"; removing an already removed one is a no-op ("00"). */
export const removeLien = (state: BankState, accountNumber: string, reference: string): Outcome => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  const lien = account.liens.get(reference)
  if (lien === undefined) return notFound(`no lien ${reference} on ${accountNumber}`)
  if (!lien.removed) commit(state, { e: "unlien", n: accountNumber, ref: reference })
  return ok()
}

/**
 * Freezing a frozen account answers its current freezeReference (a retry does not stack freezes);
 * `requested` is the reference the client chose (BankOne's ReferenceID), else the bank makes one.
 * Unfreezing needs that reference ("57" otherwise); repeating the unfreeze that lifted it is "00".
 */
export const freeze = (state: BankState, accountNumber: string, reason: string, requested?: string): Outcome => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  if (account.frozen && account.freezeReference !== null) return ok({ freezeReference: account.freezeReference })
  // BankOne's dialect: the client names the freeze (its ReferenceID), and unfreezing quotes it
  const freezeReference = requested ?? `FRZ${String(state.referenceSerial + 1n).padStart(9, "0")}`
  commit(state, { e: "freeze", n: accountNumber, fref: freezeReference, why: reason })
  return ok({ freezeReference })
}

export const unfreeze = (state: BankState, accountNumber: string, freezeReference: string): Outcome => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) return invalidAccount(accountNumber)
  if (account.freezeReference !== freezeReference) {
    return notPermitted(
      account.frozen ? "Freeze reference does not match the account's freeze" : "Account is not frozen under this reference"
    )
  }
  if (account.frozen) commit(state, { e: "unfreeze", n: accountNumber })
  return ok()
}
