/**
 * The sandbox bank's rules over SQL. Every operation that moves money runs in one transaction that
 * first claims its reference (a primary key: a concurrent duplicate waits, then sees the stored
 * answer), then locks the rows it changes with `FOR UPDATE`, always in the same order
 * (operation → customer account → ledger row), so concurrent calls are safe on PostgreSQL and
 * deadlock-free. Works over any `SqlClient` (with or without name transforms: it uses its own).
 *
 * Money: customer balances + settlement + paidOut = deposits, always.
 *  - deposit: outside world → customer (deposits grows)
 *  - debit: customer → settlement;  credit: settlement → customer
 *  - transfer: settlement → paidOut; a transfer that fails after being pending: paidOut → settlement
 * The settlement account never goes negative: a credit or transfer it cannot cover is refused "51".
 * How a repeated reference is answered and how long a name enquiry's session lasts are `BankRules`
 * (from the sandbox's options).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type {
  AccountData,
  AccountDetails,
  BvnData,
  DepositNotification,
  LienRequest,
  Ledger,
  NameEnquiryData,
  OpenAccountRequest,
  PostingRequest,
  StatusData,
  TransferRequest,
  WireTransaction
} from "@app/adapters/corebanking/Wire"
import { Data, Effect } from "effect"
import type { DuplicateReferences } from "./Settings.js"
import {
  accountNumberFor,
  DEPOSITOR,
  destinationBehaviour,
  genericAccountName,
  isBvnShaped,
  isReachableDestination,
  lookupBvn,
  newSessionId,
  PENDING_REQUERIES_BEFORE_FAILURE,
  REQUERIES_UNTIL_SUCCESS,
  SANDBOX_BANK
} from "./TestData.js"

// -------------------------------------------------------------------------------------------------
// Answers
// -------------------------------------------------------------------------------------------------

/** One answer of the wire protocol: `{ responseCode, responseMessage, data? }`. */
export interface Outcome {
  readonly code: string
  readonly message: string
  readonly data?: unknown
}

/** A malformed request ("26"): not a transaction, nothing is stored, the reference stays free. */
export class BadRequest extends Data.TaggedError("BadRequest")<{ readonly message: string }> {}

const ok = (data: unknown = {}): Outcome => ({ code: "00", message: "Approved or completed successfully", data })
const pending = (): Outcome => ({ code: "09", message: "Request in progress", data: {} })
const invalidAccount = (accountNumber: string): Outcome => ({ code: "07", message: `Invalid account: ${accountNumber}` })
const notFound = (what: string): Outcome => ({ code: "25", message: `Unable to locate record: ${what}` })
const insufficientFunds = (message = "Insufficient funds"): Outcome => ({ code: "51", message })
const notPermitted = (message: string): Outcome => ({ code: "57", message })
/** "94": the reference was used before, for a different request (or for this one, when repeats are rejected). */
const duplicate = (reference: string, sameRequest = false): Outcome => ({
  code: "94",
  message: `Duplicate transaction: reference ${reference} was already used${sameRequest ? "" : " for a different request"}`
})
/** "96" after the transfer was applied (0006): the answer says nothing about the outcome. */
const systemMalfunction = (): Outcome => ({ code: "96", message: "System malfunction" })

const badRequest = (message: string) => new BadRequest({ message })

type Sql = SqlClient.SqlClient

/** The sandbox's configurable rules (see `SandboxOptions`). */
export interface BankRules {
  readonly duplicateReferences: DuplicateReferences
  readonly nameEnquirySessionTtlMs: number
}

type Op<A> = Effect.Effect<A, SqlError, SqlClient.SqlClient>

/** The client without name transforms: rows come back with their snake_case column names. */
const rawSql: Effect.Effect<Sql, never, SqlClient.SqlClient> = Effect.map(SqlClient.SqlClient, (sql) => sql.withoutTransforms())

const withSql = <A, E>(f: (sql: Sql) => Effect.Effect<A, E>): Effect.Effect<A, E, SqlClient.SqlClient> =>
  Effect.flatMap(rawSql, f)

const transaction = <A, E>(f: (sql: Sql) => Effect.Effect<A, E>): Effect.Effect<A, E | SqlError, SqlClient.SqlClient> =>
  withSql((sql) => sql.withTransaction(f(sql)))

