/**
 * An in-memory core banking provider (the `CoreBanking` and `TestFunding` ports) that behaves like the
 * sandbox bank of operations.md, for domain tests:
 *
 * - accounts with a ledger balance, liens, a PND flag (active on opening) and a frozen flag; a debit
 *   is refused ("57") under PND or freeze, and ("51") above ledger − liens;
 * - customer debits go to a settlement account, NIP transfers pay out of it, credits (reversals) come
 *   from it; money is never created: customers + settlement + in flight + paid out = deposited;
 * - every reference (account opening, debit, credit, transfer) is applied once; a repeat answers
 *   the first outcome; liens as the sandbox: a repeat of the same lien is a no-op, its reference
 *   reused with another amount or after removal is a duplicate (an unknown outcome, as the adapter
 *   reports "94"), a zero lien is refused, removing an unknown one is "25";
 * - test data: BVN `00000000000` not found, `11111111111` Chidi Okeke born 1985-05-15, any other
 *   11 digits Ada Obi born 1990-01-01; name enquiry on 10 digits at a listed bank finds
 *   `SANDBOX ACCOUNT <last 4>`, except numbers starting `999` ("07"); transfer destinations ending
 *   0002 pending then successful on requery, 0003 refused, 0004 unknown outcome but the money left
 *   (requery successful), 0005 pending for 3 requeries then failed.
 *
 * Faults: `FakeBank.failNext(operation, error, { afterApplying })` makes the next call of an operation
 * fail, before or after it took effect (a timeout after the provider did open the account).
 * `FakeBank.calls(operation)` counts calls, e.g. to see a cache at work.
 */
import {Clock, Context, Effect, Exit, Layer, Option, Ref} from "effect"
import { type AccountSnapshot, type Bank, CoreBanking, type CoreBankingError, type Lien, MAX_REFERENCE_LENGTH, ProviderRefused, type ProviderTransaction, ProviderUnknownOutcome, type RequeryStatus, TestFunding, type TransferStatus } from "../../src/banking/CoreBanking.js"

export interface FakeAccount {
  readonly accountNumber: string
  readonly accountName: string
  readonly reference: string
  readonly ledgerKobo: bigint
  readonly pndActive: boolean
  readonly frozen: boolean
  readonly freezeReference: string | null
  readonly liens: ReadonlyArray<Lien>
  /** references of liens placed and removed since: the bank never reuses one */
  readonly removedLiens: ReadonlyArray<string>
  /** in posting order */
  readonly history: ReadonlyArray<ProviderTransaction>
}

type Outcome = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly reason: string }

interface TransferRecord {
  readonly amountKobo: bigint
  readonly status: "successful" | "pending" | "failed"
  /** 0002 resolves successful on requery; 0005 fails after 3 pending requeries */
  readonly resolution: "succeed" | "fail_after_3" | null
  readonly requeries: number
}

export interface BankState {
  readonly accounts: ReadonlyMap<string, FakeAccount>
  /** account-opening reference → account number */
  readonly byReference: ReadonlyMap<string, string>
  /** outcome of every debit/credit retrieval reference */
  readonly postings: ReadonlyMap<string, Outcome>
  readonly transfers: ReadonlyMap<string, TransferRecord>
  readonly settlementKobo: bigint
  readonly inFlightKobo: bigint
  readonly paidOutKobo: bigint
  readonly depositedKobo: bigint
  readonly counter: number
}

export const emptyBank: BankState = {
  accounts: new Map(),
  byReference: new Map(),
  postings: new Map(),
  transfers: new Map(),
  settlementKobo: 0n,
  inFlightKobo: 0n,
  paidOutKobo: 0n,
  depositedKobo: 0n,
  counter: 0
}

export type Operation = keyof Context.Tag.Service<CoreBanking> | "deposit"

export interface Fault {
  readonly operation: Operation
  readonly error: CoreBankingError
  /** the call takes effect at the provider, then the error is reported (e.g. a timeout) */
  readonly afterApplying: boolean
}

