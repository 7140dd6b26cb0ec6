/**
 * The sandbox bank's BankOne dialect (docs/bankone.md): a second HTTP front on the SAME bank — the
 * same state, rules, journal and conservation — that speaks BankOne's third-party API instead of the
 * generic protocol. Each route decodes BankOne's request (BankOneWire), checks the token where
 * BankOne carries it for that call (body `AuthenticationCode` / `Token`, query `authtoken`, path),
 * converts the amounts (kobo strings, naira liens), calls the bank operation the generic front calls
 * (bank/Accounts, bank/Movements), and writes the bank's outcome as BankOne writes its answers
 * (`RequestStatus`/`ResponseStatus`, `IsSuccessful`/`ResponseCode`, `IsSuccessFul`/`Status`, naira
 * balances as JSON numbers with four decimals).
 *
 * A wrong token is HTTP 401 (B37); an unknown route 404; a body that is not a BankOne request 400
 * (ASP.NET's model binding). The test-only routes (`/sandbox/*`) are the generic front's, with its
 * bearer token, in both dialects.
 */
import * as Money from "@app/adapters/corebanking/bankone/BankOneMoney"
import * as Wire from "@app/adapters/corebanking/bankone/BankOneWire"
import type { AccountData, AccountDetails, BvnData, NameEnquiryData, WireTransaction } from "@app/adapters/corebanking/Wire"
import { Either, Schema } from "effect"
import { timingSafeEqual } from "node:crypto"
import * as Accounts from "../bank/Accounts.js"
import type { Outcome } from "../bank/Answers.js"
import * as Movements from "../bank/Movements.js"
import type { BankRules, BankState } from "../bank/Store.js"
import { BANKS } from "../TestData.js"