/** int8 arrives as a string (both clients); `sum()` of int8 is numeric, also a string. */
const big = (value: unknown): bigint => BigInt(String(value ?? "0"))

/** Kobo on the wire is a JSON number; our totals are far below 2^53 in practice, checked anyway. */
const num = (value: bigint): number => {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`amount ${value} does not fit a JSON number`)
  }
  return Number(value)
}

// -------------------------------------------------------------------------------------------------
// Rows
// -------------------------------------------------------------------------------------------------

interface AccountRow {
  readonly account_number: string
  readonly customer_reference: string
  readonly account_name: string
  readonly balance: string
  readonly pnd_active: boolean
  readonly frozen: boolean
  readonly freeze_reference: string | null
}

interface OperationRow {
  readonly reference: string
  readonly kind: "debit" | "credit" | "transfer" | "deposit"
  readonly account_number: string | null
  readonly amount: string
  readonly destination_account_number: string | null
  readonly destination_bank_code: string | null
  readonly status: typeof StatusData.Type.status
  readonly response_code: string
  readonly response_message: string
  readonly money_out: boolean
  readonly requery_count: number
}

interface PostingRow {
  readonly reference: string
  readonly type: "C" | "D"
  readonly amount: string
  readonly narration: string
  readonly channel: typeof WireTransaction.Type.channel
  readonly counterparty_name: string | null
  readonly counterparty_account_number: string | null
  readonly counterparty_bank_code: string | null
  readonly posted_at: Date
}

const accountData = (row: AccountRow): typeof AccountData.Type => ({
  accountNumber: row.account_number,
  accountName: row.account_name,
  customerReference: row.customer_reference
})

const findAccount = (sql: Sql, accountNumber: string) =>
  Effect.map(
    sql<AccountRow>`SELECT * FROM sandbox_accounts WHERE account_number = ${accountNumber}`,
    (rows) => rows[0]
  )

const lockAccount = (sql: Sql, accountNumber: string) =>
  Effect.map(
    sql<AccountRow>`SELECT * FROM sandbox_accounts WHERE account_number = ${accountNumber} FOR UPDATE`,
    (rows) => rows[0]
  )

const activeLiens = (sql: Sql, accountNumber: string) =>
  sql<{ readonly reference: string; readonly amount: string }>`
    SELECT reference, amount FROM sandbox_liens
    WHERE account_number = ${accountNumber} AND removed_at IS NULL
    ORDER BY placed_at, reference`

const lienTotal = (sql: Sql, accountNumber: string) =>
  Effect.map(
    sql<{ readonly total: string | null }>`
      SELECT sum(amount) AS total FROM sandbox_liens WHERE account_number = ${accountNumber} AND removed_at IS NULL`,
    (rows) => big(rows[0]?.total)
  )

interface LedgerRow {
  readonly settlement: string
  readonly paid_out: string
  readonly deposits: string
}

const lockLedger = (sql: Sql) =>
  Effect.map(sql<LedgerRow>`SELECT * FROM sandbox_ledger WHERE id = 1 FOR UPDATE`, (rows) => {
    const row = rows[0]
    if (row === undefined) throw new Error("sandbox_ledger has no row: migrations not applied?")
    return { settlement: big(row.settlement), paidOut: big(row.paid_out), deposits: big(row.deposits) }
  })

const moveLedger = (sql: Sql, delta: { settlement?: bigint; paidOut?: bigint; deposits?: bigint }) =>
  sql`
    UPDATE sandbox_ledger SET
      settlement = settlement + ${String(delta.settlement ?? 0n)}::int8,
      paid_out = paid_out + ${String(delta.paidOut ?? 0n)}::int8,
      deposits = deposits + ${String(delta.deposits ?? 0n)}::int8
    WHERE id = 1`

const moveAccount = (sql: Sql, accountNumber: string, delta: bigint) =>
  sql`UPDATE sandbox_accounts SET balance = balance + ${String(delta)}::int8 WHERE account_number = ${accountNumber}`

