/**
 * The CoreBanking port over BankOne (docs/bankone.md): one definition per operation.
 *
 * | operation              | BankOne call                                   | retried | notes |
 * |------------------------|------------------------------------------------|---------|-------|
 * | openAccount            | CreateAccountQuick (token in query), ActivatePND | yes   | tracking reference deduplicated (B29); a new account gets PND at once |
 * | findAccountByReference | GetAccountByTransactionTrackingRef             | yes     | read (B31) |
 * | account                | AccountEnquiry                                 | yes     | naira balances → kobo; liens from the journal (B1–B5) |
 * | history                | GetTransactions (token in query)               | yes     | credits we did not post are inbound deposits (B32, B33) |
 * | activatePnd / deactivatePnd | ActivatePND / DeActivatePND               | yes     | flags (B6) |
 * | placeLien / removeLien | PlaceLien (naira) / UnPlaceLien                | yes     | journaled before sending (B7–B9) |
 * | freeze / unfreeze      | FreezeAccount / UnFreezeAccount                | NO      | our ReferenceID, quoted to unfreeze (B10) |
 * | debit / credit         | CoreTransactions/Debit, Credit (kobo)          | yes     | journaled before sending (B12–B15) |
 * | nameEnquiry            | Transfer/NameEnquiry                           | yes     | read (B34) |
 * | transfer               | Transfer/InterbankTransfer (kobo)              | yes     | journaled before sending (B18–B21) |
 * | requery                | …/TransactionStatusQuery from the journal      | yes     | not sent = not_found; TSQ interval (B22–B27) |
 * | bvnLookup              | Account/BVN/GetBVNDetails                      | yes     | read (B35) |
 * | banks                  | BillsPayment/GetCommercialBanks (token in path) | yes    | read (B36) |
 * | TestFunding.deposit    | POST /sandbox/deposits (the sandbox's own route) | NO    | development only |
 */
import {
  type Bank,
  type BvnRecord,
  CoreBanking,
  type NameEnquiryResult,
  type ProviderAccount,
  ProviderRefused,
  ProviderUnknownOutcome,
  type TestFunding
} from "@app/domain"
import { type Context, Effect, Either, Option, Random, Redacted } from "effect"
import type { AttemptError } from "../Attempt.js"
import { checkReference } from "../Mapping.js"
import { type Balances, balancesOf, snapshotOf } from "./BankOneAccount.js"
import type { BankOneSettings } from "./BankOneConfig.js"
import type { BankOneJournal, RequestKind } from "./BankOneJournal.js"
import { koboString, nairaString } from "./BankOneMoney.js"
import * as Outcomes from "./BankOneOutcomes.js"
import { makeHistory, makeRequery } from "./BankOneReads.js"
import { decoded, inPath, narration, post, reading, refuse, webApi, webApiPost } from "./BankOneRequests.js"
import type { RunBankOne } from "./BankOneTransport.js"
import * as Wire from "./BankOneWire.js"
import { DepositRequest } from "../Wire.js"

const LIEN_REASON = "kobo-plans commitment"
const UNLIEN_REASON = "kobo-plans commitment released"
const UNFREEZE_REASON = "kobo-plans unfreeze"

/** A 12-character freeze ReferenceID: "F", then the time and randomness in base 36. */
const freezeReference = (nowMs: number, random: number): string =>
  `F${nowMs.toString(36).toUpperCase().padStart(7, "0").slice(-7)}${Math.floor(random * 36 ** 4).toString(36).toUpperCase().padStart(4, "0")}`.slice(0, 12)

export interface BankOneParts {
  readonly run: RunBankOne
  /** the transport of the sandbox's test route (bearer CORE_BANKING_TOKEN) */
  readonly runTest: RunBankOne
  readonly settings: BankOneSettings
  readonly journal: BankOneJournal
  /** a staff alert (the adapter cannot use what the bank answered) */
  readonly alert: (input: { readonly dedupKey: string; readonly message: string }) => Effect.Effect<void>
}

