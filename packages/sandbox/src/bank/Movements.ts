/**
 * Money movement at the sandbox bank, and its reference data (BVN). Money: customer balances +
 * settlement + paidOut = deposits, always.
 *  - deposit: outside world → customer (deposits grows)
 *  - debit: customer → settlement;  credit: settlement → customer
 *  - transfer: settlement → paidOut; a transfer that fails after being pending: paidOut → settlement
 * The settlement account never goes negative: a credit or transfer it cannot cover is refused "51".
 * Each operation decides and commits its event synchronously (see `Store`).
 */
import type { BvnData, DepositNotification, NameEnquiryData, PostingRequest, StatusData, TransferRequest } from "@app/adapters/corebanking/Wire"
import { destinationBehaviour, genericAccountName, isBvnShaped, isReachableDestination, lookupBvn, newSessionId, SANDBOX_BANK } from "../TestData.js"
import {
  badRequest,
  blankReference,
  describeMs,
  insufficientFunds,
  invalidAccount,
  notFound,
  notPermitted,
  ok,
  type Outcome,
  pending,
  positive,
  systemMalfunction
} from "./Answers.js"
import { seen } from "./Claims.js"
import { type BankRules, type BankState, commit, type Event, num } from "./Store.js"

// -------------------------------------------------------------------------------------------------
// Money movement
// -------------------------------------------------------------------------------------------------

type Refusal = Extract<Event, { e: "refused" }>

/** Stores a refusal under its reference (a repeat answers it again; a requery says Failed) and answers it. */
const refuse = (state: BankState, event: Omit<Refusal, "e" | "code" | "msg">, outcome: Outcome): Outcome => {
  commit(state, { e: "refused", ...event, code: outcome.code, msg: outcome.message })
  return outcome
}

/**
 * A customer debit (customer → settlement) or credit (settlement → customer), once per
 * retrievalReference. Debits: "07" unknown account, "57" PND active or frozen, "51" above
 * balance − liens. Credits: "07" unknown account, "51" when settlement cannot cover (never
 * negative). Refusals are stored too: the reference answers them again and requeries say Failed.
 */
export const posting = (state: BankState, kind: "debit" | "credit", req: typeof PostingRequest.Type, rules: BankRules): Outcome => {
  const amount = positive(req.amount)
  if (typeof amount !== "bigint") return amount
  const reference = req.retrievalReference
  const invalid = blankReference("retrievalReference", reference)
  if (invalid !== undefined) return invalid
  const repeat = seen(state, { reference, kind, accountNumber: req.accountNumber, amount }, rules.duplicateReferences)
  if (repeat !== undefined) return repeat
  const refusal = { k: kind, ref: reference, n: req.accountNumber, amt: String(amount), da: null, db: null }
  const account = state.accounts.get(req.accountNumber)
  if (account === undefined) return refuse(state, refusal, invalidAccount(req.accountNumber))
  if (kind === "debit") {
    if (account.frozen) return refuse(state, refusal, notPermitted("Account is frozen"))
    if (account.pndActive) return refuse(state, refusal, notPermitted("Post no debit is active"))
    if (amount > account.balance - account.liened) {
      return refuse(
        state,
        refusal,
        insufficientFunds(account.liened > 0n ? "Insufficient funds (balance less liens)" : "Insufficient funds")
      )
    }
  } else if (reversesRefusingTransfer(state, reference)) {
    return refuse(state, refusal, notPermitted("Reversal refused: the transfer it reverses is under review"))
  } else if (state.settlement < amount) {
    return refuse(state, refusal, insufficientFunds("Settlement account cannot cover the credit"))
  }
  commit(state, { e: kind, ref: reference, n: req.accountNumber, amt: String(amount), narr: req.narration, at: Date.now() })
  return ok()
}

/**
 * Test data (0007): a credit reversing a failed transfer to a destination ending 0007 is refused.
 * The service's references of one movement differ only in their first letter (T… the transfer,
 * R… its reversal), so the transfer is the reference with "T" in place of the first letter.
 */
const reversesRefusingTransfer = (state: BankState, creditReference: string): boolean => {
  if (creditReference.length < 2) return false
  const transfer = state.operations.get(`T${creditReference.slice(1)}`)
  return transfer !== undefined && transfer.kind === "transfer" && transfer.status === "Failed" &&
    destinationBehaviour(transfer.destinationAccountNumber ?? "") === "failsAndRefusesReversal"
}

/** Name-enquiry sessions older than this are forgotten (the longest TTL the configuration allows is 24 h). */
export const SESSION_RETENTION_MS = 48 * 60 * 60 * 1000

/** Forgets sessions too old to be quoted by any configuration (they are oldest first). */
export const pruneSessions = (state: BankState, now: number) => {
  for (const [id, session] of state.sessions) {
    if (session.at >= now - SESSION_RETENTION_MS) break
    state.sessions.delete(id)
  }
}

export const nameEnquiry = (state: BankState, accountNumber: string, bankCode: string): Outcome => {
  if (!isReachableDestination(accountNumber, bankCode)) return invalidAccount(accountNumber)
  // our own customers answer with their real name
  const own = bankCode === SANDBOX_BANK.code ? state.accounts.get(accountNumber) : undefined
  const accountName = own?.accountName ?? genericAccountName(accountNumber)
  const now = Date.now()
  if (++state.enquiriesSincePrune >= 1024) {
    state.enquiriesSincePrune = 0
    pruneSessions(state, now)
  }
  const sessionId = newSessionId(new Date(now))
  commit(state, { e: "session", sid: sessionId, n: accountNumber, b: bankCode, name: accountName, at: now })
  const data: typeof NameEnquiryData.Type = { accountName, accountNumber, bankCode, sessionId }
  return ok(data)
}

