/** The conservation check: customer balances + settlement + paidOut = deposits. */
import type { Ledger } from "@app/adapters/corebanking/Wire"
import { type BankState, num } from "./Store.js"

// -------------------------------------------------------------------------------------------------
// Conservation
// -------------------------------------------------------------------------------------------------

export type LedgerTotals = typeof Ledger.Type

export interface ConservationCheck {
  readonly ok: boolean
  readonly ledger: LedgerTotals
  readonly problems: ReadonlyArray<string>
  /** how many transfers' money is out (paid out and not returned) */
  readonly transfersOut: number
}

/** The totals of `GET /sandbox/ledger` (kept as money moves: no scan). */
export const ledger = (state: BankState): LedgerTotals => ({
  customerBalances: num(state.customers),
  settlement: num(state.settlement),
  paidOut: num(state.paidOut),
  deposits: num(state.deposits)
})

/**
 * Checks that money was neither created nor lost: customers + settlement + paidOut = deposits, no
 * negative customer balance or settlement, every balance equals its postings, the kept customer
 * total equals the balances, each account's liened total equals its active liens, deposits equal
 * the inbound postings and paidOut equals the transfers whose money is out. One synchronous pass:
 * a consistent snapshot.
 */
export const conservation = (state: BankState): ConservationCheck => {
  const totals = ledger(state)
  const problems: Array<string> = []
  if (state.customers + state.settlement + state.paidOut !== state.deposits) {
    problems.push(
      `customers ${totals.customerBalances} + settlement ${totals.settlement} + paidOut ${totals.paidOut} ≠ deposits ${totals.deposits}`
    )
  }
  if (state.settlement < 0n) problems.push(`settlement is negative: ${state.settlement}`)
  let balances = 0n
  let inbound = 0n
  for (const account of state.accounts.values()) {
    balances += account.balance
    if (account.balance < 0n) problems.push(`account ${account.accountNumber} is negative: ${account.balance}`)
    let posted = 0n
    for (const p of account.postings) {
      posted += p.type === "C" ? p.amount : -p.amount
      if (p.channel === "nip_inbound") inbound += p.amount
    }
    if (posted !== account.balance) {
      problems.push(`account ${account.accountNumber}: balance ${account.balance} but postings sum to ${posted}`)
    }
    let liened = 0n
    for (const lien of account.liens.values()) if (!lien.removed) liened += lien.amount
    if (liened !== account.liened) problems.push(`account ${account.accountNumber}: liens ${account.liened} but active liens sum to ${liened}`)
  }
  if (balances !== state.customers) problems.push(`customers ${state.customers} but balances sum to ${balances}`)
  let out = 0n
  let transfersOut = 0
  for (const op of state.operations.values()) {
    if (op.kind === "transfer" && op.moneyOut) {
      out += op.amount
      transfersOut++
    }
  }
  if (inbound !== state.deposits) problems.push(`deposits ${state.deposits} but inbound postings sum to ${inbound}`)
  if (out !== state.paidOut) problems.push(`paidOut ${state.paidOut} but transfers out sum to ${out}`)
  return { ok: problems.length === 0, ledger: totals, problems, transfersOut }
}
