/** The sandbox bank's account operations: opening, details, history, PND, liens, freeze. */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { AccountDetails, LienRequest, OpenAccountRequest, WireTransaction } from "@app/adapters/corebanking/Wire"
import { Effect } from "effect"
import { accountNumberFor } from "../TestData.js"
import { BadRequest, type Outcome, badRequest, duplicate, invalidAccount, notFound, notPermitted, ok, requirePositive, requireReference, requireText } from "./Answers.js"
import { type AccountRow, type BankRules, type Op, type PostingRow, accountData, activeLiens, big, findAccount, lockAccount, nextSerial, num, rawSql, transaction, withSql } from "./Store.js"

// -------------------------------------------------------------------------------------------------
// Accounts
// -------------------------------------------------------------------------------------------------

/** Opens an account (PND active) once per customerReference; the same reference answers the same account. */
export const openAccount = (req: typeof OpenAccountRequest.Type): Effect.Effect<Outcome, SqlError | BadRequest, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const reference = yield* requireReference("customerReference", req.customerReference)
    const firstName = yield* requireText("firstName", req.firstName)
    const lastName = yield* requireText("lastName", req.lastName)
    yield* requireText("phone", req.phone)
    yield* requireText("email", req.email)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(req.dateOfBirth)) {
      return yield* Effect.fail(badRequest("dateOfBirth must be YYYY-MM-DD"))
    }
    const otherNames = req.otherNames?.trim() ? req.otherNames.trim() : null
    const sql = yield* rawSql
    const byReference = () =>
      Effect.map(sql<AccountRow>`SELECT * FROM sandbox_accounts WHERE customer_reference = ${reference}`, (rows) => rows[0])
    const existing = yield* byReference()
    if (existing !== undefined) return ok(accountData(existing))
    const accountNumber = accountNumberFor(yield* nextSerial(sql, "sandbox_account_serial"))
    const inserted = yield* sql<AccountRow>`
      INSERT INTO sandbox_accounts ${
      sql.insert({
        account_number: accountNumber,
        customer_reference: reference,
        account_name: [lastName, firstName, otherNames].filter((n) => n !== null).join(" ").toUpperCase(),
        first_name: firstName,
        last_name: lastName,
        other_names: otherNames,
        phone: req.phone.trim(),
        email: req.email.trim(),
        date_of_birth: req.dateOfBirth,
        gender: req.gender
      })
    }
      ON CONFLICT (customer_reference) DO NOTHING
      RETURNING *`
    // lost a race with a concurrent opening of the same reference: answer that account
    const row = inserted[0] ?? (yield* byReference())
    if (row === undefined) return yield* Effect.dieMessage(`account for ${reference} vanished`)
    return ok(accountData(row))
  })

export const accountByReference = (reference: string): Op<Outcome> =>
  withSql((sql) =>
    Effect.map(
      sql<AccountRow>`SELECT * FROM sandbox_accounts WHERE customer_reference = ${reference}`,
      (rows) => rows[0] === undefined ? notFound(`no account with customer reference ${reference}`) : ok(accountData(rows[0]))
    )
  )

export const accountDetails = (accountNumber: string): Op<Outcome> =>
  withSql((sql) =>
    Effect.gen(function*() {
      const row = yield* findAccount(sql, accountNumber)
      if (row === undefined) return invalidAccount(accountNumber)
      const liens = yield* activeLiens(sql, accountNumber)
      const balance = big(row.balance)
      const liened = liens.reduce((sum, l) => sum + big(l.amount), 0n)
      const details: typeof AccountDetails.Type = {
        accountNumber: row.account_number,
        accountName: row.account_name,
        ledgerBalance: num(balance),
        withdrawableBalance: num(balance - liened),
        pndActive: row.pnd_active,
        frozen: row.frozen,
        liens: liens.map((l) => ({ reference: l.reference, amount: num(big(l.amount)) }))
      }
      return ok(details)
    })
  )

/** Postings of an account, newest first. */
export const transactions = (accountNumber: string): Op<Outcome> =>
  withSql((sql) =>
    Effect.gen(function*() {
      const row = yield* findAccount(sql, accountNumber)
      if (row === undefined) return invalidAccount(accountNumber)
      const postings = yield* sql<PostingRow>`
        SELECT reference, type, amount, narration, channel, counterparty_name, counterparty_account_number,
               counterparty_bank_code, posted_at
        FROM sandbox_postings WHERE account_number = ${accountNumber}
        ORDER BY posted_at DESC, id DESC`
      const list: ReadonlyArray<typeof WireTransaction.Type> = postings.map((p) => ({
        reference: p.reference,
        type: p.type,
        amount: num(big(p.amount)),
        narration: p.narration,
        postedAt: new Date(p.posted_at).toISOString(),
        channel: p.channel,
        counterpartyName: p.counterparty_name,
        counterpartyAccountNumber: p.counterparty_account_number,
        counterpartyBankCode: p.counterparty_bank_code
      }))
      return ok({ transactions: list })
    })
  )

