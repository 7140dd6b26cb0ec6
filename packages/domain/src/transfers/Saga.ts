/**
 * The money-movement saga, shared by manual transfers, scheduled payouts, Borrow, Extra Cash and
 * account closing. The steps of the spec, in order:
 *   1. lift PND   2. place a lien protecting the rest of the balance   3. debit amount + fee
 *   4. send the NIP transfer of the amount from settlement   5. remove the lien and re-activate PND
 * with compensation: a definite transfer failure after the debit credits the customer back
 * (reversal), and the account always ends with the lien removed and PND active, whatever failed.
 *
 * The journal is the transfer record itself: each step's state is written BEFORE the provider call
 * ("attempted") and AFTER it (its outcome). After a crash or an unknown outcome, `decide` reads the
 * journal and says what to do next: idempotent steps (PND, lien, restore) are simply redone; a
 * debit, transfer or reversal left "attempted" is requeried by its reference (derived from the
 * transaction id, so the provider deduplicates a repeat), never guessed.
 *
 * `decide` is pure: the same function drives the first run, crash recovery and reconciliation.
 */
import { Context } from "effect"
import { referenceFor } from "../banking/CoreBanking.js"
import type { Kobo } from "../shared/Money.js"
import { TransactionId } from "../shared/Ids.js"

export type DebitState = "none" | "attempted" | "applied" | "refused"
export type TransferState = "none" | "attempted" | "successful" | "pending" | "failed"
/** "refused": the bank refused to give the money back; it waits for an operator (staff alert) */
export type ReversalState = "none" | "attempted" | "applied" | "refused"
export type TransferStatus = "pending" | "confirmed" | "failed"

export interface TransferJournal {
  readonly id: string
  readonly status: TransferStatus
  /** step 1 done (PND lifted) */
  readonly pndLifted: boolean
  /** step 2 done (the protecting lien placed, or none was needed) */
  readonly lienPlaced: boolean
  readonly debit: DebitState
  readonly transfer: TransferState
  readonly reversal: ReversalState
  /** step 5 done: lien removed and PND active again */
  readonly restored: boolean
  /** why the movement cannot go on (set when a step was refused before the debit, or the transfer failed) */
  readonly failureReason: string | null
  /** requeries of a pending transfer so far */
  readonly retryCount: number
}

export type Action =
  | { readonly _tag: "LiftPnd" }
  | { readonly _tag: "PlaceLien" }
  | { readonly _tag: "Debit" }
  | { readonly _tag: "RequeryDebit" }
  | { readonly _tag: "Transfer" }
  | { readonly _tag: "RequeryTransfer" }
  | { readonly _tag: "Reverse" }
  | { readonly _tag: "RequeryReversal" }
  | { readonly _tag: "Restore" }
  | { readonly _tag: "Finish"; readonly status: "confirmed" | "failed" }
  /** nothing to do now: a pending transfer waits for reconciliation */
  | { readonly _tag: "AwaitTransfer" }
  /** nothing the saga can do: the bank refused the reversal, an operator must act */
  | { readonly _tag: "AwaitOperator" }
  | { readonly _tag: "Done" }

const act = <T extends Action["_tag"]>(tag: T) => ({ _tag: tag }) as Extract<Action, { _tag: T }>