const nextSerial = (sql: Sql, sequence: "sandbox_account_serial" | "sandbox_reference_serial") =>
  Effect.map(sql<{ readonly n: string }>`SELECT nextval(${sequence}::regclass)::text AS n`, (rows) => big(rows[0]!.n))

// -------------------------------------------------------------------------------------------------
// Reference claims: a reference is applied once and answers its first outcome
// -------------------------------------------------------------------------------------------------

interface Claim {
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

type Claimed = { readonly _tag: "New" } | { readonly _tag: "Seen"; readonly outcome: Outcome }

const outcomeOf = (row: OperationRow): Outcome =>
  row.response_code === "00" || row.response_code === "09"
    ? { code: row.response_code, message: row.response_message, data: {} }
    : { code: row.response_code, message: row.response_message }

const sameRequest = (row: OperationRow, claim: Claim): boolean =>
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
const claim = (sql: Sql, c: Claim, duplicates: DuplicateReferences): Effect.Effect<Claimed, SqlError> =>
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
const settle = (
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

const requirePositive = (amount: number): Effect.Effect<bigint, BadRequest> =>
  amount > 0 ? Effect.succeed(BigInt(amount)) : Effect.fail(badRequest("amount must be a positive whole number of kobo"))

const describeMs = (ms: number): string =>
  ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}` : `${ms} ms`

const requireText = (field: string, value: string): Effect.Effect<string, BadRequest> =>
  value.trim().length > 0 ? Effect.succeed(value.trim()) : Effect.fail(badRequest(`${field} is required`))

/** References are used exactly as sent (never trimmed), but may not be blank. */
const requireReference = (field: string, value: string): Effect.Effect<string, BadRequest> =>
  value.trim().length > 0 ? Effect.succeed(value) : Effect.fail(badRequest(`${field} is required`))

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

// -------------------------------------------------------------------------------------------------
// Money movement
// -------------------------------------------------------------------------------------------------

/**
 * A customer debit (customer → settlement) or credit (settlement → customer), once per
 * retrievalReference. Debits: "07" unknown account, "57" PND active or frozen, "51" above
 * balance − liens. Credits: "07" unknown account, "51" when settlement cannot cover (never
 * negative). Refusals are stored too: the reference answers them again and requeries say Failed.
 */
export const posting = (kind: "debit" | "credit", req: typeof PostingRequest.Type, rules: BankRules) =>
  Effect.gen(function*() {
    const amount = yield* requirePositive(req.amount)
    const reference = yield* requireReference("retrievalReference", req.retrievalReference)
    return yield* transaction((sql) =>
      Effect.gen(function*() {
        const claimed = yield* claim(sql, {
          reference,
          kind,
          accountNumber: req.accountNumber,
          amount,
          narration: req.narration
        }, rules.duplicateReferences)
        if (claimed._tag === "Seen") return claimed.outcome
        const account = yield* lockAccount(sql, req.accountNumber)
        if (account === undefined) return yield* settle(sql, reference, "Failed", invalidAccount(req.accountNumber))
        const balance = big(account.balance)
        if (kind === "debit") {
          if (account.frozen) return yield* settle(sql, reference, "Failed", notPermitted("Account is frozen"))
          if (account.pnd_active) return yield* settle(sql, reference, "Failed", notPermitted("Post no debit is active"))
          const liens = yield* lienTotal(sql, req.accountNumber)
          if (amount > balance - liens) {
            return yield* settle(
              sql,
              reference,
              "Failed",
              insufficientFunds(liens > 0n ? "Insufficient funds (balance less liens)" : "Insufficient funds")
            )
          }
          yield* lockLedger(sql)
          yield* moveAccount(sql, req.accountNumber, -amount)
          yield* moveLedger(sql, { settlement: amount })
        } else {
          const ledger = yield* lockLedger(sql)
          if (ledger.settlement < amount) {
            return yield* settle(sql, reference, "Failed", insufficientFunds("Settlement account cannot cover the credit"))
          }
          yield* moveAccount(sql, req.accountNumber, amount)
          yield* moveLedger(sql, { settlement: -amount })
        }
        yield* sql`
          INSERT INTO sandbox_postings ${
          sql.insert({
            reference,
            account_number: req.accountNumber,
            type: kind === "debit" ? "D" : "C",
            amount: String(amount),
            narration: req.narration,
            channel: kind === "debit" ? "core_debit" : "core_credit",
            counterparty_name: null,
            counterparty_account_number: null,
            counterparty_bank_code: null
          })
        }`
        return yield* settle(sql, reference, "Successful", ok())
      })
    )
  })

export const nameEnquiry = (accountNumber: string, bankCode: string): Op<Outcome> =>
  withSql((sql) =>
    Effect.gen(function*() {
      if (!isReachableDestination(accountNumber, bankCode)) return invalidAccount(accountNumber)
      // our own customers answer with their real name
      const own = bankCode === SANDBOX_BANK.code ? yield* findAccount(sql, accountNumber) : undefined
      const accountName = own?.account_name ?? genericAccountName(accountNumber)
      const sessionId = newSessionId()
      yield* sql`
        INSERT INTO sandbox_name_enquiries ${
        sql.insert({ session_id: sessionId, account_number: accountNumber, bank_code: bankCode, account_name: accountName })
      }`
      const data: typeof NameEnquiryData.Type = { accountName, accountNumber, bankCode, sessionId }
      return ok(data)
    })
  )

/**
 * An outbound NIP transfer out of the settlement account, once per transactionReference. It must
 * quote the session id of a name enquiry of the same destination, made at most
 * `nameEnquirySessionTtlMs` ago by the database's clock ("26" otherwise, nothing stored: the
 * reference stays usable). Destination behaviours: see `destinationBehaviour`. "51" when settlement
 * cannot cover it. Returns the outcome and whether the answer must be held back (0004).
 */
export const transfer = (req: typeof TransferRequest.Type, rules: BankRules) =>
  Effect.gen(function*() {
    const amount = yield* requirePositive(req.amount)
    const reference = yield* requireReference("transactionReference", req.transactionReference)
    const behaviour = destinationBehaviour(req.destinationAccountNumber)
    const outcome = yield* transaction((sql) =>
      Effect.gen(function*() {
        const claimed = yield* claim(sql, {
          reference,
          kind: "transfer",
          accountNumber: null,
          amount,
          narration: req.narration,
          destinationAccountNumber: req.destinationAccountNumber,
          destinationBankCode: req.destinationBankCode,
          destinationAccountName: req.destinationAccountName,
          nameEnquirySessionId: req.nameEnquirySessionId
        }, rules.duplicateReferences)
        if (claimed._tag === "Seen") return claimed.outcome
        const sessions = yield* sql<{ readonly account_number: string; readonly bank_code: string; readonly expired: boolean }>`
          SELECT account_number, bank_code,
                 created_at < now() - ${rules.nameEnquirySessionTtlMs}::float8 * interval '1 millisecond' AS expired
          FROM sandbox_name_enquiries WHERE session_id = ${req.nameEnquirySessionId}`
        const session = sessions[0]
        if (
          session === undefined || session.account_number !== req.destinationAccountNumber ||
          session.bank_code !== req.destinationBankCode
        ) {
          // rolls the claim back: a malformed request is not a transaction
          return yield* Effect.fail(
            badRequest("nameEnquirySessionId does not belong to a name enquiry of this destination account and bank")
          )
        }
        if (session.expired) {
          return yield* Effect.fail(badRequest(
            `nameEnquirySessionId expired: the name enquiry is older than ${describeMs(rules.nameEnquirySessionTtlMs)}; make a new one`
          ))
        }
        if (!isReachableDestination(req.destinationAccountNumber, req.destinationBankCode)) {
          return yield* settle(sql, reference, "Failed", invalidAccount(req.destinationAccountNumber))
        }
        if (behaviour === "failsAtOnce") {
          return yield* settle(sql, reference, "Failed", notPermitted("Beneficiary bank declined the transfer"))
        }
        const ledger = yield* lockLedger(sql)
        if (ledger.settlement < amount) {
          return yield* settle(sql, reference, "Failed", insufficientFunds("Settlement account cannot cover the transfer"))
        }
        yield* moveLedger(sql, { settlement: -amount, paidOut: amount })
        return behaviour === "pendingThenSuccessful" || behaviour === "pendingThenFailed"
          ? yield* settle(sql, reference, "Pending", pending(), true)
          : behaviour === "malfunctionAfterSuccess"
          ? yield* settle(sql, reference, "Successful", systemMalfunction(), true)
          : yield* settle(sql, reference, "Successful", ok(), true)
      })
    )
    return { outcome, slow: behaviour === "slowSuccess" }
  })

/**
 * The status of any reference (debit, credit, transfer, deposit); "25" when unknown. A pending
 * transfer advances here: 0002 answers Successful from its 2nd requery on; 0005 answers Pending
 * three times, then Failed, and its money returns to the settlement account.
 */
export const requery = (reference: string): Op<Outcome> =>
  transaction((sql) =>
    Effect.gen(function*() {
      const rows = yield* sql<OperationRow>`SELECT * FROM sandbox_operations WHERE reference = ${reference} FOR UPDATE`
      const op = rows[0]
      if (op === undefined) return notFound(`no transaction with reference ${reference}`)
      const answer = (status: OperationRow["status"]) => ok({ status } satisfies typeof StatusData.Type)
      if (op.kind !== "transfer" || op.status !== "Pending") return answer(op.status)
      const count = op.requery_count + 1
      const behaviour = destinationBehaviour(op.destination_account_number ?? "")
      let status: OperationRow["status"] = "Pending"
      let moneyOut = op.money_out
      if (behaviour === "pendingThenSuccessful" && count >= REQUERIES_UNTIL_SUCCESS) {
        status = "Successful"
      } else if (behaviour === "pendingThenFailed" && count > PENDING_REQUERIES_BEFORE_FAILURE) {
        status = "Failed"
        if (op.money_out) {
          yield* lockLedger(sql)
          yield* moveLedger(sql, { settlement: big(op.amount), paidOut: -big(op.amount) })
          moneyOut = false
        }
      }
      yield* sql`
        UPDATE sandbox_operations
        SET requery_count = ${count}, status = ${status}, money_out = ${moneyOut}, updated_at = now()
        WHERE reference = ${reference}`
      return answer(status)
    })
  )

/**
 * A test deposit: credits the account as an inbound NIP transfer from `DEPOSITOR` would
 * (deposits grows). Returns the outcome and, when applied, the notification for the webhook.
 */
export const deposit = (accountNumber: string, amountKobo: number) =>
  Effect.gen(function*() {
    const amount = yield* requirePositive(amountKobo)
    return yield* transaction((sql) =>
      Effect.gen(function*() {
        const account = yield* lockAccount(sql, accountNumber)
        if (account === undefined) {
          return { outcome: invalidAccount(accountNumber), notification: undefined }
        }
        const reference = `NIP${String(yield* nextSerial(sql, "sandbox_reference_serial")).padStart(9, "0")}`
        const narration = `NIP transfer from ${DEPOSITOR.name}`
        yield* lockLedger(sql)
        yield* moveAccount(sql, accountNumber, amount)
        yield* moveLedger(sql, { deposits: amount })
        const posted = yield* sql<{ readonly posted_at: Date }>`
          INSERT INTO sandbox_postings ${
          sql.insert({
            reference,
            account_number: accountNumber,
            type: "C",
            amount: String(amount),
            narration,
            channel: "nip_inbound",
            counterparty_name: DEPOSITOR.name,
            counterparty_account_number: DEPOSITOR.accountNumber,
            counterparty_bank_code: DEPOSITOR.bankCode
          })
        }
          RETURNING posted_at`
        yield* sql`
          INSERT INTO sandbox_operations ${
          sql.insert({
            reference,
            kind: "deposit",
            account_number: accountNumber,
            amount: String(amount),
            narration,
            status: "Successful",
            response_code: "00",
            response_message: "Approved or completed successfully"
          })
        }`
        const notification: typeof DepositNotification.Type = {
          event: "transaction.posted",
          accountNumber,
          reference,
          type: "C",
          amount: num(amount),
          postedAt: new Date(posted[0]!.posted_at).toISOString()
        }
        return { outcome: ok({ reference }), notification }
      })
    )
  })

// -------------------------------------------------------------------------------------------------
// Reference data
// -------------------------------------------------------------------------------------------------

export const bvn = (value: string): Effect.Effect<Outcome, BadRequest> => {
  if (!isBvnShaped(value)) return Effect.fail(badRequest("a BVN is 11 digits"))
  const entry = lookupBvn(value)
  if (entry === undefined) return Effect.succeed(notFound("BVN not found"))
  const data: typeof BvnData.Type = entry
  return Effect.succeed(ok(data))
}

// -------------------------------------------------------------------------------------------------
// Conservation
// -------------------------------------------------------------------------------------------------

export type LedgerTotals = typeof Ledger.Type

const readLedger = (sql: Sql): Effect.Effect<LedgerTotals, SqlError> =>
  Effect.gen(function*() {
    const rows = yield* sql<LedgerRow & { readonly customers: string | null }>`
      SELECT l.settlement, l.paid_out, l.deposits, (SELECT sum(balance) FROM sandbox_accounts) AS customers
      FROM sandbox_ledger l WHERE l.id = 1`
    const row = rows[0]
    if (row === undefined) return yield* Effect.dieMessage("sandbox_ledger has no row: migrations not applied?")
    return {
      customerBalances: num(big(row.customers)),
      settlement: num(big(row.settlement)),
      paidOut: num(big(row.paid_out)),
      deposits: num(big(row.deposits))
    }
  })

/** The totals of `GET /sandbox/ledger`. */
export const ledger: Op<LedgerTotals> = withSql(readLedger)

/**
 * Checks that money was neither created nor lost: customers + settlement + paidOut = deposits, no
 * negative customer balance or settlement, every balance equals its postings, deposits equal the
 * inbound postings and paidOut equals the transfers whose money is out. Read in one transaction
 * (one snapshot on PostgreSQL: REPEATABLE READ).
 */
export const conservation: Effect.Effect<
  { readonly ok: boolean; readonly ledger: LedgerTotals; readonly problems: ReadonlyArray<string> },
  SqlError,
  SqlClient.SqlClient
> = transaction((sql) =>
  Effect.gen(function*() {
    yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`
    const totals = yield* readLedger(sql)
    const problems: Array<string> = []
    if (totals.customerBalances + totals.settlement + totals.paidOut !== totals.deposits) {
      problems.push(
        `customers ${totals.customerBalances} + settlement ${totals.settlement} + paidOut ${totals.paidOut} ≠ deposits ${totals.deposits}`
      )
    }
    if (totals.settlement < 0) problems.push(`settlement is negative: ${totals.settlement}`)
    const negative = yield* sql<{ readonly account_number: string; readonly balance: string }>`
      SELECT account_number, balance FROM sandbox_accounts WHERE balance < 0`
    for (const n of negative) problems.push(`account ${n.account_number} is negative: ${n.balance}`)
    const drift = yield* sql<{ readonly account_number: string; readonly balance: string; readonly posted: string }>`
      SELECT a.account_number, a.balance,
             coalesce(sum(CASE p.type WHEN 'C' THEN p.amount ELSE -p.amount END), 0) AS posted
      FROM sandbox_accounts a LEFT JOIN sandbox_postings p ON p.account_number = a.account_number
      GROUP BY a.account_number, a.balance
      HAVING a.balance <> coalesce(sum(CASE p.type WHEN 'C' THEN p.amount ELSE -p.amount END), 0)`
    for (const d of drift) problems.push(`account ${d.account_number}: balance ${d.balance} but postings sum to ${d.posted}`)
    const sums = yield* sql<{ readonly inbound: string; readonly out: string }>`
      SELECT (SELECT coalesce(sum(amount), 0) FROM sandbox_postings WHERE channel = 'nip_inbound') AS inbound,
             (SELECT coalesce(sum(amount), 0) FROM sandbox_operations WHERE kind = 'transfer' AND money_out) AS out`
    const inbound = big(sums[0]?.inbound)
    const out = big(sums[0]?.out)
    if (inbound !== BigInt(totals.deposits)) problems.push(`deposits ${totals.deposits} but inbound postings sum to ${inbound}`)
    if (out !== BigInt(totals.paidOut)) problems.push(`paidOut ${totals.paidOut} but transfers out sum to ${out}`)
    return { ok: problems.length === 0, ledger: totals, problems }
  })
)