export interface FrontAnswer {
  readonly status: number
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

export interface FrontRouted {
  readonly answer: FrontAnswer
  readonly delayMs?: number
}

export interface BankOneFrontSettings {
  /** BankOne's API token callers must carry */
  readonly token: string
  /** when set, debits and credits must quote this NibssCode */
  readonly institutionCode?: string | undefined
  readonly slowTransferDelayMs: number
}

const json = (body: unknown, status = 200): FrontRouted => ({
  answer: { status, body: JSON.stringify(body), headers: { "content-type": "application/json; charset=utf-8" } }
})
const UNAUTHORIZED = json({ IsSuccessful: false, ResponseMessage: "Invalid or missing token" }, 401)
const INVALID = (message: string) => json({ Message: `The request is invalid. ${message}` }, 400)

const APPROVED = "Approved by Financial Institution"

/** BankOne-style JSON whose amount placeholders become raw number literals (naira balances). */
const withNumbers = (body: Record<string, unknown>, numbers: Record<string, string>): FrontRouted => {
  let text = JSON.stringify(body)
  for (const [placeholder, literal] of Object.entries(numbers)) text = text.replace(`"${placeholder}"`, literal)
  return { answer: { status: 200, body: text, headers: { "content-type": "application/json; charset=utf-8" } } }
}

const decoders = {
  account: Schema.decodeUnknownEither(Wire.AccountRequest),
  lien: Schema.decodeUnknownEither(Wire.LienRequest),
  referenced: Schema.decodeUnknownEither(Wire.ReferencedRequest),
  posting: Schema.decodeUnknownEither(Wire.PostingRequest),
  statusQuery: Schema.decodeUnknownEither(Wire.StatusQueryRequest),
  nameEnquiry: Schema.decodeUnknownEither(Wire.NameEnquiryRequest),
  transfer: Schema.decodeUnknownEither(Wire.InterbankTransferRequest),
  bvn: Schema.decodeUnknownEither(Wire.BvnRequest),
  createAccount: Schema.decodeUnknownEither(Wire.CreateAccountQuickRequest)
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A change of the Account API, answered as BankOne does (B6, B7, B10). */
const changed = (outcome: Outcome, success: string): FrontRouted =>
  outcome.code === "00"
    ? json({ RequestStatus: true, ResponseDescription: success, ResponseStatus: "Successful" })
    : json({ RequestStatus: false, ResponseDescription: outcome.message, ResponseStatus: "Failed" })

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
/** BankOne's BVN dates read "01-Jan-1990" (the adapter accepts this and ISO dates) */
const dmy = (iso: string): string => {
  const [y, m, d] = iso.split("-")
  return `${d}-${months[Number(m) - 1]}-${y}`
}

const kindOfType: Record<string, "debit" | "credit" | "transfer"> = {
  [Wire.TransactionTypes.debit]: "debit",
  [Wire.TransactionTypes.credit]: "credit",
  [Wire.TransactionTypes.transfer]: "transfer"
}

const statusWord = (code: string): string | null =>
  code === "00" ? "Successful" : code === "09" ? "Pending" : ["96", "94", "26", "06", "68"].includes(code) ? null : "Failed"

/** The BankOne dialect's routes over `state`; undefined for a path it does not serve (404). */
export const bankOneFront = (state: BankState, rules: BankRules, settings: BankOneFrontSettings) => {
  const expected = Buffer.from(settings.token)
  const tokenOk = (presented: string | null | undefined): boolean => {
    if (presented === null || presented === undefined) return false
    const given = Buffer.from(presented)
    const same = given.length === expected.length
    return timingSafeEqual(same ? given : expected, expected) && same
  }

  /** a POST route: parse, decode, check the token field, run */
  const body = <A>(
    decode: (u: unknown) => Either.Either<A, unknown>,
    tokenOf: (a: A) => string,
    run: (a: A) => FrontRouted
  ) =>
  (text: string): FrontRouted => {
    const decoded = decode(parse(text))
    if (Either.isLeft(decoded)) return INVALID("The body is not this call's request.")
    if (!tokenOk(tokenOf(decoded.right))) return UNAUTHORIZED
    return run(decoded.right)
  }

  const createdAccount = (data: typeof AccountData.Type) => ({
    IsSuccessful: true,
    CustomerIDInString: data.accountNumber.slice(-6),
    Message: {
      AccountNumber: data.accountNumber,
      BankoneAccountNumber: `0001${data.accountNumber}`,
      CustomerID: data.accountNumber.slice(-6),
      FullName: data.accountName,
      CreationMessage: null,
      Id: Number(data.accountNumber.slice(-6))
    },
    TransactionTrackingRef: data.customerReference,
    Page: null
  })

  const routes: Record<string, (text: string, query: URLSearchParams) => FrontRouted> = {
    [Wire.Paths.accountEnquiry]: body(decoders.account, (r) => r.AuthenticationCode, (r) => {
      const outcome = Accounts.accountDetails(state, r.AccountNo)
      if (outcome.code !== "00") {
        return json({ IsSuccessful: false, RequestStatus: false, ResponseDescription: outcome.message, ResponseStatus: "Failed" })
      }
      const d = outcome.data as typeof AccountDetails.Type
      return withNumbers({
        Name: d.accountName,
        FirstName: null,
        LastName: null,
        Email: null,
        PhoneNo: null,
        Nuban: d.accountNumber,
        Number: `0001${d.accountNumber}`,
        ProductCode: "101",
        PhoneNuber: null,
        BVN: null,
        AvailableBalance: "__AVAILABLE__",
        LedgerBalance: "__LEDGER__",
        Status: "Active",
        Tier: "1",
        MaximumBalance: null,
        MaximumDeposit: null,
        IsSuccessful: true,
        ResponseMessage: null,
        PNDStatus: d.pndActive ? "Active" : "InActive",
        LienStatus: d.liens.length > 0 ? "Active" : "InActive",
        FreezeStatus: d.frozen ? "Active" : "InActive",
        RequestStatus: true,
        ResponseDescription: "Successful",
        ResponseStatus: null
      }, {
        __AVAILABLE__: Money.koboToNaira4(BigInt(d.withdrawableBalance)),
        __LEDGER__: Money.koboToNaira4(BigInt(d.ledgerBalance))
      })
    }),
    [Wire.Paths.activatePnd]: body(decoders.account, (r) => r.AuthenticationCode, (r) =>
      changed(Accounts.setPnd(state, r.AccountNo, true), "PND successfully activated on account.")),
    [Wire.Paths.deactivatePnd]: body(decoders.account, (r) => r.AuthenticationCode, (r) =>
      changed(Accounts.setPnd(state, r.AccountNo, false), "PND successfully deactivated on account.")),
    [Wire.Paths.placeLien]: body(decoders.lien, (r) => r.AuthenticationCode, (r) => {
      const kobo = Money.nairaToKobo(r.Amount)
      if (!kobo.ok || kobo.kobo <= 0n) return changed({ code: "26", message: `Invalid lien amount: ${r.Amount}` }, "")
      return changed(
        Accounts.placeLien(state, r.AccountNo, { reference: r.ReferenceID, amount: Number(kobo.kobo), reason: r.Reason }, rules),
        "Lien sucessfully placed on account."
      )
    }),
    [Wire.Paths.removeLien]: body(decoders.referenced, (r) => r.AuthenticationCode, (r) =>
      changed(Accounts.removeLien(state, r.AccountNo, r.ReferenceID), "Lien successfully removed from account.")),
    [Wire.Paths.freeze]: body(decoders.referenced, (r) => r.AuthenticationCode, (r) => {
      const outcome = Accounts.freeze(state, r.AccountNo, r.Reason, r.ReferenceID)
      const current = (outcome.data as { freezeReference?: string } | undefined)?.freezeReference
      return outcome.code === "00" && current !== r.ReferenceID
        ? changed({ code: "57", message: "Account is already frozen under another reference" }, "")
        : changed(outcome, `Account frozen - ${r.AccountNo}`)
    }),
    [Wire.Paths.unfreeze]: body(decoders.referenced, (r) => r.AuthenticationCode, (r) =>
      changed(Accounts.unfreeze(state, r.AccountNo, r.ReferenceID), "Account successfully unfrozen.")),
    [Wire.Paths.debit]: body(decoders.posting, (r) => r.Token, (r) => posting("debit", r)),
    [Wire.Paths.credit]: body(decoders.posting, (r) => r.Token, (r) => posting("credit", r)),
    [Wire.Paths.statusQuery]: body(decoders.statusQuery, (r) => r.Token, (r) => statusQuery(r, false)),
    [Wire.Paths.interbankStatusQuery]: body(decoders.statusQuery, (r) => r.Token, (r) => statusQuery(r, true)),
    [Wire.Paths.nameEnquiry]: body(decoders.nameEnquiry, (r) => r.Token, (r) => {
      const outcome = Movements.nameEnquiry(state, r.AccountNumber, r.BankCode)
      if (outcome.code !== "00") return json({ IsSuccessful: false, ResponseCode: outcome.code, ResponseMessage: outcome.message })
      const d = outcome.data as typeof NameEnquiryData.Type
      return json({ IsSuccessful: true, SessionID: d.sessionId, Name: d.accountName, BVN: "22222222222", KYC: "1", ResponseCode: "00", ResponseMessage: "Successful" })
    }),
    [Wire.Paths.interbankTransfer]: body(decoders.transfer, (r) => r.Token, (r) => {
      const kobo = Money.koboFromText(r.Amount)
      if (!kobo.ok || [r.PayerAccountNumber, r.Payer, r.TransactionReference].some((f) => f.trim() === "")) {
        return INVALID("Amount, PayerAccountNumber, Payer and TransactionReference are required.")
      }
      const { outcome, slow } = Movements.transfer(state, {
        transactionReference: r.TransactionReference,
        amount: Number(kobo.kobo),
        destinationAccountNumber: r.ReceiverAccountNumber,
        destinationBankCode: r.RecieversBankCode,
        destinationAccountName: r.ReceiverName,
        nameEnquirySessionId: r.NIPSessionID,
        narration: r.Narration
      }, rules)
      const status = statusWord(outcome.code)
      const routed = json({
        Status: status,
        StatusDescription: outcome.message,
        ReferenceID: 0,
        UniqueIdentifier: outcome.code === "00" ? `0200${r.TransactionReference}` : null,
        IsSuccessFul: outcome.code === "00" || outcome.code === "09",
        ResponseMessage: outcome.message,
        ResponseCode: outcome.code,
        Reference: r.TransactionReference,
        SessionID: null,
        RequestStatus: true,
        ResponseDescription: null,
        ResponseStatus: status
      })
      return slow ? { ...routed, delayMs: settings.slowTransferDelayMs } : routed
    }),
    [Wire.Paths.bvn]: body(decoders.bvn, (r) => r.Token, (r) => {
      const outcome = Movements.bvn(r.BVN)
      if (outcome.code !== "00") return json({ RequestStatus: false, ResponseMessage: outcome.message, BVNDetails: null })
      const d = outcome.data as typeof BvnData.Type
      return json({
        RequestStatus: true,
        ResponseMessage: "Successful",
        BVNDetails: { BVN: d.bvn, FirstName: d.firstName, LastName: d.lastName, OtherNames: null, DOB: dmy(d.dateOfBirth), phoneNumber: d.phone }
      })
    }),
    [Wire.Paths.createAccountQuick]: (text, query) => {
      if (!tokenOk(query.get("authtoken"))) return UNAUTHORIZED
      const decoded = decoders.createAccount(parse(text))
      if (Either.isLeft(decoded)) return INVALID("The body is not an account opening.")
      const r = decoded.right
      if (r.ProductCode.trim() === "" || r.AccountOfficerCode.trim() === "") {
        return json({ IsSuccessful: false, CustomerIDInString: null, Message: "ProductCode and AccountOfficerCode are required", TransactionTrackingRef: r.TransactionTrackingRef, Page: null })
      }
      const [firstName = "", ...others] = r.OtherNames.trim().split(/\s+/)
      const outcome = Accounts.openAccount(state, {
        customerReference: r.TransactionTrackingRef,
        firstName,
        lastName: r.LastName,
        otherNames: others.length > 0 ? others.join(" ") : null,
        phone: r.PhoneNo,
        email: r.Email,
        dateOfBirth: r.DateOfBirth,
        gender: r.Gender === "0" ? "female" : r.Gender === "1" ? "male" : null
      })
      return outcome.code === "00"
        ? json(createdAccount(outcome.data as typeof AccountData.Type))
        : json({ IsSuccessful: false, CustomerIDInString: null, Message: outcome.message, TransactionTrackingRef: r.TransactionTrackingRef, Page: null })
    }
  }

  const posting = (kind: "debit" | "credit", r: typeof Wire.PostingRequest.Type): FrontRouted => {
    const kobo = Money.koboFromText(r.Amount)
    if (!kobo.ok || !/^\d{6}$/.test(r.NibssCode) || r.GLCode.trim() === "" ||
        (settings.institutionCode !== undefined && r.NibssCode !== settings.institutionCode)) {
      return json({ IsSuccessful: false, ResponseMessage: "Invalid Amount, NibssCode or GLCode", ResponseCode: "12", Reference: null })
    }
    const outcome = Movements.posting(state, kind, {
      accountNumber: r.AccountNumber,
      amount: Number(kobo.kobo),
      retrievalReference: r.RetrievalReference,
      narration: r.Narration
    }, rules)
    return json({
      IsSuccessful: outcome.code === "00",
      ResponseMessage: outcome.code === "00" ? APPROVED : outcome.message,
      ResponseCode: outcome.code,
      Reference: outcome.code === "00" ? `A${r.RetrievalReference}` : null
    })
  }

  /** TSQ: the reference must be of the stated type and amount (else, as an unknown one, "25") */
  const statusQuery = (r: typeof Wire.StatusQueryRequest.Type, interbank: boolean): FrontRouted => {
    const notFound = json({ IsSuccessful: false, ResponseMessage: "Transaction not found", ResponseCode: "25", Reference: null, Status: null })
    const kind = kindOfType[r.TransactionType]
    const kobo = Money.koboFromText(r.Amount)
    const op = state.operations.get(r.RetrievalReference)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r.TransactionDate)) return INVALID("TransactionDate must be YYYY-MM-DD.")
    if (op === undefined || kind === undefined || (kind === "transfer") !== interbank || op.kind !== kind || !kobo.ok || op.amount !== kobo.kobo) {
      return notFound
    }
    const outcome = Movements.requery(state, r.RetrievalReference)
    const status = (outcome.data as { status?: string } | undefined)?.status ?? null
    return json({ IsSuccessful: true, ResponseMessage: "Successful", ResponseCode: "00", Reference: r.RetrievalReference, Status: status })
  }

