/**
 * The customer's side of support: open a ticket, list and read their own, reply. A customer only
 * ever reaches their own tickets (another's is "not found", never "forbidden") and never an
 * internal note: these use cases do not read notes at all.
 */
import { Effect, Option } from "effect"
import { requireAccount } from "../account/Accounts.js"
import { Ids } from "../shared/Ports.js"
import type { PageRequest } from "../shared/Paging.js"
import { now } from "../shared/UseCase.js"
import { TransactionRepo } from "../transactions/Ports.js"
import { replyOn } from "./Changes.js"
import { TicketNotFound, TicketTransactionNotFound, TooManyOpenTickets } from "./Errors.js"
import { type CustomerTicket, type TicketCategory, TicketMessage } from "./Model.js"
import { SupportRepo } from "./Ports.js"
import { MAX_ACTIVE_TICKETS, validBody, validSubject } from "./Rules.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId, CustomerId, TicketId, TransactionId } from "../shared/Ids.js"

export interface OpenTicketInput {
  readonly subject: string
  /** the first message */
  readonly message: string
  /** general when absent */
  readonly category?: TicketCategory | undefined
  /** one of the customer's own transactions */
  readonly transactionId?: TransactionId | null | undefined
}

/** The customer's ticket, or TicketNotFound (unknown, or another customer's). */
const ownTicket = (customerId: CustomerId, ticketId: TicketId) =>
  Effect.flatMap(SupportRepo, (repo) => repo.findById(ticketId)).pipe(
    Effect.flatMap((found) =>
      Option.isSome(found) && found.value.customerId === customerId
        ? Effect.succeed(found.value)
        : Effect.fail(new TicketNotFound())
    )
  )

/** Opens a ticket (status open) with its first message. */
export const openTicket = (accountId: AccountId, input: OpenTicketInput) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const subject = yield* validSubject(input.subject)
    const body = yield* validBody("message", input.message)
    const transactionId = input.transactionId ?? null
    if (transactionId !== null) {
      const transaction = yield* (yield* TransactionRepo).findById(transactionId)
      if (Option.isNone(transaction) || transaction.value.customerId !== customer.id) {
        return yield* new TicketTransactionNotFound()
      }
    }
    const ids = yield* Ids
    const at = yield* now
    const ticketId = TicketId.make(yield* ids.next)
    const first = new TicketMessage({
      id: yield* ids.next,
      ticketId,
      authorKind: "customer",
      authorId: customer.id,
      body,
      createdAt: at
    })
    const opened = yield* (yield* SupportRepo).open({
      id: ticketId,
      customerId: customer.id,
      subject,
      category: input.category ?? "general",
      transactionId,
      status: "open",
      assignedStaffId: null,
      createdAt: at,
      updatedAt: at,
      lastMessageAt: at
    }, first, MAX_ACTIVE_TICKETS)
    if (Option.isNone(opened)) return yield* new TooManyOpenTickets({ maxActive: MAX_ACTIVE_TICKETS })
    return { ticket: opened.value, messages: [first] } satisfies CustomerTicket
  }).pipe(withSpan("Support.openTicket", { attributes: { accountId } }))

/** The customer's tickets, newest activity first. */
export const myTickets = (accountId: AccountId, page: PageRequest) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    return yield* (yield* SupportRepo).listForCustomer(customer.id, page)
  }).pipe(withSpan("Support.myTickets", { attributes: { accountId } }))

/** One of the customer's tickets and its conversation, oldest message first; no internal notes. */
export const myTicket = (accountId: AccountId, ticketId: TicketId) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const ticket = yield* ownTicket(customer.id, ticketId)
    const messages = yield* (yield* SupportRepo).messages(ticket.id)
    return { ticket, messages } satisfies CustomerTicket
  }).pipe(withSpan("Support.myTicket", { attributes: { accountId } }))

/**
 * The customer's reply: the ticket becomes open (a resolved one is reopened); a closed ticket is
 * TicketClosed. Reopening is not bounded by MAX_ACTIVE_TICKETS: it continues an existing case.
 */
export const replyAsCustomer = (accountId: AccountId, ticketId: TicketId, message: string) =>
  Effect.gen(function*() {
    const { customer } = yield* requireAccount(accountId)
    const body = yield* validBody("message", message)
    return yield* replyOn(ownTicket(customer.id, ticketId), "customer_reply", {
      authorKind: "customer",
      authorId: customer.id,
      body
    })
  }).pipe(withSpan("Support.replyAsCustomer", { attributes: { accountId } }))
