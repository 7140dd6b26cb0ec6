/**
 * The sandbox bank's state, on plain Maps, and the events that change it.
 *
 * Every state change is an `Event`. An operation reads the state, decides (this is where time and
 * randomness come in: a posting's time, a name enquiry's session id), and `commit`s the event: it
 * is appended to the journal (when there is one) and then applied, with no await in between, so in
 * Node's one thread an operation is atomic. `apply` is the only code that changes the state, and it
 * is a function of the state and the event alone: replaying the journal at start-up rebuilds the
 * same state. Amounts are bigint kobo, written to the journal as decimal strings.
 */
import type { AccountData, StatusData, WireTransaction } from "@app/adapters/corebanking/Wire"
import type { DuplicateReferences } from "../Settings.js"
import { DEPOSITOR, destinationBehaviour, PENDING_REQUERIES_BEFORE_FAILURE, REQUERIES_UNTIL_SUCCESS } from "../TestData.js"
import type { Journal } from "./Journal.js"

/** The sandbox's configurable rules (see `SandboxOptions`). */
export interface BankRules {
  readonly duplicateReferences: DuplicateReferences
  readonly nameEnquirySessionTtlMs: number
}

/** Kobo on the wire is a JSON number; our totals are far below 2^53 in practice, checked anyway. */
export const num = (value: bigint): number => {
  if (value > 9007199254740991n || value < -9007199254740991n) {
    throw new Error(`amount ${value} does not fit a JSON number`)
  }
  return Number(value)
}

// -------------------------------------------------------------------------------------------------
// State
// -------------------------------------------------------------------------------------------------

export type Status = typeof StatusData.Type.status

export interface Lien {
  readonly amount: bigint
  readonly reason: string
  removed: boolean
}

export interface Posting {
  readonly reference: string
  readonly type: "C" | "D"
  readonly amount: bigint
  readonly narration: string
  readonly channel: typeof WireTransaction.Type.channel
  readonly counterpartyName: string | null
  readonly counterpartyAccountNumber: string | null
  readonly counterpartyBankCode: string | null
  /** ms since the epoch */
  readonly postedAt: number
}

export interface Account {
  readonly accountNumber: string
  readonly customerReference: string
  readonly accountName: string
  readonly firstName: string
  readonly lastName: string
  readonly otherNames: string | null
  readonly phone: string
  readonly email: string
  readonly dateOfBirth: string
  readonly gender: string | null
  balance: bigint
  pndActive: boolean
  frozen: boolean
  freezeReference: string | null
  freezeReason: string | null
  /** by reference, in the order they were placed; removed ones stay (their reference is spent) */
  readonly liens: Map<string, Lien>
  /** the sum of the active liens */
  liened: bigint
  /** oldest first */
  readonly postings: Array<Posting>
}

/** A debit, credit, transfer or deposit, keyed by its reference, with its first answer. */
export interface Operation {
  readonly kind: "debit" | "credit" | "transfer" | "deposit"
  readonly accountNumber: string | null
  readonly amount: bigint
  readonly destinationAccountNumber: string | null
  readonly destinationBankCode: string | null
  status: Status
  code: string
  message: string
  /** a transfer whose money left the settlement account (and has not come back) */
  moneyOut: boolean
  requeries: number
}

export interface Session {
  readonly accountNumber: string
  readonly bankCode: string
  readonly accountName: string
  /** ms since the epoch */
  at: number
}

export class BankState {
  readonly accounts = new Map<string, Account>()
  /** customerReference → account number */
  readonly byCustomerReference = new Map<string, string>()
  readonly operations = new Map<string, Operation>()
  /** name-enquiry sessions by id, oldest first */
  readonly sessions = new Map<string, Session>()
  /** the bank's settlement account */
  settlement = 0n
  /** what left through NIP transfers */
  paidOut = 0n
  /** what came in (inbound deposits) */
  deposits = 0n
  /** the sum of the customers' balances, kept as they move (`conservation` recomputes it) */
  customers = 0n
  /** accounts opened so far (the next account number is `accountNumberFor(accountSerial + 1)`) */
  accountSerial = 0n
  /** freeze and deposit references handed out so far */
  referenceSerial = 0n
  /** events applied (replayed or committed) */
  events = 0
  /** name enquiries since old sessions were last forgotten (`Movements.pruneSessions`) */
  enquiriesSincePrune = 0