export const makeBankOneOperations = ({ alert, journal, run, runTest, settings }: BankOneParts) => {
  const token = Redacted.value(settings.token)
  /** name enquiries' BVN and KYC by session id, for the transfer that quotes it (bounded) */
  const sessions = new Map<string, { readonly bvn: string; readonly kyc: string }>()

  /** an Account API change: the token as `AuthenticationCode` in the body (B6, B7, B9, B10) */
  const change = (
    operation: string,
    path: string,
    body: { readonly AccountNo: string; readonly ReferenceID?: string; readonly Reason?: string },
    retry = true
  ) =>
    run({
      operation,
      reference: body.ReferenceID,
      retry,
      request: body.ReferenceID === undefined
        ? post(path, Wire.AccountRequest, { AccountNo: body.AccountNo, AuthenticationCode: token })
        : post(path, Wire.ReferencedRequest, {
          AccountNo: body.AccountNo,
          AuthenticationCode: token,
          ReferenceID: body.ReferenceID,
          Reason: body.Reason ?? ""
        }),
      read: reading(operation, Wire.AccountChangeAnswer, true, Outcomes.changeOutcome)
    })

  const pnd = (operation: "activatePnd" | "deactivatePnd", path: string) => (accountNumber: string) =>
    change(operation, path, { AccountNo: accountNumber })

  /** records the request, refusing a reference already used for another request */
  const journaled = (operation: string, kind: RequestKind, reference: string, accountNumber: string, amountKobo: bigint) =>
    Effect.flatMap(journal.record({ reference, kind, accountNumber, amountKobo }), (row) =>
      row.kind !== kind || row.accountNumber !== accountNumber || row.amountKobo !== amountKobo
        ? Effect.fail(refuse(operation, `reference ${reference} was already used for another request`))
        : Effect.succeed(row))

  const amount = (operation: string, check: ReturnType<typeof koboString>) =>
    check.ok ? Effect.succeed(check.value) : Effect.fail(refuse(operation, check.reason))

  const posting = (operation: "debit" | "credit") =>
  (input: { accountNumber: string; amountKobo: bigint; reference: string; narration: string }) =>
    Effect.gen(function*() {
      const reference = yield* checkReference(operation, input.reference)
      const kobo = yield* amount(operation, koboString(input.amountKobo))
      yield* journaled(operation, operation, reference, input.accountNumber, input.amountKobo)
      yield* run({
        operation,
        reference,
        retry: true,
        request: post(operation === "debit" ? Wire.Paths.debit : Wire.Paths.credit, Wire.PostingRequest, {
          RetrievalReference: reference,
          AccountNumber: input.accountNumber,
          NibssCode: settings.institutionCode,
          Amount: kobo,
          Fee: "0",
          Narration: narration(input.narration),
          Token: token,
          GLCode: operation === "debit" ? settings.settlementGlCode : settings.creditGlCode
        }),
        read: reading(operation, Wire.PostingAnswer, true, Outcomes.postingOutcome)
      })
      yield* journal.setState(reference, "applied")
    })

  const createdAccount = (answer: typeof Wire.CreateAccountAnswer.Type): Outcomes.Outcome<Option.Option<ProviderAccount>> =>
    answer.IsSuccessful === true && typeof answer.Message === "object" && answer.Message !== null
      ? { _tag: "Done", value: Option.some({ accountNumber: answer.Message.AccountNumber, accountName: (answer.Message.FullName ?? "").trim() }) }
      : answer.IsSuccessful === false
      ? { _tag: "Done", value: Option.none() }
      : { _tag: "Unknown", detail: "account answer without IsSuccessful" }

  const findAccountByReference = (reference: string) =>
    Effect.flatMap(checkReference("findAccountByReference", reference), (ref) =>
      run({
        operation: "findAccountByReference",
        reference: ref,
        retry: true,
        request: webApi(Wire.Paths.accountByTrackingRef, token, { transactionTrackingRef: ref }),
        read: reading("findAccountByReference", Wire.CreateAccountAnswer, false, createdAccount)
      }))

  const requery = makeRequery({ journal, run, settings })

  const coreBanking: Context.Tag.Service<CoreBanking> = {
    openAccount: (input) =>
      Effect.gen(function*() {
        const reference = yield* checkReference("openAccount", input.reference)
        const opened = yield* run({
          operation: "openAccount",
          reference,
          retry: true,
          request: webApiPost(Wire.Paths.createAccountQuick, token, Wire.CreateAccountQuickRequest, {
            TransactionTrackingRef: reference,
            AccountOpeningTrackingRef: reference,
            ProductCode: settings.productCode,
            LastName: input.lastName,
            OtherNames: [input.firstName, input.otherNames ?? ""].join(" ").trim(),
            PhoneNo: input.phone,
            Gender: input.gender === "female" ? "0" : input.gender === "male" ? "1" : "",
            PlaceOfBirth: "",
            DateOfBirth: input.dateOfBirth,
            Address: "",
            AccountOfficerCode: settings.accountOfficerCode,
            Email: input.email,
            NotificationPreference: 0,
            TransactionPermission: "0",
            AccountTier: 1
          }),
          read: reading("openAccount", Wire.CreateAccountAnswer, true, (answer) => {
            const read = createdAccount(answer)
            return read._tag === "Done" && Option.isSome(read.value)
              ? { _tag: "Done", value: read.value.value }
              : { _tag: "Unknown", detail: "account opening not confirmed" }
          })
        })
        // the sandbox's rule and ours: an account starts under Post-No-Debit
        yield* pnd("activatePnd", Wire.Paths.activatePnd)(opened.accountNumber).pipe(
          Effect.mapError((e) => new ProviderUnknownOutcome({ operation: "openAccount", detail: `opened, but PND not confirmed: ${e._tag}` }))
        )
        return opened
      }),

    findAccountByReference,

    account: (accountNumber) =>
      run({
        operation: "account",
        reference: undefined,
        retry: true,
        request: post(Wire.Paths.accountEnquiry, Wire.AccountRequest, { AccountNo: accountNumber, AuthenticationCode: token }),
        read: (json): Either.Either<Balances, AttemptError> => {
          // a failed enquiry has no balances: read its flags first
          const flags = decoded("account", Wire.AccountChangeAnswer, false)(json)
          if (Either.isRight(flags) && (flags.right.RequestStatus === false || (json as { IsSuccessful?: unknown }).IsSuccessful === false)) {
            return Either.left(new ProviderRefused({ operation: "account", code: "07", reason: flags.right.ResponseDescription ?? "invalid account" }))
          }
          return Either.flatMap(decoded("account", Wire.AccountEnquiryAnswer, false)(json), balancesOf)
        }
      }).pipe(
        Effect.tapError((e) =>
          e._tag === "ProviderUnknownOutcome" && e.detail.includes("sub-kobo")
            ? Effect.logError("bankone: sub-kobo balance refused; the bank's ledger and ours cannot agree").pipe(
              Effect.annotateLogs({ operation: "account" }),
              Effect.zipRight(alert({
                dedupKey: `bankone_sub_kobo:${accountNumber}`,
                message: `BankOne reported a balance of account ${accountNumber} with a fraction of a kobo. The service ` +
                  "refuses to round it, so movements on this account wait (docs/bankone.md B3): ask the bank why its " +
                  "ledger holds sub-kobo amounts."
              }))
            )
            : Effect.void
        ),
        Effect.flatMap((balances) => snapshotOf(balances, journal))
      ),

    history: makeHistory({ journal, run, settings }),

    activatePnd: pnd("activatePnd", Wire.Paths.activatePnd),
    deactivatePnd: pnd("deactivatePnd", Wire.Paths.deactivatePnd),

    placeLien: (input) =>
      Effect.gen(function*() {
        const reference = yield* checkReference("placeLien", input.reference)
        const naira = yield* amount("placeLien", nairaString(input.amountKobo))
        yield* journaled("placeLien", "lien", reference, input.accountNumber, input.amountKobo)
        yield* run({
          operation: "placeLien",
          reference,
          retry: true,
          request: post(Wire.Paths.placeLien, Wire.LienRequest, {
            AccountNo: input.accountNumber,
            AuthenticationCode: token,
            ReferenceID: reference,
            Amount: naira,
            Reason: LIEN_REASON
          }),
          read: reading("placeLien", Wire.AccountChangeAnswer, true, Outcomes.changeOutcome)
        })
        yield* journal.setState(reference, "applied")
      }),

    /**
     * BankOne does not list liens and its failure answers are ambiguous, so the account is read first:
     * a lien the balances do not show (never placed, or already removed) is "25" not found, without
     * calling UnPlaceLien (the port's contract: not found is not a refusal to act on).
     */
    removeLien: (input) =>
      Effect.gen(function*() {
        const reference = yield* checkReference("removeLien", input.reference)
        const snapshot = yield* coreBanking.account(input.accountNumber)
        if (!snapshot.liens.some((lien) => lien.reference === reference)) {
          yield* journal.setState(reference, "removed")
          return yield* Effect.fail(
            new ProviderRefused({ operation: "removeLien", code: Outcomes.NOT_FOUND_CODE, reason: `no lien ${reference} on the account` })
          )
        }
        yield* journal.setState(reference, "removing")
        yield* change("removeLien", Wire.Paths.removeLien, { AccountNo: input.accountNumber, ReferenceID: reference, Reason: UNLIEN_REASON })
        yield* journal.setState(reference, "removed")
      }).pipe(
        // the account read's own refusal ("07") or unknown outcome is the removal's
        Effect.mapError((e) => (e._tag === "ProviderUnknownOutcome" ? new ProviderUnknownOutcome({ operation: "removeLien", detail: e.detail }) : e))
      ),

    freeze: (input) =>
      Effect.gen(function*() {
        const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const reference = freezeReference(now, yield* Random.next)
        yield* change("freeze", Wire.Paths.freeze, { AccountNo: input.accountNumber, ReferenceID: reference, Reason: input.reason }, false)
        return { freezeReference: reference }
      }),

    unfreeze: (input) =>
      change("unfreeze", Wire.Paths.unfreeze, { AccountNo: input.accountNumber, ReferenceID: input.freezeReference, Reason: UNFREEZE_REASON }, false),

    debit: posting("debit"),
    credit: posting("credit"),

    nameEnquiry: (input) =>
      run({
        operation: "nameEnquiry",
        reference: undefined,
        retry: true,
        request: post(Wire.Paths.nameEnquiry, Wire.NameEnquiryRequest, { AccountNumber: input.accountNumber, BankCode: input.bankCode, Token: token }),
        read: reading("nameEnquiry", Wire.NameEnquiryAnswer, false, (answer): Outcomes.Outcome<NameEnquiryResult & { bvn: string; kyc: string }> => {
          const code = (answer.ResponseCode ?? "").trim()
          if (answer.IsSuccessful === true && (answer.SessionID ?? "") !== "" && (answer.Name ?? "").trim() !== "") {
            return { _tag: "Done", value: { accountName: answer.Name!.trim(), sessionId: answer.SessionID!, bvn: answer.BVN ?? "", kyc: answer.KYC ?? "" } }
          }
          return answer.IsSuccessful === false && (code === "07" || code === "25")
            ? { _tag: "Refused", code: "07", reason: answer.ResponseMessage ?? "invalid account" }
            : { _tag: "Unknown", detail: `name enquiry answered IsSuccessful=${String(answer.IsSuccessful)} ResponseCode="${code}"` }
        })
      }).pipe(
        Effect.map(({ bvn, kyc, ...result }) => {
          if (sessions.size >= 10_000) sessions.delete(sessions.keys().next().value!)
          sessions.set(result.sessionId, { bvn, kyc })
          return result
        })
      ),

    transfer: (input) =>
      Effect.gen(function*() {
        const reference = yield* checkReference("transfer", input.reference)
        const kobo = yield* amount("transfer", koboString(input.amountKobo))
        yield* journaled("transfer", "transfer", reference, settings.payoutAccountNumber, input.amountKobo)
        const session = sessions.get(input.nameEnquirySessionId)
        const status = yield* run({
          operation: "transfer",
          reference,
          retry: true,
          request: post(Wire.Paths.interbankTransfer, Wire.InterbankTransferRequest, {
            Amount: kobo,
            ...Option.match(settings.appzoneAccount, { onNone: () => ({}), onSome: (account) => ({ AppzoneAccount: account }) }),
            Token: token,
            PayerAccountNumber: settings.payoutAccountNumber,
            Payer: settings.payoutAccountName,
            RecieversBankCode: input.destinationBankCode,
            ReceiverAccountNumber: input.destinationAccountNumber,
            ReceiverName: input.destinationAccountName,
            ReceiverPhoneNumber: "",
            ReceiverAccountType: "",
            ReceiverKYC: session?.kyc ?? "",
            ReceiverBVN: session?.bvn ?? "",
            TransactionReference: reference,
            Narration: narration(input.narration),
            NIPSessionID: input.nameEnquirySessionId
          }),
          read: reading("transfer", Wire.InterbankTransferAnswer, true, Outcomes.transferOutcome)
        })
        if (status === "successful") yield* journal.setState(reference, "applied")
        return status
      }),

    requery,

    bvnLookup: (bvn) =>
      run({
        operation: "bvnLookup",
        reference: undefined,
        retry: true,
        request: post(Wire.Paths.bvn, Wire.BvnRequest, { BVN: bvn, Token: token }),
        read: reading("bvnLookup", Wire.BvnAnswer, false, (answer): Outcomes.Outcome<Option.Option<BvnRecord>> => {
          const details = answer.BVNDetails
          if (answer.RequestStatus !== true || details === undefined || details === null) return { _tag: "Done", value: Option.none() }
          const dateOfBirth = Outcomes.isoDateOfBirth(details.DOB)
          return dateOfBirth === undefined
            ? { _tag: "Unknown", detail: "BVN date of birth not understood" }
            : {
              _tag: "Done",
              value: Option.some({ firstName: details.FirstName, lastName: details.LastName, phone: details.phoneNumber, dateOfBirth })
            }
        })
      }),

    banks: run({
      operation: "banks",
      reference: undefined,
      retry: true,
      request: inPath(Wire.Paths.commercialBanks, token),
      read: (json) =>
        Either.map(
          decoded("banks", Wire.CommercialBanksAnswer, false)(json),
          (banks): ReadonlyArray<Bank> => banks.map((b) => ({ bankCode: b.Code, bankName: b.Name }))
        )
    })
  }

  const testFunding: Context.Tag.Service<TestFunding> = {
    deposit: (input) =>
      runTest({
        operation: "deposit",
        reference: undefined,
        retry: false,
        request: post("/sandbox/deposits", DepositRequest, { accountNumber: input.accountNumber, amountKobo: Number(input.amountKobo) }),
        read: (json) =>
          (json as { responseCode?: unknown } | null)?.responseCode === "00"
            ? Either.right(undefined)
            : Either.left(new ProviderUnknownOutcome({ operation: "deposit", detail: "the sandbox did not confirm the deposit" }))
      })
  }

  return { coreBanking, testFunding }
}

export type BankOneOperations = ReturnType<typeof makeBankOneOperations>