  const byTrackingRef = (query: URLSearchParams): FrontRouted => {
    if (!tokenOk(query.get("authtoken"))) return UNAUTHORIZED
    const outcome = Accounts.accountByReference(state, query.get("transactionTrackingRef") ?? "")
    return outcome.code === "00"
      ? json(createdAccount(outcome.data as typeof AccountData.Type))
      : json({ IsSuccessful: false, CustomerIDInString: null, Message: outcome.message, TransactionTrackingRef: null, Page: null })
  }

  const transactions = (query: URLSearchParams): FrontRouted => {
    if (!tokenOk(query.get("authtoken"))) return UNAUTHORIZED
    const outcome = Accounts.transactions(state, query.get("accountNumber") ?? "")
    if (outcome.code !== "00") return json({ IsSuccessful: false, Message: outcome.message })
    const limit = Math.max(1, Math.min(Number(query.get("numberOfItems") ?? "100") || 100, 10_000))
    const list = (outcome.data as { transactions: ReadonlyArray<typeof WireTransaction.Type> }).transactions.slice(0, limit)
    const numbers: Record<string, string> = {}
    const entries = list.map((t, i) => {
      numbers[`__AMOUNT_${i}__`] = String(t.amount)
      return {
        Id: i + 1,
        CurrentDate: t.postedAt,
        IsReversed: false,
        ReversalReferenceNo: null,
        WithdrawableAmount: 0,
        UniqueIdentifier: t.reference,
        InstrumentNo: t.reference,
        TransactionDate: t.postedAt,
        TransactionDateString: t.postedAt.slice(0, 10),
        ReferenceID: t.reference,
        Narration: t.narration,
        Amount: `__AMOUNT_${i}__`,
        RecordType: t.type === "C" ? "Credit" : "Debit",
        PostingType: t.channel === "nip_inbound" ? "ISOPosting" : "Transfer"
      }
    })
    return withNumbers({ IsSuccessful: true, CustomerIDInString: null, Message: entries, TransactionTrackingRef: null, Page: null }, numbers)
  }

  const banks = json(BANKS.map((b) => ({ Name: b.name, Code: b.code })))

  return (method: string, pathname: string, query: string, text: string): FrontRouted | undefined => {
    const params = new URLSearchParams(query)
    if (method === "POST") {
      const route = routes[pathname]
      return route === undefined ? undefined : route(text, params)
    }
    if (method !== "GET") return undefined
    if (pathname === Wire.Paths.accountByTrackingRef) return byTrackingRef(params)
    if (pathname === Wire.Paths.transactions) return transactions(params)
    if (pathname.startsWith(`${Wire.Paths.commercialBanks}/`)) {
      let presented: string
      try {
        presented = decodeURIComponent(pathname.slice(Wire.Paths.commercialBanks.length + 1))
      } catch {
        return UNAUTHORIZED
      }
      return tokenOk(presented) ? banks : UNAUTHORIZED
    }
    return undefined
  }
}
