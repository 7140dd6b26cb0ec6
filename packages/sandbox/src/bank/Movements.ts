/**
 * Money movement at the sandbox bank, and its reference data (BVN). Money: customer balances +
 * settlement + paidOut = deposits, always.
 *  - deposit: outside world → customer (deposits grows)
 *  - debit: customer → settlement;  credit: settlement → customer
 *  - transfer: settlement → paidOut; a transfer that fails after being pending: paidOut → settlement
 * The settlement account never goes negative: a credit or transfer it cannot cover is refused "51".
 */
import type { BvnData, DepositNotification, NameEnquiryData, PostingRequest, StatusData, TransferRequest } from "@app/adapters/corebanking/Wire"
import { Effect } from "effect"
import { DEPOSITOR, destinationBehaviour, genericAccountName, isBvnShaped, isReachableDestination, lookupBvn, newSessionId, PENDING_REQUERIES_BEFORE_FAILURE, REQUERIES_UNTIL_SUCCESS, SANDBOX_BANK } from "../TestData.js"
import { BadRequest, type Outcome, badRequest, describeMs, insufficientFunds, invalidAccount, notFound, notPermitted, ok, pending, requirePositive, requireReference, systemMalfunction } from "./Answers.js"
import { claim, settle } from "./Claims.js"
import { type BankRules, type Op, type OperationRow, big, findAccount, lienTotal, lockAccount, lockLedger, moveAccount, moveLedger, nextSerial, num, transaction, withSql } from "./Store.js"

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
