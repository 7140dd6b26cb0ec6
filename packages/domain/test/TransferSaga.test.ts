import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import {
  type Action,
  decide,
  nextRequeryDelayMs,
  protectingLien,
  referencesOf,
  type TransferJournal,
  TransferPolicy
} from "../src/TransferSaga.js"
import { freshJournal } from "./support/Journal.js"

const fresh = freshJournal
const at = (patch: Partial<TransferJournal>): TransferJournal => ({ ...fresh, ...patch })
const tag = (j: TransferJournal) => decide(j)._tag

describe("decide", () => {
  it("walks the spec's steps in order on the happy path", () => {
    expect(tag(fresh)).toBe("LiftPnd")
    expect(tag(at({ pndLifted: true }))).toBe("PlaceLien")
    expect(tag(at({ pndLifted: true, lienPlaced: true }))).toBe("Debit")
    const debited = at({ pndLifted: true, lienPlaced: true, debit: "applied" })
    expect(tag(debited)).toBe("Transfer")
    expect(tag({ ...debited, transfer: "successful" })).toBe("Restore")
    expect(decide({ ...debited, transfer: "successful", restored: true })).toEqual({ _tag: "Finish", status: "confirmed" })
    expect(tag({ ...debited, transfer: "successful", restored: true, status: "confirmed" })).toBe("Done")
  })

  it("requeries every money step left 'attempted' instead of guessing", () => {
    expect(tag(at({ pndLifted: true, lienPlaced: true, debit: "attempted" }))).toBe("RequeryDebit")
    expect(tag(at({ debit: "applied", transfer: "attempted" }))).toBe("RequeryTransfer")
    expect(tag(at({ debit: "applied", transfer: "failed", reversal: "attempted" }))).toBe("RequeryReversal")
  })

  it("compensates: a failed transfer is reversed, then the account restored, then failed", () => {
    const failed = at({ pndLifted: true, lienPlaced: true, debit: "applied", transfer: "failed" })
    expect(tag(failed)).toBe("Reverse")
    expect(tag({ ...failed, reversal: "applied" })).toBe("Restore")
    expect(decide({ ...failed, reversal: "applied", restored: true })).toEqual({ _tag: "Finish", status: "failed" })
  })

  it("a refusal before the debit restores the account and fails without moving money", () => {
    expect(tag(at({ pndLifted: true, failureReason: "lien refused" }))).toBe("Restore")
    expect(tag(at({ pndLifted: true, lienPlaced: true, debit: "refused", failureReason: "51" }))).toBe("Restore")
    expect(decide(at({ debit: "refused", restored: true, failureReason: "51" }))).toEqual({ _tag: "Finish", status: "failed" })
  })

  it("a pending transfer restores the account at once, then waits for reconciliation", () => {
    const pending = at({ pndLifted: true, lienPlaced: true, debit: "applied", transfer: "pending" })
    expect(tag(pending)).toBe("Restore")
    expect(tag({ ...pending, restored: true })).toBe("AwaitTransfer")
  })
})

describe("references, lien, backoff", () => {
  it("each step has its own reference, at most 12 characters, from the transaction id", () => {
    const refs = Object.values(referencesOf(fresh.id))
    expect(new Set(refs).size).toBe(4)
    for (const r of refs) expect(r.length).toBeLessThanOrEqual(12)
    expect(referencesOf(fresh.id)).toEqual(referencesOf(fresh.id))
  })

  it("the lien protects everything but the amount being moved", () => {
    expect(protectingLien(10_000n, 2_500n)).toBe(7_500n)
    expect(protectingLien(2_500n, 2_500n)).toBe(0n)
    expect(protectingLien(1_000n, 2_500n)).toBe(0n)
  })

  it("requery backoff starts at the spec's 5 minutes, doubles, and is capped at 30 minutes", () => {
    expect([0, 1, 2, 3, 4].map(nextRequeryDelayMs)).toEqual([300_000, 600_000, 1_200_000, 1_800_000, 1_800_000])
    expect(TransferPolicy.maxRequeries).toBe(5)
  })
})

// ---------------------------------------------------------------------------------------------
// Simulation: a model bank, random provider outcomes and crashes, the saga re-driven from its
// journal after every interruption. The promises: the recipient is paid at most once; the customer
// is debited exactly once when paid and made whole otherwise; the account always ends restored.
// ---------------------------------------------------------------------------------------------

type Outcome = "ok" | "refused" | "unknown_applied" | "unknown_not_applied"

interface Bank {
  customer: bigint
  settlement: bigint
  paidOut: bigint
  pnd: boolean
  lien: boolean
  debits: number
  transfers: number
  reversals: number
  /** the provider's view of each reference: applied or not */
  applied: Set<"debit" | "transfer" | "reversal">
  /** the transfer answers pending first, then settles to this */
  transferFinal: "successful" | "failed"
}

const AMOUNT = 2_500n

