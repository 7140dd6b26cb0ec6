/**
 * The operations of the HTTP adapter (`HttpCoreBanking.ts`): one call definition per operation of the
 * CoreBanking port (and TestFunding), each run by the transport (`Transport.ts`), which retries a call
 * only where repeating it is safe:
 *
 * | operation              | route                                          | retried | why                                             |
 * |------------------------|------------------------------------------------|---------|-------------------------------------------------|
 * | openAccount            | POST /accounts                                 | yes     | provider deduplicates customerReference         |
 * | findAccountByReference | GET  /accounts/by-reference/{reference}        | yes     | read                                            |
 * | account                | GET  /accounts/{accountNumber}                 | yes     | read                                            |
 * | history                | GET  /accounts/{accountNumber}/transactions    | yes     | read                                            |
 * | activatePnd            | POST /accounts/{n}/pnd/activate                | yes     | sets a flag: idempotent                         |
 * | deactivatePnd          | POST /accounts/{n}/pnd/deactivate              | yes     | clears a flag: idempotent                       |
 * | placeLien              | POST /accounts/{n}/liens                       | yes     | provider deduplicates the lien reference        |
 * | removeLien             | POST /accounts/{n}/liens/{reference}/remove    | yes     | provider deduplicates the lien reference        |
 * | freeze                 | POST /accounts/{n}/freeze                      | NO      | a second freeze makes a second freeze reference |
 * | unfreeze               | POST /accounts/{n}/unfreeze                    | NO      | no request reference: a repeat after an applied |
 * |                        |                                                |         | unfreeze could be refused and misreport it;     |
 * |                        |                                                |         | learn the outcome from account().frozen         |
 * | debit                  | POST /transactions/debit                       | yes     | provider deduplicates retrievalReference        |
 * | credit                 | POST /transactions/credit                      | yes     | provider deduplicates retrievalReference        |
 * | nameEnquiry            | GET  /nip/name-enquiry                         | yes     | read                                            |
 * | transfer               | POST /nip/transfers                            | yes     | provider deduplicates transactionReference      |
 * | requery                | GET  /transactions/{reference}/status          | yes     | read                                            |
 * | bvnLookup              | GET  /bvn/{bvn}                                | yes     | read                                            |
 * | banks                  | GET  /banks                                    | yes     | read                                            |
 * | TestFunding.deposit    | POST /sandbox/deposits                         | NO      | no reference: a repeat would deposit twice      |
 */
import {
  type Bank,
  type BvnRecord,
  CoreBanking,
  type Kobo,
  type NameEnquiryResult,
  type ProviderAccount,
  type RequeryStatus,
  type TestFunding,
  type TransferStatus
} from "@app/domain"
import { type Context, Effect, Option } from "effect"
import {
  checkReference,
  get,
  HistoryData,
  post,
  postEmpty,
  requeryStatus,
  segment,
  toAccount,
  toAccountSnapshot,
  toBvnRecord,
  toTransactions,
  VoidData,
  wireAmount
} from "./Mapping.js"
import type { Run } from "./Transport.js"
import * as Wire from "./Wire.js"

const LIEN_REASON = "kobo-plans commitment"

