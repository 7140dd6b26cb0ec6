/**
 * Reference claims: every operation that moves money first claims its reference (a primary key: a
 * concurrent duplicate waits, then sees the stored answer), so a reference is applied once and
 * answers its first outcome. How a repeated reference is answered is a `BankRules` option.
 */
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import type { DuplicateReferences } from "../Settings.js"
import { type Outcome, duplicate } from "./Answers.js"
import { type OperationRow, type Sql, big } from "./Store.js"

// -------------------------------------------------------------------------------------------------
// Reference claims: a reference is applied once and answers its first outcome
// -------------------------------------------------------------------------------------------------

export interface Claim {
  readonly reference: string
  readonly kind: OperationRow["kind"]
  readonly accountNumber: string | null
  readonly amount: bigint
  readonly narration: string
  readonly destinationAccountNumber?: string
  readonly destinationBankCode?: string
  readonly destinationAccountName?: string
  readonly nameEnquirySessionId?: string
}

export type Claimed = { readonly _tag: "New" } | { readonly _tag: "Seen"; readonly outcome: Outcome }

export const outcomeOf = (row: OperationRow): Outcome =>
  row.response_code === "00" || row.response_code === "09"
    ? { code: row.response_code, message: row.response_message, data: {} }
    : { code: row.response_code, message: row.response_message }

export const sameRequest = (row: OperationRow, claim: Claim): boolean =>
  row.kind === claim.kind &&
  row.account_number === claim.accountNumber &&
  big(row.amount) === claim.amount &&
  row.destination_account_number === (claim.destinationAccountNumber ?? null) &&
  row.destination_bank_code === (claim.destinationBankCode ?? null)

/**
 * Inserts the operation (provisionally Pending) unless its reference exists. On PostgreSQL a
 * concurrent claim of the same reference waits for the first transaction and then sees its row.
 * A reference reused for a different request answers "94" and changes nothing; so does any repeat
 * when `duplicates` is "reject". Otherwise a repeat answers the first outcome.
 */
export const claim = (sql: Sql, c: Claim, duplicates: DuplicateReferences): Effect.Effect<Claimed, SqlError> =>
  Effect.gen(function*() {
    const inserted = yield* sql`
      INSERT INTO sandbox_operations ${
      sql.insert({
        reference: c.reference,
        kind: c.kind,
        account_number: c.accountNumber,
        amount: String(c.amount),
        destination_account_number: c.destinationAccountNumber ?? null,
        destination_bank_code: c.destinationBankCode ?? null,
        destination_account_name: c.destinationAccountName ?? null,
        name_enquiry_session_id: c.nameEnquirySessionId ?? null,
        narration: c.narration,
        status: "Pending",
        response_code: "09",
        response_message: "Request in progress"
      })
    }
      ON CONFLICT (reference) DO NOTHING
      RETURNING reference`
    if (inserted.length > 0) return { _tag: "New" } as const
    const rows = yield* sql<OperationRow>`SELECT * FROM sandbox_operations WHERE reference = ${c.reference}`
    const row = rows[0]
    if (row === undefined) return yield* Effect.dieMessage(`reference ${c.reference} conflicted but cannot be read`)
    const same = sameRequest(row, c)
    return {
      _tag: "Seen",
      outcome: same && duplicates === "first-outcome" ? outcomeOf(row) : duplicate(c.reference, same)
    } as const
  })

/** Records the final answer of a claimed operation and returns it. */
export const settle = (
  sql: Sql,
  reference: string,
  status: OperationRow["status"],
  outcome: Outcome,
  moneyOut = false
): Effect.Effect<Outcome, SqlError> =>
  Effect.as(
    sql`
      UPDATE sandbox_operations
      SET status = ${status}, response_code = ${outcome.code}, response_message = ${outcome.message},
          money_out = ${moneyOut}, updated_at = now()
      WHERE reference = ${reference}`,
    outcome
  )
