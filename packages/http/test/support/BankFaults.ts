/**
 * Faults of the core banking provider on the real stack: the real CoreBanking (the sandbox through
 * the HTTP adapter) with some operations replaced, provided to one use case call with
 * `Effect.provideService(CoreBanking, …)`, as a process whose bank misbehaves would see it.
 */
import { AccountId, CoreBanking, ProviderRefused, ProviderUnknownOutcome, Transfers } from "@app/domain"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"

type Bank = CoreBanking["Type"]

/** The real bank with `overrides(real)` in place of its operations. */
export const bankWith = (overrides: (real: Bank) => Partial<Bank>) =>
  Effect.map(CoreBanking, (real) => CoreBanking.of({ ...real, ...overrides(real) }))

/** An answer that never came (timeout, connection reset). */
export const unknown = (operation: string) =>
  Effect.fail(new ProviderUnknownOutcome({ operation, detail: "test: no answer" }))

/** A definite "no" from the bank. */
export const refused = (operation: string, code = "57") =>
  Effect.fail(new ProviderRefused({ operation, code, reason: "test: not permitted" }))

/** The money-path operations a fault can target. */
export type Operation = "deactivatePnd" | "placeLien" | "debit" | "transfer" | "credit" | "removeLien" | "activatePnd"

/**
 * The real bank whose first call of `operation` is replaced by `around(call)`, `call` being the
 * real call with the same arguments; later calls go through untouched.
 */
export const onFirstCall = (
  operation: Operation,
  around: (call: Effect.Effect<any, any>) => Effect.Effect<any, any>
) => {
  let done = false
  return bankWith((real) => ({
    [operation]: (...args: Array<any>) => {
      const call = (real[operation] as (...a: Array<any>) => Effect.Effect<any, any>)(...args)
      if (done) return call
      done = true
      return around(call)
    }
  }))
}

/**
 * A manual transfer of `amountKobo` from the customer to `destination` at GTBank, started as the
 * customer's request would start it (use case level, so a test can give it a faulty bank).
 */
export const startTransfer = (accountId: AccountId, destination: string, amountKobo: bigint) =>
  Transfers.startManualTransfer(accountId, {
    destinationAccountNumber: destination,
    destinationBankCode: "000013",
    destinationBankName: "GTBank",
    destinationAccountName: `SANDBOX ACCOUNT ${destination.slice(-4)}`,
    amountKobo,
    idempotencyKey: randomUUID()
  })
