/**
 * The sandbox bank: its state on plain Maps in memory (`bank/Store.ts`), one module per concern under
 * bank/ (answers, reference claims, accounts, money movement, conservation), and, when it has a data
 * directory, a journal of every state change that is replayed at start (`bank/Journal.ts`).
 *
 * Each operation reads and changes the state synchronously (no await between the check and the
 * change), so in Node's one thread it is atomic: two concurrent debits, or two concurrent uses of
 * one reference, are simply one after the other. The event is appended to the journal before the
 * state changes and before the answer is sent.
 *
 * Money: customer balances + settlement + paidOut = deposits, always.
 *  - deposit: outside world → customer (deposits grows)
 *  - debit: customer → settlement;  credit: settlement → customer
 *  - transfer: settlement → paidOut; a transfer that fails after being pending: paidOut → settlement
 * The settlement account never goes negative: a credit or transfer it cannot cover is refused "51".
 * How a repeated reference is answered and how long a name enquiry's session lasts are `BankRules`
 * (from the options of the server that answers).
 */
import { Context, Effect, Layer } from "effect"
import * as Conservation from "./bank/Conservation.js"
import { type JournalError, openJournal } from "./bank/Journal.js"
import { pruneSessions } from "./bank/Movements.js"
import { apply, BankState, type Event } from "./bank/Store.js"

export { BadRequest, type Outcome } from "./bank/Answers.js"
export { accountByReference, accountDetails, freeze, openAccount, placeLien, removeLien, setPnd, transactions, unfreeze } from "./bank/Accounts.js"
export { type ConservationCheck, type LedgerTotals } from "./bank/Conservation.js"
export { JournalError } from "./bank/Journal.js"
export { bvn, deposit, nameEnquiry, posting, requery, transfer } from "./bank/Movements.js"
export { type Account, BankState, type BankRules, type Event } from "./bank/Store.js"

/** The file under a data directory that holds the bank's journal. */
export const JOURNAL_FILE = "sandbox-bank.jsonl"

export interface SandboxBankOptions {
  /** the journal file (created when missing); undefined = memory only, nothing survives the process */
  readonly journal?: string | undefined
  /** each journal line fdatasync'ed before the answer leaves (survives a power loss) */
  readonly durable?: boolean | undefined
}

/** The bank's state: one per journal, shared by every sandbox server that serves it. */
export class SandboxBank extends Context.Tag("sandbox/SandboxBank")<SandboxBank, BankState>() {}

/** Opens the bank: replays its journal, when it has one, into a fresh state. Throws `JournalError`. */
export const openBank = (options: SandboxBankOptions = {}): { readonly state: BankState; readonly tornBytes: number } => {
  const state = new BankState()
  if (options.journal === undefined) return { state, tornBytes: 0 }
  const replayed = openJournal(options.journal, (event) => apply(state, event as Event), { durable: options.durable === true })
  pruneSessions(state, Date.now())
  state.journal = replayed.journal
  return { state, tornBytes: replayed.tornBytes }
}

/** The bank as a service; its journal (if any) is closed with the layer. */
export const sandboxBankLayer = (options: SandboxBankOptions = {}) =>
  Layer.scoped(
    SandboxBank,
    Effect.acquireRelease(
      Effect.gen(function*() {
        const started = Date.now()
        const { state, tornBytes } = yield* Effect.try({
          try: () => openBank(options),
          catch: (error) => error as JournalError
        })
        if (state.journal !== undefined) {
          yield* Effect.logInfo(
            `sandbox bank: ${state.events} events replayed from ${state.journal.file} in ${Date.now() - started} ms ` +
              `(${state.accounts.size} accounts)`
          )
        }
        if (tornBytes > 0) {
          yield* Effect.logWarning(`sandbox bank: the journal's last line was torn (${tornBytes} bytes, a crash mid-write): ignored`)
        }
        return state
      }),
      (state) => Effect.sync(() => state.journal?.close())
    )
  )

/** A bank in memory only (tests, benchmarks): nothing is written anywhere. */
export const SandboxBankInMemory: Layer.Layer<SandboxBank> = Layer.sync(SandboxBank, () => new BankState())

/** The totals of `GET /sandbox/ledger`. */
export const ledger: Effect.Effect<Conservation.LedgerTotals, never, SandboxBank> = Effect.map(SandboxBank, Conservation.ledger)

/**
 * Money was neither created nor lost: customers + settlement + paidOut = deposits, and every
 * balance, lien total and ledger total agrees with the records behind it (see `Conservation`).
 */
export const conservation: Effect.Effect<Conservation.ConservationCheck, never, SandboxBank> = Effect.map(
  SandboxBank,
  Conservation.conservation
)

/** Tests: makes a name enquiry's session `ms` older (in memory only; not journaled). */
export const ageSession = (sessionId: string, ms: number): Effect.Effect<void, never, SandboxBank> =>
  Effect.map(SandboxBank, (state) => {
    const session = state.sessions.get(sessionId)
    if (session !== undefined) session.at -= ms
  })
