/**
 * `POST /customers/delete-account`: deletes a customer who has no bank account or is closed; an
 * active customer with a bank account is closed first when an idempotency key is sent (the same
 * sweep as close-account), and deleted once that closure is done (in the request when the sweep
 * confirms at once, else by the closure job; a retry with the same key finishes it too).
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { AccountRepo } from "../account/Ports.js"
import { passOtpGate } from "../auth/OtpGate.js"
import { CoreBanking } from "../banking/CoreBanking.js"
import { now } from "../shared/UseCase.js"
import { MovementInFlight } from "../transfers/Errors.js"
import { TransferRepo } from "../transfers/Ports.js"
import { answerOf, closeRequestHash, closureByKey, settleClosure, startClosure } from "./Closing.js"
import { deleteNow } from "./Erasure.js"
import { AccountFrozen, CloseAccountFirst } from "./Errors.js"
import type { AccountClosure } from "./Model.js"
import { ClosureRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

export type DeletionAnswer =
  | { readonly status: "deleted"; readonly retainUntil: Date }
  | { readonly status: "closing" }

export interface DeleteAccountInput {
  readonly otpPinId: string
  readonly otpCode: string
  readonly via?: "mobile" | "web" | undefined
  readonly idempotencyKey?: string | undefined
}

/** Where a closure that precedes a deletion stands: a failed sweep is the error it failed with. */
const progressOf = (closure: AccountClosure) =>
  Effect.gen(function*() {
    const current = yield* settleClosure(closure.id)
    if (current.status === "failed") {
      yield* answerOf(current) // TransferFailed
    }
    if (current.status === "closed") {
      const found = yield* requireAccount(yield* accountIdOf(current))
      return { status: "deleted", retainUntil: (yield* deleteNow(found, current.deleteVia)).retainUntil } satisfies DeletionAnswer as DeletionAnswer
    }
    return { status: "closing" } satisfies DeletionAnswer as DeletionAnswer
  })

const accountIdOf = (closure: AccountClosure) =>
  Effect.map(
    Effect.flatMap(AccountRepo, (repo) => repo.findByCustomerId(closure.customerId)),
    (found) => Option.getOrThrow(found).account.id
  )

export const deleteAccount = (accountId: AccountId, input: DeleteAccountInput) =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    const { customer } = found
    const via = input.via ?? null
    const requestHash = yield* closeRequestHash
    // a retry of a deletion that had to close first: answered by its key, no new code needed
    if (input.idempotencyKey !== undefined) {
      const earlier = yield* closureByKey(customer.id, input.idempotencyKey, requestHash)
      if (Option.isSome(earlier) && earlier.value.deleteRequested) return yield* progressOf(earlier.value)
    }
    // frozen by staff or the PIN lock: refused before the gate (a suspended customer cannot ask
    // for a code, and this spends none); the authentication lets them reach this endpoint only
    if (customer.customerStatus === "suspended") return yield* new AccountFrozen()
    // a movement not final (a transfer the bank answered "pending" included) holds the closure and
    // the deletion back until reconciliation settles it: 400, before the gate. While `closing`, the
    // only one is the closure's own sweep, which the deletion follows.
    if (customer.customerStatus !== "closing" && (yield* (yield* TransferRepo).hasUnsettledMovement(customer.id))) {
      return yield* new MovementInFlight()
    }
    // an account with money at the bank and no closure under way must be closed first: its 409s
    // come before the gate too, so the client resends the same code with an idempotencyKey
    let closeKey: string | null = null
    if (customer.coreAccountNumber !== null && customer.customerStatus !== "closing" && customer.customerStatus !== "closed") {
      // frozen at the bank without a closure of ours (by staff, say): no sweep could leave it
      if ((yield* (yield* CoreBanking).account(customer.coreAccountNumber)).frozen) return yield* new AccountFrozen()
      if (input.idempotencyKey === undefined) return yield* new CloseAccountFirst()
      closeKey = input.idempotencyKey
    }
    yield* passOtpGate(accountId, input.otpPinId, input.otpCode)
    const repo = yield* ClosureRepo
    switch (customer.customerStatus) {
      case "closing": {
        // a closure is under way: the deletion follows it
        const open = Option.getOrThrow(yield* repo.findOpen(customer.id))
        yield* repo.requestDeletion(open.id, via, yield* now)
        return yield* progressOf(open)
      }
      case "closed":
        return { status: "deleted", ...(yield* deleteNow(found, via)) } satisfies DeletionAnswer as DeletionAnswer
      default:
        break
    }
    if (closeKey === null) return { status: "deleted", ...(yield* deleteNow(found, via)) } satisfies DeletionAnswer as DeletionAnswer
    const closure = yield* startClosure(found, {
      idempotencyKey: closeKey,
      requestHash,
      deleteVia: Option.some(via)
    })
    return yield* progressOf(closure)
  }).pipe(withSpan("Lifecycle.deleteAccount"))
