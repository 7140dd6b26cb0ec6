/**
 * Account Enquiry as the port's AccountSnapshot (docs/bankone.md B1–B5): balances from decimal naira
 * to kobo, exactly (a sub-kobo balance is refused and logged as an error); PND and freeze from their
 * "Active"/"InActive" words; liens from our journal, attributed by the lien total the balances show
 * (ledger − available): our confirmed liens first, then those whose answer was lost, oldest first,
 * each only while the total covers it; a total left over is a lien the bank placed itself (`BANK`).
 */
import type { AccountSnapshot, Lien } from "@app/domain"
import { Effect, Either } from "effect"
import { Transient } from "../Sender.js"
import type { BankOneJournal, SentRequest } from "./BankOneJournal.js"
import { nairaToKobo } from "./BankOneMoney.js"
import { activeFlag } from "./BankOneOutcomes.js"
import type * as Wire from "./BankOneWire.js"

/** The reference of lien money no record of ours explains. */
export const BANK_LIEN_REFERENCE = "BANK"

export interface Balances {
  readonly accountNumber: string
  readonly accountName: string
  readonly ledgerKobo: bigint
  readonly availableKobo: bigint
  readonly pndActive: boolean
  readonly frozen: boolean
}

/** The answer's balances and flags; a sub-kobo or unreadable balance, or an unknown flag word, is transient. */
export const balancesOf = (answer: typeof Wire.AccountEnquiryAnswer.Type): Either.Either<Balances, Transient> => {
  const ledger = nairaToKobo(answer.LedgerBalance)
  const available = nairaToKobo(answer.AvailableBalance)
  if (!ledger.ok || !available.ok) {
    const reason = !ledger.ok ? ledger.reason : !available.ok ? available.reason : ""
    return Either.left(new Transient({ detail: `bankone balance refused: ${reason}` }))
  }
  const pnd = activeFlag(answer.PNDStatus)
  const frozen = activeFlag(answer.FreezeStatus)
  if (pnd === undefined || frozen === undefined) {
    return Either.left(new Transient({ detail: "bankone account flags not understood" }))
  }
  return Either.right({
    accountNumber: answer.Nuban,
    accountName: (answer.Name ?? "").trim(),
    ledgerKobo: ledger.kobo,
    availableKobo: available.kobo,
    pndActive: pnd,
    frozen
  })
}

/** Attributes the lien total to our recorded liens (see the module's doc). */
export const attributeLiens = (totalKobo: bigint, recorded: ReadonlyArray<SentRequest>): ReadonlyArray<Lien> => {
  let remaining = totalKobo > 0n ? totalKobo : 0n
  const liens: Array<Lien> = []
  const take = (row: SentRequest) => {
    if (row.amountKobo <= remaining) {
      liens.push({ reference: row.reference, amountKobo: row.amountKobo })
      remaining -= row.amountKobo
    }
  }
  for (const row of recorded) if (row.state === "applied") take(row)
  for (const row of recorded) if (row.state !== "applied") take(row)
  if (remaining > 0n) liens.push({ reference: BANK_LIEN_REFERENCE, amountKobo: remaining })
  return liens
}

export const snapshotOf = (balances: Balances, journal: BankOneJournal): Effect.Effect<AccountSnapshot> =>
  Effect.map(journal.liens(balances.accountNumber), (recorded) => ({
    accountNumber: balances.accountNumber,
    accountName: balances.accountName,
    ledgerBalanceKobo: balances.ledgerKobo,
    withdrawableBalanceKobo: balances.availableKobo,
    pndActive: balances.pndActive,
    frozen: balances.frozen,
    liens: attributeLiens(balances.ledgerKobo - balances.availableKobo, recorded)
  }))