  /** where committed events are appended; undefined = memory only (and while replaying) */
  journal: Journal | undefined = undefined
}

export const accountData = (account: Account): typeof AccountData.Type => ({
  accountNumber: account.accountNumber,
  accountName: account.accountName,
  customerReference: account.customerReference
})

// -------------------------------------------------------------------------------------------------
// Events: one JSON object each (a journal line); amounts as decimal strings, times as epoch ms
// -------------------------------------------------------------------------------------------------

export type Event =
  | {
    readonly e: "open"
    readonly n: string
    readonly ref: string
    readonly fn: string
    readonly ln: string
    readonly on: string | null
    readonly ph: string
    readonly em: string
    readonly dob: string
    readonly g: string | null
  }
  | { readonly e: "pnd"; readonly n: string; readonly on: boolean }
  | { readonly e: "lien"; readonly n: string; readonly ref: string; readonly amt: string; readonly why: string }
  | { readonly e: "unlien"; readonly n: string; readonly ref: string }
  | { readonly e: "freeze"; readonly n: string; readonly fref: string; readonly why: string }
  | { readonly e: "unfreeze"; readonly n: string }
  /** an applied debit (customer → settlement) or credit (settlement → customer) */
  | { readonly e: "debit" | "credit"; readonly ref: string; readonly n: string; readonly amt: string; readonly narr: string; readonly at: number }
  /** a refused debit, credit or transfer: its reference is spent and answers this again */
  | {
    readonly e: "refused"
    readonly k: "debit" | "credit" | "transfer"
    readonly ref: string
    readonly n: string | null
    readonly amt: string
    readonly da: string | null
    readonly db: string | null
    readonly code: string
    readonly msg: string
  }
  /** a transfer whose money left the settlement account, answered `code` */
  | {
    readonly e: "transfer"
    readonly ref: string
    readonly amt: string
    readonly da: string
    readonly db: string
    readonly st: "Pending" | "Successful"
    readonly code: string
    readonly msg: string
  }
  /** a requery of a pending transfer (it may advance: see `applyRequery`) */
  | { readonly e: "requery"; readonly ref: string }
  | { readonly e: "deposit"; readonly ref: string; readonly n: string; readonly amt: string; readonly at: number }
  | { readonly e: "session"; readonly sid: string; readonly n: string; readonly b: string; readonly name: string; readonly at: number }

/** Journals the event (before anything changes), then applies it. Synchronous: no other operation runs in between. */
export const commit = (state: BankState, event: Event): void => {
  state.journal?.append(JSON.stringify(event))
  apply(state, event)
}

const accountOf = (state: BankState, accountNumber: string): Account => {
  const account = state.accounts.get(accountNumber)
  if (account === undefined) throw new Error(`no account ${accountNumber}`)
  return account
}

const move = (state: BankState, account: Account, delta: bigint) => {
  account.balance += delta
  state.customers += delta
}

const operation = (
  kind: Operation["kind"],
  accountNumber: string | null,
  amount: bigint,
  status: Status,
  code: string,
  message: string,
  destination: { readonly account: string | null; readonly bank: string | null } = { account: null, bank: null },
  moneyOut = false
): Operation => ({
  kind,
  accountNumber,
  amount,
  destinationAccountNumber: destination.account,
  destinationBankCode: destination.bank,
  status,
  code,
  message,
  moneyOut,
  requeries: 0
})

const APPROVED = "Approved or completed successfully"

const claimOnce = (state: BankState, reference: string, op: Operation) => {
  if (state.operations.has(reference)) throw new Error(`reference ${reference} applied twice`)
  state.operations.set(reference, op)
}