const simulate = (outcomes: ReadonlyArray<Outcome>, transferFinal: "successful" | "failed", pendingFirst: boolean) => {
  const bank: Bank = {
    customer: 10_000n,
    settlement: 0n,
    paidOut: 0n,
    pnd: true,
    lien: false,
    debits: 0,
    transfers: 0,
    reversals: 0,
    applied: new Set(),
    transferFinal
  }
  let j: TransferJournal = fresh
  let i = 0
  const next = (): Outcome => outcomes[i++] ?? "ok"
  const requeriesOfPending = { n: 0 }
  for (let steps = 0; steps < 200; steps++) {
    const action: Action = decide(j)
    if (action._tag === "Done") break
    if (action._tag === "Finish") {
      j = { ...j, status: action.status }
      continue
    }
    if (action._tag === "AwaitTransfer") {
      // reconciliation: requery the pending transfer
      requeriesOfPending.n++
      const final = requeriesOfPending.n >= 2 ? transferFinal : "pending"
      if (final === "failed") bank.settlement += AMOUNT, bank.paidOut -= AMOUNT
      j = final === "pending" ? { ...j, retryCount: j.retryCount + 1 } : { ...j, transfer: final, restored: final === "failed" ? false : j.restored }
      if (final === "successful") j = { ...j, status: "confirmed" }
      continue
    }
    const outcome = next()
    const applies = outcome === "ok" || outcome === "unknown_applied"
    const answered = outcome === "ok" || outcome === "refused"
    switch (action._tag) {
      case "LiftPnd":
        if (applies) bank.pnd = false
        if (answered) j = outcome === "ok" ? { ...j, pndLifted: true } : { ...j, failureReason: "PND refused" }
        break
      case "PlaceLien":
        if (applies) bank.lien = true
        if (answered) j = outcome === "ok" ? { ...j, lienPlaced: true } : { ...j, failureReason: "lien refused" }
        break
      case "Debit":
        j = { ...j, debit: "attempted" }
        if (applies && !bank.applied.has("debit")) {
          if (bank.pnd) throw new Error("debited with PND active")
          bank.applied.add("debit"), bank.customer -= AMOUNT, bank.settlement += AMOUNT, bank.debits++
        }
        if (outcome === "ok") j = { ...j, debit: "applied" }
        if (outcome === "refused") j = { ...j, debit: "refused", failureReason: "refused" }
        break
      case "RequeryDebit":
        if (outcome !== "unknown_applied" && outcome !== "unknown_not_applied") {
          // not applied: the provider never saw it; resume by debiting again under the same reference
          j = bank.applied.has("debit") ? { ...j, debit: "applied" } : { ...j, debit: "none" }
        }
        break
      case "Transfer":
        j = { ...j, transfer: "attempted" }
        if (applies && !bank.applied.has("transfer")) {
          bank.applied.add("transfer"), bank.settlement -= AMOUNT, bank.paidOut += AMOUNT, bank.transfers++
        }
        if (outcome === "ok") j = { ...j, transfer: pendingFirst ? "pending" : transferFinal }
        if (outcome === "refused") j = { ...j, transfer: "failed", failureReason: "refused" }
        if (j.transfer === "failed" && bank.applied.has("transfer")) bank.settlement += AMOUNT, bank.paidOut -= AMOUNT, bank.applied.delete("transfer")
        break
      case "RequeryTransfer":
        if (answered) {
          j = bank.applied.has("transfer")
            ? { ...j, transfer: pendingFirst ? "pending" : transferFinal }
            : { ...j, transfer: "none" } // never reached the provider: send again with the same reference
          if (j.transfer === "failed") bank.settlement += AMOUNT, bank.paidOut -= AMOUNT, bank.applied.delete("transfer")
        }
        break
      case "Reverse":
        j = { ...j, reversal: "attempted" }
        if (applies && !bank.applied.has("reversal")) {
          bank.applied.add("reversal"), bank.customer += AMOUNT, bank.settlement -= AMOUNT, bank.reversals++
        }
        if (answered) j = { ...j, reversal: bank.applied.has("reversal") ? "applied" : "none" }
        break
      case "RequeryReversal":
        if (answered) j = { ...j, reversal: bank.applied.has("reversal") ? "applied" : "none" }
        break
      case "Restore":
        if (applies) bank.pnd = true, bank.lien = false
        if (outcome === "ok") j = { ...j, restored: true }
        break
    }
  }
  return { bank, journal: j }
}

describe("the saga under random outcomes and crashes (model bank)", () => {
  const outcome = fc.constantFrom<Outcome>("ok", "ok", "ok", "refused", "unknown_applied", "unknown_not_applied")
  it.prop(
    "paid at most once; debited once when paid, made whole otherwise; the account always ends restored",
    [fc.array(outcome, { maxLength: 30 }), fc.constantFrom("successful" as const, "failed" as const), fc.boolean()],
    ([outcomes, final, pendingFirst]) => {
      const { bank, journal } = simulate(outcomes, final, pendingFirst)
      expect(journal.status).not.toBe("pending")
      expect(journal.restored).toBe(true)
      expect(bank.pnd).toBe(true)
      expect(bank.lien).toBe(false)
      expect(bank.debits).toBeLessThanOrEqual(1)
      expect(bank.reversals).toBeLessThanOrEqual(1)
      expect(bank.customer + bank.settlement + bank.paidOut).toBe(10_000n)
      if (journal.status === "confirmed") {
        expect(bank.paidOut).toBe(AMOUNT)
        expect(bank.customer).toBe(10_000n - AMOUNT)
      } else {
        expect(bank.paidOut).toBe(0n)
        expect(bank.customer).toBe(10_000n)
      }
    },
    { fastCheck: { numRuns: 2_000 } }
  )
})