/**
 * An outbound NIP transfer out of the settlement account, once per transactionReference. It must
 * quote the session id of a name enquiry of the same destination, made at most
 * `nameEnquirySessionTtlMs` ago ("26" otherwise, nothing stored: the reference stays usable).
 * Destination behaviours: see `destinationBehaviour`. "51" when settlement cannot cover it. Returns
 * the outcome and whether the answer must be held back (0004).
 */
export const transfer = (
  state: BankState,
  req: typeof TransferRequest.Type,
  rules: BankRules
): { readonly outcome: Outcome; readonly slow: boolean } => {
  const behaviour = destinationBehaviour(req.destinationAccountNumber)
  const slow = behaviour === "slowSuccess"
  const amount = positive(req.amount)
  // a malformed request ("26") is answered at once, whatever the destination
  if (typeof amount !== "bigint") return { outcome: amount, slow: false }
  const reference = req.transactionReference
  const invalid = blankReference("transactionReference", reference)
  if (invalid !== undefined) return { outcome: invalid, slow: false }
  const repeat = seen(state, {
    reference,
    kind: "transfer",
    accountNumber: null,
    amount,
    destinationAccountNumber: req.destinationAccountNumber,
    destinationBankCode: req.destinationBankCode
  }, rules.duplicateReferences)
  if (repeat !== undefined) return { outcome: repeat, slow }
  const session = state.sessions.get(req.nameEnquirySessionId)
  if (
    session === undefined || session.accountNumber !== req.destinationAccountNumber ||
    session.bankCode !== req.destinationBankCode
  ) {
    // a malformed request is not a transaction: nothing is stored
    return {
      outcome: badRequest("nameEnquirySessionId does not belong to a name enquiry of this destination account and bank"),
      slow: false
    }
  }
  if (session.at < Date.now() - rules.nameEnquirySessionTtlMs) {
    return {
      outcome: badRequest(
        `nameEnquirySessionId expired: the name enquiry is older than ${describeMs(rules.nameEnquirySessionTtlMs)}; make a new one`
      ),
      slow: false
    }
  }
  const refusal = {
    k: "transfer" as const,
    ref: reference,
    n: null,
    amt: String(amount),
    da: req.destinationAccountNumber,
    db: req.destinationBankCode
  }
  if (!isReachableDestination(req.destinationAccountNumber, req.destinationBankCode)) {
    return { outcome: refuse(state, refusal, invalidAccount(req.destinationAccountNumber)), slow }
  }
  if (behaviour === "failsAtOnce" || behaviour === "failsAndRefusesReversal") {
    return { outcome: refuse(state, refusal, notPermitted("Beneficiary bank declined the transfer")), slow }
  }
  if (state.settlement < amount) {
    return { outcome: refuse(state, refusal, insufficientFunds("Settlement account cannot cover the transfer")), slow }
  }
  const outcome = behaviour === "pendingThenSuccessful" || behaviour === "pendingThenFailed"
    ? pending()
    : behaviour === "malfunctionAfterSuccess"
    ? systemMalfunction()
    : ok()
  commit(state, {
    e: "transfer",
    ref: reference,
    amt: String(amount),
    da: req.destinationAccountNumber,
    db: req.destinationBankCode,
    st: outcome.code === "09" ? "Pending" : "Successful",
    code: outcome.code,
    msg: outcome.message
  })
  return { outcome, slow }
}

/**
 * The status of any reference (debit, credit, transfer, deposit); "25" when unknown. A pending
 * transfer advances here: 0002 answers Successful from its 2nd requery on; 0005 answers Pending
 * three times, then Failed, and its money returns to the settlement account.
 */
export const requery = (state: BankState, reference: string): Outcome => {
  const op = state.operations.get(reference)
  if (op === undefined) return notFound(`no transaction with reference ${reference}`)
  if (op.kind === "transfer" && op.status === "Pending") commit(state, { e: "requery", ref: reference })
  return ok({ status: op.status } satisfies typeof StatusData.Type)
}

/**
 * A test deposit: credits the account as an inbound NIP transfer from `DEPOSITOR` would
 * (deposits grows). Returns the outcome and, when applied, the notification for the webhook.
 */
export const deposit = (
  state: BankState,
  accountNumber: string,
  amountKobo: number
): { readonly outcome: Outcome; readonly notification: typeof DepositNotification.Type | undefined } => {
  const amount = positive(amountKobo)
  if (typeof amount !== "bigint") return { outcome: amount, notification: undefined }
  if (!state.accounts.has(accountNumber)) return { outcome: invalidAccount(accountNumber), notification: undefined }
  const reference = `NIP${String(state.referenceSerial + 1n).padStart(9, "0")}`
  const at = Date.now()
  commit(state, { e: "deposit", ref: reference, n: accountNumber, amt: String(amount), at })
  return {
    outcome: ok({ reference }),
    notification: {
      event: "transaction.posted",
      accountNumber,
      reference,
      type: "C",
      amount: num(amount),
      postedAt: new Date(at).toISOString()
    }
  }
}

// -------------------------------------------------------------------------------------------------
// Reference data
// -------------------------------------------------------------------------------------------------

export const bvn = (value: string): Outcome => {
  if (!isBvnShaped(value)) return badRequest("a BVN is 11 digits")
  const entry = lookupBvn(value)
  if (entry === undefined) return notFound("BVN not found")
  const data: typeof BvnData.Type = entry
  return ok(data)
}