/** The only code that changes the state: a function of the state and the event. Throws on an event that does not fit the state. */
export const apply = (state: BankState, event: Event): void => {
  switch (event.e) {
    case "open": {
      if (state.accounts.has(event.n) || state.byCustomerReference.has(event.ref)) {
        throw new Error(`account ${event.n} (${event.ref}) opened twice`)
      }
      state.accountSerial++
      state.accounts.set(event.n, {
        accountNumber: event.n,
        customerReference: event.ref,
        accountName: [event.ln, event.fn, event.on].filter((n) => n !== null).join(" ").toUpperCase(),
        firstName: event.fn,
        lastName: event.ln,
        otherNames: event.on,
        phone: event.ph,
        email: event.em,
        dateOfBirth: event.dob,
        gender: event.g,
        balance: 0n,
        pndActive: true,
        frozen: false,
        freezeReference: null,
        freezeReason: null,
        liens: new Map(),
        liened: 0n,
        postings: []
      })
      state.byCustomerReference.set(event.ref, event.n)
      break
    }
    case "pnd":
      accountOf(state, event.n).pndActive = event.on
      break
    case "lien": {
      const account = accountOf(state, event.n)
      if (account.liens.has(event.ref)) throw new Error(`lien ${event.ref} on ${event.n} placed twice`)
      const amount = BigInt(event.amt)
      account.liens.set(event.ref, { amount, reason: event.why, removed: false })
      account.liened += amount
      break
    }
    case "unlien": {
      const account = accountOf(state, event.n)
      const lien = account.liens.get(event.ref)
      if (lien === undefined || lien.removed) throw new Error(`lien ${event.ref} on ${event.n} is not active`)
      lien.removed = true
      account.liened -= lien.amount
      break
    }
    case "freeze": {
      const account = accountOf(state, event.n)
      state.referenceSerial++
      account.frozen = true
      account.freezeReference = event.fref
      account.freezeReason = event.why
      break
    }
    case "unfreeze":
      accountOf(state, event.n).frozen = false
      break
    case "debit":
    case "credit": {
      const account = accountOf(state, event.n)
      const amount = BigInt(event.amt)
      const debit = event.e === "debit"
      claimOnce(state, event.ref, operation(event.e, event.n, amount, "Successful", "00", APPROVED))
      move(state, account, debit ? -amount : amount)
      state.settlement += debit ? amount : -amount
      account.postings.push({
        reference: event.ref,
        type: debit ? "D" : "C",
        amount,
        narration: event.narr,
        channel: debit ? "core_debit" : "core_credit",
        counterpartyName: null,
        counterpartyAccountNumber: null,
        counterpartyBankCode: null,
        postedAt: event.at
      })
      break
    }
    case "refused":
      claimOnce(
        state,
        event.ref,
        operation(event.k, event.n, BigInt(event.amt), "Failed", event.code, event.msg, { account: event.da, bank: event.db })
      )
      break
    case "transfer": {
      const amount = BigInt(event.amt)
      claimOnce(
        state,
        event.ref,
        operation("transfer", null, amount, event.st, event.code, event.msg, { account: event.da, bank: event.db }, true)
      )
      state.settlement -= amount
      state.paidOut += amount
      break
    }
    case "requery":
      applyRequery(state, event.ref)
      break
    case "deposit": {
      const account = accountOf(state, event.n)
      const amount = BigInt(event.amt)
      state.referenceSerial++
      claimOnce(state, event.ref, operation("deposit", event.n, amount, "Successful", "00", APPROVED))
      move(state, account, amount)
      state.deposits += amount
      account.postings.push({
        reference: event.ref,
        type: "C",
        amount,
        narration: `NIP transfer from ${DEPOSITOR.name}`,
        channel: "nip_inbound",
        counterpartyName: DEPOSITOR.name,
        counterpartyAccountNumber: DEPOSITOR.accountNumber,
        counterpartyBankCode: DEPOSITOR.bankCode,
        postedAt: event.at
      })
      break
    }
    case "session":
      state.sessions.set(event.sid, { accountNumber: event.n, bankCode: event.b, accountName: event.name, at: event.at })
      break
    default:
      throw new Error(`unknown event ${JSON.stringify(event)}`)
  }
  state.events++
}

/**
 * A pending transfer's requery: 0002 answers Successful from its 2nd requery on; 0005 answers
 * Pending three times, then Failed, and its money returns to the settlement account.
 */
const applyRequery = (state: BankState, reference: string) => {
  const op = state.operations.get(reference)
  if (op === undefined || op.kind !== "transfer" || op.status !== "Pending") {
    throw new Error(`requery of ${reference}: not a pending transfer`)
  }
  op.requeries++
  const behaviour = destinationBehaviour(op.destinationAccountNumber ?? "")
  if (behaviour === "pendingThenSuccessful" && op.requeries >= REQUERIES_UNTIL_SUCCESS) {
    op.status = "Successful"
  } else if (behaviour === "pendingThenFailed" && op.requeries > PENDING_REQUERIES_BEFORE_FAILURE) {
    op.status = "Failed"
    if (op.moneyOut) {
      state.settlement += op.amount
      state.paidOut -= op.amount
      op.moneyOut = false
    }
  }
}