export const SANDBOX_BANKS: ReadonlyArray<Bank> = [
  { bankCode: "000014", bankName: "Access Bank" },
  { bankCode: "000013", bankName: "Guaranty Trust Bank" },
  { bankCode: "000015", bankName: "Zenith Bank" },
  { bankCode: "000016", bankName: "First Bank of Nigeria" },
  { bankCode: "000004", bankName: "United Bank for Africa" },
  { bankCode: "000007", bankName: "Fidelity Bank" },
  { bankCode: "000003", bankName: "First City Monument Bank" },
  { bankCode: "000018", bankName: "Union Bank of Nigeria" },
  { bankCode: "000012", bankName: "Stanbic IBTC Bank" },
  { bankCode: "000001", bankName: "Sterling Bank" },
  { bankCode: "000017", bankName: "Wema Bank" },
  { bankCode: "000010", bankName: "Ecobank Nigeria" },
  { bankCode: "000008", bankName: "Polaris Bank" },
  { bankCode: "000002", bankName: "Keystone Bank" },
  { bankCode: "000023", bankName: "Providus Bank" },
  { bankCode: "090267", bankName: "Kuda Microfinance Bank" },
  { bankCode: "090405", bankName: "Moniepoint Microfinance Bank" },
  { bankCode: "100004", bankName: "OPay" },
  { bankCode: "100033", bankName: "PalmPay" }
]

export class FakeBank extends Context.Tag("test/FakeBank")<FakeBank, {
  readonly state: Ref.Ref<BankState>
  readonly faults: Ref.Ref<ReadonlyArray<Fault>>
  /** every operation called, in order */
  readonly calls: Ref.Ref<ReadonlyArray<Operation>>
}>() {
  static readonly failNext = (operation: Operation, error: CoreBankingError, options: { readonly afterApplying?: boolean } = {}) =>
    Effect.flatMap(FakeBank, (bank) =>
      Ref.update(bank.faults, (fs) => [...fs, { operation, error, afterApplying: options.afterApplying ?? false }]))

  /** A timeout-like unknown outcome of `operation`. */
  static readonly unknown = (operation: Operation) => new ProviderUnknownOutcome({ operation, detail: "timed out" })

  static readonly calls = (operation: Operation) =>
    Effect.map(Effect.flatMap(FakeBank, (bank) => Ref.get(bank.calls)), (cs) => cs.filter((c) => c === operation).length)

  static readonly state = Effect.flatMap(FakeBank, (bank) => Ref.get(bank.state))

  static readonly account = (accountNumber: string) =>
    Effect.flatMap(FakeBank.state, (st) => {
      const found = st.accounts.get(accountNumber)
      return found === undefined ? Effect.dieMessage(`no fake account ${accountNumber}`) : Effect.succeed(found)
    })

  /** customers + settlement + in flight + paid out = deposited */
  static readonly conserved = Effect.map(FakeBank.state, (st) =>
    [...st.accounts.values()].reduce((sum, a) => sum + a.ledgerKobo, 0n) + st.settlementKobo + st.inFlightKobo + st.paidOutKobo ===
      st.depositedKobo)
}

export const FakeBankStateLive = Layer.effect(
  FakeBank,
  Effect.all({
    state: Ref.make(emptyBank),
    faults: Ref.make<ReadonlyArray<Fault>>([]),
    calls: Ref.make<ReadonlyArray<Operation>>([])
  })
)

// ---------------------------------------------------------------------------------------------

type Step<A> = readonly [Exit.Exit<A, CoreBankingError>, BankState]

const refused = (operation: string, code: string, reason: string) =>
  Exit.fail(new ProviderRefused({ operation, code, reason }))

const withAccount = (st: BankState, account: FakeAccount): BankState => {
  const accounts = new Map(st.accounts)
  accounts.set(account.accountNumber, account)
  return { ...st, accounts }
}

const withPosting = (st: BankState, reference: string, outcome: Outcome): BankState => {
  const postings = new Map(st.postings)
  postings.set(reference, outcome)
  return { ...st, postings }
}

const withTransfer = (st: BankState, reference: string, record: TransferRecord): BankState => {
  const transfers = new Map(st.transfers)
  transfers.set(reference, record)
  return { ...st, transfers }
}

const liensOf = (account: FakeAccount) => account.liens.reduce((sum, l) => sum + l.amountKobo, 0n)

const snapshotOf = (account: FakeAccount): AccountSnapshot => ({
  accountNumber: account.accountNumber,
  accountName: account.accountName,
  ledgerBalanceKobo: account.ledgerKobo,
  withdrawableBalanceKobo: account.ledgerKobo - liensOf(account),
  pndActive: account.pndActive,
  frozen: account.frozen,
  liens: account.liens
})

const counterRef = (prefix: string, n: number) => (prefix + String(n).padStart(MAX_REFERENCE_LENGTH - prefix.length, "0"))