export const setPnd = (accountNumber: string, active: boolean): Op<Outcome> =>
  withSql((sql) =>
    Effect.map(
      sql`UPDATE sandbox_accounts SET pnd_active = ${active} WHERE account_number = ${accountNumber} RETURNING account_number`,
      (rows) => rows.length === 0 ? invalidAccount(accountNumber) : ok()
    )
  )

/**
 * A lien by reference (per account). Placing the same reference with the same amount again is a
 * no-op ("00"), or "94" when repeats are rejected; reusing it with another amount, or after it was
 * removed, is "94". A lien may exceed the balance (the withdrawable balance is then negative).
 */
export const placeLien = (accountNumber: string, req: typeof LienRequest.Type, rules: BankRules) =>
  Effect.gen(function*() {
    const amount = yield* requirePositive(req.amount)
    const reference = yield* requireReference("reference", req.reference)
    return yield* transaction((sql) =>
      Effect.gen(function*() {
        const account = yield* lockAccount(sql, accountNumber)
        if (account === undefined) return invalidAccount(accountNumber)
        const existing = yield* sql<{ readonly amount: string; readonly removed_at: Date | null }>`
          SELECT amount, removed_at FROM sandbox_liens WHERE account_number = ${accountNumber} AND reference = ${reference}`
        const lien = existing[0]
        if (lien !== undefined) {
          const same = lien.removed_at === null && big(lien.amount) === amount
          return same && rules.duplicateReferences === "first-outcome" ? ok() : duplicate(reference, same)
        }
        yield* sql`
          INSERT INTO sandbox_liens ${
          sql.insert({ account_number: accountNumber, reference, amount: String(amount), reason: req.reason })
        }`
        return ok()
      })
    )
  })

/** Removing an unknown lien is "25"; removing an already removed one is a no-op ("00"). */
export const removeLien = (accountNumber: string, reference: string): Op<Outcome> =>
  transaction((sql) =>
    Effect.gen(function*() {
      const account = yield* lockAccount(sql, accountNumber)
      if (account === undefined) return invalidAccount(accountNumber)
      const rows = yield* sql<{ readonly removed_at: Date | null }>`
        SELECT removed_at FROM sandbox_liens WHERE account_number = ${accountNumber} AND reference = ${reference}`
      if (rows[0] === undefined) return notFound(`no lien ${reference} on ${accountNumber}`)
      if (rows[0].removed_at === null) {
        yield* sql`
          UPDATE sandbox_liens SET removed_at = now() WHERE account_number = ${accountNumber} AND reference = ${reference}`
      }
      return ok()
    })
  )

/**
 * Freezing a frozen account answers its current freezeReference (a retry does not stack freezes).
 * Unfreezing needs that reference ("57" otherwise); repeating the unfreeze that lifted it is "00".
 */
export const freeze = (accountNumber: string, reason: string): Op<Outcome> =>
  transaction((sql) =>
    Effect.gen(function*() {
      const account = yield* lockAccount(sql, accountNumber)
      if (account === undefined) return invalidAccount(accountNumber)
      if (account.frozen && account.freeze_reference !== null) return ok({ freezeReference: account.freeze_reference })
      const freezeReference = `FRZ${String(yield* nextSerial(sql, "sandbox_reference_serial")).padStart(9, "0")}`
      yield* sql`
        UPDATE sandbox_accounts SET frozen = true, freeze_reference = ${freezeReference}, freeze_reason = ${reason}
        WHERE account_number = ${accountNumber}`
      return ok({ freezeReference })
    })
  )

export const unfreeze = (accountNumber: string, freezeReference: string): Op<Outcome> =>
  transaction((sql) =>
    Effect.gen(function*() {
      const account = yield* lockAccount(sql, accountNumber)
      if (account === undefined) return invalidAccount(accountNumber)
      if (account.freeze_reference !== freezeReference) {
        return notPermitted(
          account.frozen ? "Freeze reference does not match the account's freeze" : "Account is not frozen under this reference"
        )
      }
      if (account.frozen) yield* sql`UPDATE sandbox_accounts SET frozen = false WHERE account_number = ${accountNumber}`
      return ok()
    })
  )