/** What the saga must do next, from its journal alone. */
export const decide = (j: TransferJournal): Action => {
  if (j.status !== "pending" && j.restored) return act("Done")
  // Before any money moved: go forward, or, once refused, put the account back.
  if (j.debit === "none") {
    if (j.failureReason !== null) return j.restored ? { _tag: "Finish", status: "failed" } : act("Restore")
    if (!j.pndLifted) return act("LiftPnd")
    if (!j.lienPlaced) return act("PlaceLien")
    return act("Debit")
  }
  if (j.debit === "attempted") return act("RequeryDebit")
  if (j.debit === "refused") return j.restored ? { _tag: "Finish", status: "failed" } : act("Restore")
  // The customer's money is in settlement.
  switch (j.transfer) {
    case "none":
      return act("Transfer")
    case "attempted":
      return act("RequeryTransfer")
    case "successful":
      return j.restored ? { _tag: "Finish", status: "confirmed" } : act("Restore")
    case "pending":
      // the account is put back at once; the transfer's outcome is reconciliation's to learn
      return j.restored ? act("AwaitTransfer") : act("Restore")
    case "failed":
      switch (j.reversal) {
        case "none":
          return act("Reverse")
        case "attempted":
          return act("RequeryReversal")
        case "applied":
          return j.restored ? { _tag: "Finish", status: "failed" } : act("Restore")
        case "refused":
          return j.restored ? act("AwaitOperator") : act("Restore")
      }
  }
}

/** Provider references of one movement, all derived from its id (≤ 12 characters each). */
export const referencesOf = (transactionId: TransactionId) => ({
  lien: referenceFor("L", transactionId),
  debit: referenceFor("D", transactionId),
  transfer: referenceFor("T", transactionId),
  reversal: referenceFor("R", transactionId)
})

/**
 * The lien that protects the rest of the balance while PND is lifted: everything withdrawable but
 * the amount being moved, so no other debit can take money that is not part of this movement.
 * Liens already on the account protect their own part (the withdrawable balance excludes them).
 * Zero when the movement takes everything withdrawable: then no lien is placed (a bank refuses a
 * lien of nothing).
 */
export const protectingLien = (withdrawableBalance: Kobo, debitTotal: Kobo): Kobo =>
  withdrawableBalance > debitTotal ? withdrawableBalance - debitTotal : 0n

export const TransferPolicy = {
  /** requeries of a pending transfer before it is failed and reversed */
  maxRequeries: 5,
  /** reconciliation backoff: first requery after 5 minutes (the spec's polling period), doubling, at most 30 minutes apart */
  firstRequeryAfterMs: 5 * 60_000,
  maxRequeryIntervalMs: 30 * 60_000,
  /**
   * How old a NIP name-enquiry session may be when a transfer quotes it; an older one (or one of
   * unknown age, e.g. a plan's stored session) is replaced by a fresh name enquiry just before
   * sending. Banks expire sessions (the sandbox after 30 minutes by default).
   */
  nameEnquiryMaxAgeMs: 10 * 60_000
} as const

/**
 * What reconciliation does with a transfer that answered a definite "pending" to
 * TransferPolicy.maxRequeries status queries:
 * - `fail` (the default, the spec's rule): failed, the debit reversed, staff alerted (the bank may
 *   still pay it);
 * - `escalate`: for a provider whose own rules make such a transfer a case for its support desk,
 *   not a failure (BankOne: "contact support if still Pending after 5 trials", docs/bankone.md).
 *   It stays pending, nothing is reversed (reversing money the bank may still pay would pay it
 *   twice), staff are alerted, and it is requeried every maxRequeryIntervalMs until the bank gives
 *   a final answer, which settles it as usual.
 * The composition root sets it with the provider's adapter (adapters' corebanking/Provider.ts).
 */
export class ExhaustedRequeries extends Context.Reference<ExhaustedRequeries>()("domain/ExhaustedRequeries", {
  defaultValue: (): { readonly then: "fail" | "escalate" } => ({ then: "fail" })
}) {}

/** When to requery a pending transfer next, after `retryCount` requeries. */
export const nextRequeryDelayMs = (retryCount: number): number =>
  Math.min(TransferPolicy.firstRequeryAfterMs * 2 ** retryCount, TransferPolicy.maxRequeryIntervalMs)

/** How long reconciliation takes to use up its requeries: past it, a movement with no answer is escalated. */
export const requeryWindowMs: number = Array.from({ length: TransferPolicy.maxRequeries }, (_, i) => nextRequeryDelayMs(i))
  .reduce((a, b) => a + b, 0)