export const makeOperations = (run: Run) => {
  const posting = (operation: "debit" | "credit") =>
  (input: { accountNumber: string; amountKobo: Kobo; reference: string; narration: string }) =>
    run({
      operation,
      reference: input.reference,
      write: true,
      retry: true,
      request: Effect.gen(function*() {
        const reference = yield* checkReference(operation, input.reference)
        const amount = yield* wireAmount(operation, input.amountKobo)
        return yield* post(operation, `/transactions/${operation}`, Wire.PostingRequest, {
          accountNumber: input.accountNumber,
          amount,
          retrievalReference: reference,
          narration: input.narration
        })
      }),
      data: VoidData,
      onSuccess: () => undefined
    })

  const pnd = (operation: "activatePnd" | "deactivatePnd", action: "activate" | "deactivate") =>
  (accountNumber: string) =>
    run({
      operation,
      reference: undefined,
      write: true,
      retry: true,
      request: postEmpty(`/accounts/${segment(accountNumber)}/pnd/${action}`),
      data: VoidData,
      onSuccess: () => undefined
    })

  const coreBanking: Context.Tag.Service<CoreBanking> = {
    openAccount: (input) =>
      run({
        operation: "openAccount",
        reference: input.reference,
        write: true,
        retry: true,
        request: Effect.gen(function*() {
          const reference = yield* checkReference("openAccount", input.reference)
          return yield* post("openAccount", "/accounts", Wire.OpenAccountRequest, {
            customerReference: reference,
            firstName: input.firstName,
            lastName: input.lastName,
            otherNames: input.otherNames,
            phone: input.phone,
            email: input.email,
            dateOfBirth: input.dateOfBirth,
            gender: input.gender
          })
        }),
        data: Wire.AccountData,
        onSuccess: toAccount
      }),

    findAccountByReference: (reference) =>
      run({
        operation: "findAccountByReference",
        reference,
        write: false,
        retry: true,
        request: checkReference("findAccountByReference", reference).pipe(
          Effect.flatMap((ref) => get(`/accounts/by-reference/${segment(ref)}`))
        ),
        data: Wire.AccountData,
        onSuccess: (data): Option.Option<ProviderAccount> => Option.some(toAccount(data)),
        onNotFound: Option.none()
      }),

    account: (accountNumber) =>
      run({
        operation: "account",
        reference: undefined,
        write: false,
        retry: true,
        request: get(`/accounts/${segment(accountNumber)}`),
        data: Wire.AccountDetails,
        onSuccess: toAccountSnapshot
      }),

    history: (accountNumber) =>
      run({
        operation: "history",
        reference: undefined,
        write: false,
        retry: true,
        request: get(`/accounts/${segment(accountNumber)}/transactions`),
        data: HistoryData,
        onSuccess: toTransactions
      }),

    activatePnd: pnd("activatePnd", "activate"),
    deactivatePnd: pnd("deactivatePnd", "deactivate"),

    placeLien: (input) =>
      run({
        operation: "placeLien",
        reference: input.reference,
        write: true,
        retry: true,
        request: Effect.gen(function*() {
          const reference = yield* checkReference("placeLien", input.reference)
          const amount = yield* wireAmount("placeLien", input.amountKobo)
          return yield* post("placeLien", `/accounts/${segment(input.accountNumber)}/liens`, Wire.LienRequest, {
            reference,
            amount,
            reason: LIEN_REASON
          })
        }),
        data: VoidData,
        onSuccess: () => undefined
      }),

    removeLien: (input) =>
      run({
        operation: "removeLien",
        reference: input.reference,
        write: true,
        retry: true,
        request: checkReference("removeLien", input.reference).pipe(
          Effect.flatMap((ref) => postEmpty(`/accounts/${segment(input.accountNumber)}/liens/${segment(ref)}/remove`))
        ),
        data: VoidData,
        onSuccess: () => undefined
      }),

    freeze: (input) =>
      run({
        operation: "freeze",
        reference: undefined,
        write: true,
        retry: false,
        request: post("freeze", `/accounts/${segment(input.accountNumber)}/freeze`, Wire.FreezeRequest, {
          reason: input.reason
        }),
        data: Wire.FreezeData,
        onSuccess: (data) => ({ freezeReference: data.freezeReference })
      }),

    unfreeze: (input) =>
      run({
        operation: "unfreeze",
        reference: input.freezeReference,
        write: true,
        retry: false,
        request: post("unfreeze", `/accounts/${segment(input.accountNumber)}/unfreeze`, Wire.UnfreezeRequest, {
          freezeReference: input.freezeReference
        }),
        data: VoidData,
        onSuccess: () => undefined
      }),

    debit: posting("debit"),
    credit: posting("credit"),

    nameEnquiry: (input) =>
      run({
        operation: "nameEnquiry",
        reference: undefined,
        write: false,
        retry: true,
        request: get("/nip/name-enquiry", { accountNumber: input.accountNumber, bankCode: input.bankCode }),
        data: Wire.NameEnquiryData,
        onSuccess: (data): NameEnquiryResult => ({ accountName: data.accountName, sessionId: data.sessionId })
      }),

    transfer: (input) =>
      run({
        operation: "transfer",
        reference: input.reference,
        write: true,
        retry: true,
        request: Effect.gen(function*() {
          const reference = yield* checkReference("transfer", input.reference)
          const amount = yield* wireAmount("transfer", input.amountKobo)
          return yield* post("transfer", "/nip/transfers", Wire.TransferRequest, {
            transactionReference: reference,
            amount,
            destinationAccountNumber: input.destinationAccountNumber,
            destinationBankCode: input.destinationBankCode,
            destinationAccountName: input.destinationAccountName,
            nameEnquirySessionId: input.nameEnquirySessionId,
            narration: input.narration
          })
        }),
        data: VoidData,
        onSuccess: (): TransferStatus => "successful",
        onPending: "pending"
      }),

    requery: (reference) =>
      run({
        operation: "requery",
        reference,
        write: false,
        retry: true,
        request: checkReference("requery", reference).pipe(
          Effect.flatMap((ref) => get(`/transactions/${segment(ref)}/status`))
        ),
        data: Wire.StatusData,
        onSuccess: (data): RequeryStatus => requeryStatus[data.status],
        onPending: "pending",
        onNotFound: "not_found"
      }),

    bvnLookup: (bvn) =>
      run({
        operation: "bvnLookup",
        reference: undefined,
        write: false,
        retry: true,
        request: get(`/bvn/${segment(bvn)}`),
        data: Wire.BvnData,
        onSuccess: (data): Option.Option<BvnRecord> => Option.some(toBvnRecord(data)),
        onNotFound: Option.none()
      }),

    banks: run({
      operation: "banks",
      reference: undefined,
      write: false,
      retry: true,
      request: get("/banks"),
      data: Wire.BanksData,
      onSuccess: (data): ReadonlyArray<Bank> => data.banks.map((bank) => ({ bankCode: bank.code, bankName: bank.name }))
    })
  }

  const testFunding: Context.Tag.Service<TestFunding> = {
    deposit: (input) =>
      run({
        operation: "deposit",
        spanName: "TestFunding.deposit",
        reference: undefined,
        write: true,
        retry: false,
        request: wireAmount("deposit", input.amountKobo).pipe(
          Effect.flatMap((amountKobo) =>
            post("deposit", "/sandbox/deposits", Wire.DepositRequest, {
              accountNumber: input.accountNumber,
              amountKobo
            })
          )
        ),
        data: Wire.DepositData,
        onSuccess: () => undefined
      })
  }

  return { coreBanking, testFunding }
}