const posting = (
  input: { reference: string; amountKobo: bigint; narration: string },
  direction: "credit" | "debit",
  channel: ProviderTransaction["channel"],
  postedAt: Date
): ProviderTransaction => ({
  reference: input.reference,
  direction,
  amountKobo: input.amountKobo,
  narration: input.narration,
  postedAt,
  channel,
  counterpartyName: null,
  counterpartyAccountNumber: null,
  counterpartyBankCode: null
})

const make = Effect.gen(function*() {
  const bank = yield* FakeBank

  /** Records the call, applies a pending fault, otherwise runs the state transition atomically. */
  const op = <A>(operation: Operation, step: (st: BankState, now: Date) => Step<A>): Effect.Effect<A, CoreBankingError> =>
    Effect.gen(function*() {
      yield* Ref.update(bank.calls, (cs) => [...cs, operation])
      const apply = Effect.flatMap(Clock.currentTimeMillis, (ms) =>
        Effect.flatten(Ref.modify(bank.state, (st) => step(st, new Date(ms)))))
      const fault = yield* Ref.modify(bank.faults, (fs): [Option.Option<Fault>, ReadonlyArray<Fault>] => {
        const i = fs.findIndex((f) => f.operation === operation)
        return i < 0 ? [Option.none(), fs] : [Option.some(fs[i]!), [...fs.slice(0, i), ...fs.slice(i + 1)]]
      })
      if (Option.isNone(fault)) return yield* apply
      if (fault.value.afterApplying) yield* Effect.ignore(apply)
      return yield* Effect.fail(fault.value.error)
    })

  const onAccount = <A>(
    operation: Operation,
    accountNumber: string,
    f: (account: FakeAccount, st: BankState, now: Date) => Step<A>
  ) =>
    op(operation, (st, now): Step<A> => {
      const account = st.accounts.get(accountNumber)
      return account === undefined ? [refused(operation, "07", "Invalid account"), st] : f(account, st, now)
    })

  const resolveTransfer = (st: BankState, reference: string, record: TransferRecord, status: "successful" | "failed"): BankState =>
    withTransfer(
      {
        ...st,
        inFlightKobo: st.inFlightKobo - record.amountKobo,
        ...(status === "successful"
          ? { paidOutKobo: st.paidOutKobo + record.amountKobo }
          : { settlementKobo: st.settlementKobo + record.amountKobo })
      },
      reference,
      { ...record, status, requeries: record.requeries + 1 }
    )

  const core = CoreBanking.of({
    openAccount: (input) =>
      op("openAccount", (st) => {
        if (input.reference.length === 0 || input.reference.length > MAX_REFERENCE_LENGTH) {
          return [refused("openAccount", "26", "Bad reference"), st]
        }
        const existing = st.byReference.get(input.reference)
        if (existing !== undefined) {
          const account = st.accounts.get(existing)!
          return [Exit.succeed({ accountNumber: account.accountNumber, accountName: account.accountName }), st]
        }
        const counter = st.counter + 1
        const account: FakeAccount = {
          accountNumber: `30${String(counter).padStart(8, "0")}`,
          accountName: `${input.firstName} ${input.lastName}`.toUpperCase(),
          reference: input.reference,
          ledgerKobo: 0n,
          pndActive: true,
          frozen: false,
          freezeReference: null,
          liens: [],
          removedLiens: [],
          history: []
        }
        const byReference = new Map(st.byReference)
        byReference.set(input.reference, account.accountNumber)
        return [
          Exit.succeed({ accountNumber: account.accountNumber, accountName: account.accountName }),
          withAccount({ ...st, byReference, counter }, account)
        ]
      }),
    findAccountByReference: (reference) =>
      op("findAccountByReference", (st) => {
        const number = st.byReference.get(reference)
        const account = number === undefined ? undefined : st.accounts.get(number)
        return [
          Exit.succeed(Option.map(Option.fromNullable(account), (a) => ({ accountNumber: a.accountNumber, accountName: a.accountName }))),
          st
        ]
      }),
    account: (accountNumber) => onAccount("account", accountNumber, (account, st) => [Exit.succeed(snapshotOf(account)), st]),
    history: (accountNumber) => onAccount("history", accountNumber, (account, st) => [Exit.succeed(account.history), st]),
    activatePnd: (accountNumber) =>
      onAccount("activatePnd", accountNumber, (account, st) => [Exit.void, withAccount(st, { ...account, pndActive: true })]),
    deactivatePnd: (accountNumber) =>
      onAccount("deactivatePnd", accountNumber, (account, st) => [Exit.void, withAccount(st, { ...account, pndActive: false })]),
    placeLien: (input) =>
      onAccount("placeLien", input.accountNumber, (account, st) => {
        if (input.amountKobo <= 0n) return [refused("placeLien", "26", "Bad amount"), st]
        const existing = account.liens.find((l) => l.reference === input.reference)
        // as the sandbox: the same lien again is a no-op; its reference reused for another amount,
        // or after its removal, is a duplicate ("94", which the adapter reports as an unknown outcome)
        if (existing !== undefined && existing.amountKobo === input.amountKobo) return [Exit.void, st]
        if (existing !== undefined || account.removedLiens.includes(input.reference)) {
          return [Exit.fail(new ProviderUnknownOutcome({ operation: "placeLien", detail: `duplicate lien reference "94"` })), st]
        }
        return [Exit.void, withAccount(st, { ...account, liens: [...account.liens, { reference: input.reference, amountKobo: input.amountKobo }] })]
      }),
    removeLien: (input) =>
      onAccount("removeLien", input.accountNumber, (account, st) => {
        if (account.removedLiens.includes(input.reference)) return [Exit.void, st]
        if (!account.liens.some((l) => l.reference === input.reference)) return [refused("removeLien", "25", "No such lien"), st]
        return [
          Exit.void,
          withAccount(st, {
            ...account,
            liens: account.liens.filter((l) => l.reference !== input.reference),
            removedLiens: [...account.removedLiens, input.reference]
          })
        ]
      }),
    freeze: (input) =>
      onAccount("freeze", input.accountNumber, (account, st) => {
        if (account.frozen && account.freezeReference !== null) {
          return [Exit.succeed({ freezeReference: account.freezeReference }), st]
        }
        const counter = st.counter + 1
        const freezeReference = counterRef("FRZ", counter)
        return [Exit.succeed({ freezeReference }), withAccount({ ...st, counter }, { ...account, frozen: true, freezeReference })]
      }),
    unfreeze: (input) =>
      onAccount("unfreeze", input.accountNumber, (account, st) =>
        account.frozen && account.freezeReference !== input.freezeReference
          ? [refused("unfreeze", "57", "Wrong freeze reference"), st]
          : [Exit.void, withAccount(st, { ...account, frozen: false, freezeReference: null })]),
    debit: (input) =>
      onAccount("debit", input.accountNumber, (account, st, now) => {
        const previous = st.postings.get(input.reference)
        if (previous !== undefined) return [previous.ok ? Exit.void : refused("debit", previous.code, previous.reason), st]
        const refuse = (code: string, reason: string): Step<void> => [
          refused("debit", code, reason),
          withPosting(st, input.reference, { ok: false, code, reason })
        ]
        if (account.pndActive || account.frozen) return refuse("57", "Transaction not permitted")
        if (input.amountKobo <= 0n) return refuse("26", "Bad amount")
        if (input.amountKobo > account.ledgerKobo - liensOf(account)) return refuse("51", "Insufficient funds")
        const debited: FakeAccount = {
          ...account,
          ledgerKobo: account.ledgerKobo - input.amountKobo,
          history: [...account.history, posting(input, "debit", "core_debit", now)]
        }
        return [
          Exit.void,
          withPosting(withAccount({ ...st, settlementKobo: st.settlementKobo + input.amountKobo }, debited), input.reference, {
            ok: true
          })
        ]
      }),
    credit: (input) =>
      onAccount("credit", input.accountNumber, (account, st, now) => {
        const previous = st.postings.get(input.reference)
        if (previous !== undefined) return [previous.ok ? Exit.void : refused("credit", previous.code, previous.reason), st]
        if (input.amountKobo <= 0n || input.amountKobo > st.settlementKobo) {
          return [refused("credit", "26", "Bad amount"), withPosting(st, input.reference, { ok: false, code: "26", reason: "Bad amount" })]
        }
        const credited: FakeAccount = {
          ...account,
          ledgerKobo: account.ledgerKobo + input.amountKobo,
          history: [...account.history, posting(input, "credit", "core_credit", now)]
        }
        return [
          Exit.void,
          withPosting(withAccount({ ...st, settlementKobo: st.settlementKobo - input.amountKobo }, credited), input.reference, {
            ok: true
          })
        ]
      }),
    nameEnquiry: (input) =>
      op("nameEnquiry", (st) => {
        const listed = SANDBOX_BANKS.some((b) => b.bankCode === input.bankCode)
        if (!listed || !/^\d{10}$/.test(input.accountNumber) || input.accountNumber.startsWith("999")) {
          return [refused("nameEnquiry", "07", "Invalid account"), st]
        }
        const counter = st.counter + 1
        return [
          Exit.succeed({ accountName: `SANDBOX ACCOUNT ${input.accountNumber.slice(-4)}`, sessionId: `NE${String(counter).padStart(28, "0")}` }),
          { ...st, counter }
        ]
      }),
    transfer: (input) =>
      op("transfer", (st): Step<TransferStatus> => {
        const previous = st.transfers.get(input.reference)
        if (previous !== undefined) {
          return [
            previous.status === "failed" ? refused("transfer", "96", "Transfer failed") : Exit.succeed(previous.status),
            st
          ]
        }
        if (input.amountKobo <= 0n || input.amountKobo > st.settlementKobo) {
          return [refused("transfer", "51", "Settlement account cannot cover the transfer"), st]
        }
        const destination = input.destinationAccountNumber
        if (destination.endsWith("0003")) {
          return [
            refused("transfer", "96", "Transfer failed"),
            withTransfer(st, input.reference, { amountKobo: input.amountKobo, status: "failed", resolution: null, requeries: 0 })
          ]
        }
        const pending = destination.endsWith("0002") || destination.endsWith("0005")
        const next = withTransfer(
          {
            ...st,
            settlementKobo: st.settlementKobo - input.amountKobo,
            ...(pending ? { inFlightKobo: st.inFlightKobo + input.amountKobo } : { paidOutKobo: st.paidOutKobo + input.amountKobo })
          },
          input.reference,
          {
            amountKobo: input.amountKobo,
            status: pending ? "pending" : "successful",
            resolution: destination.endsWith("0002") ? "succeed" : destination.endsWith("0005") ? "fail_after_3" : null,
            requeries: 0
          }
        )
        if (destination.endsWith("0004")) return [Exit.fail(FakeBank.unknown("transfer")), next]
        return [Exit.succeed(pending ? "pending" : "successful"), next]
      }),
    requery: (reference) =>
      op("requery", (st): Step<RequeryStatus> => {
        const postingOutcome = st.postings.get(reference)
        if (postingOutcome !== undefined) return [Exit.succeed(postingOutcome.ok ? "successful" : "failed"), st]
        const record = st.transfers.get(reference)
        if (record === undefined) return [Exit.succeed("not_found"), st]
        if (record.status !== "pending") {
          return [Exit.succeed(record.status), withTransfer(st, reference, { ...record, requeries: record.requeries + 1 })]
        }
        if (record.resolution === "succeed") return [Exit.succeed("successful"), resolveTransfer(st, reference, record, "successful")]
        if (record.requeries >= 3) return [Exit.succeed("failed"), resolveTransfer(st, reference, record, "failed")]
        return [Exit.succeed("pending"), withTransfer(st, reference, { ...record, requeries: record.requeries + 1 })]
      }),
    bvnLookup: (bvn) =>
      op("bvnLookup", (st) => {
        if (!/^\d{11}$/.test(bvn) || bvn === "00000000000") return [Exit.succeed(Option.none()), st]
        return [
          Exit.succeed(Option.some(
            bvn === "11111111111"
              ? { firstName: "Chidi", lastName: "Okeke", phone: "08030000000", dateOfBirth: "1985-05-15" }
              : { firstName: "Ada", lastName: "Obi", phone: "08030000000", dateOfBirth: "1990-01-01" }
          )),
          st
        ]
      }),
    banks: op("banks", (st) => [Exit.succeed(SANDBOX_BANKS), st])
  })

  const funding = TestFunding.of({
    deposit: (input) =>
      onAccount("deposit", input.accountNumber, (account, st, now): Step<void> => {
        if (input.amountKobo <= 0n) return [refused("deposit", "26", "Bad amount"), st]
        const counter = st.counter + 1
        const credited: FakeAccount = {
          ...account,
          ledgerKobo: account.ledgerKobo + input.amountKobo,
          history: [...account.history, {
            ...posting({ reference: counterRef("NIP", counter), amountKobo: input.amountKobo, narration: "Inbound transfer" }, "credit", "nip_inbound", now),
            counterpartyName: "SANDBOX SENDER",
            counterpartyAccountNumber: "0123456789",
            counterpartyBankCode: "000013"
          }]
        }
        return [Exit.void, withAccount({ ...st, counter, depositedKobo: st.depositedKobo + input.amountKobo }, credited)]
      })
  })

  return { core, funding }
})

/** CoreBanking and TestFunding over the FakeBank state (provide FakeBankStateLive). */
export const FakeCoreBankingLive = Layer.effectContext(
  Effect.map(make, ({ core, funding }) => Context.make(CoreBanking, core).pipe(Context.add(TestFunding, funding)))
)
