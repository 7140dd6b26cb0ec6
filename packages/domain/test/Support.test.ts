/**
 * The customer's side of support tickets: opening (bounds, category, the customer's own
 * transaction, the bound of active tickets, references), listing, reading (only their own, never
 * an internal note) and replying (reopening a resolved ticket, refused on a closed one or on a
 * conversation at its bound of messages).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as Support from "../src/support/index.js"
import { TicketMessage } from "../src/support/Model.js"
import { SupportRepo } from "../src/support/Ports.js"
import { MAX_ACTIVE_TICKETS, MAX_MESSAGES } from "../src/support/Rules.js"
import { registerBola } from "./support/Fixtures.js"
import { SupportStore } from "./support/InMemorySupport.js"
import { adaAndBola, adaWithDeposit, AGENT, openFor, withSupport } from "./support/SupportFixtures.js"
import { TicketId, TransactionId } from "../src/shared/Ids.js"

const page1 = { page: 1, pageSize: 20 }

describe("opening a ticket", () => {
  it.effect("is open, has the next TKT- reference, category general by default, and its first message", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const first = yield* openFor(ada, "  Card declined  ")
      const second = yield* openFor(ada, "KYC question", { category: "kyc" })
      expect(first.ticket).toMatchObject({ reference: "TKT-10001", subject: "Card declined", category: "general", status: "open", assignedStaffId: null, transactionId: null })
      expect(second.ticket).toMatchObject({ reference: "TKT-10002", category: "kyc" })
      expect(first.ticket.lastMessageAt).toEqual(first.ticket.createdAt)
      expect(first.messages).toHaveLength(1)
      expect(first.messages[0]).toMatchObject({ authorKind: "customer", authorId: first.ticket.customerId, body: "I deposited yesterday and see nothing." })
      expect((yield* SupportStore.state).messages).toEqual(first.messages.concat(second.messages))
    })))

  it.effect("subject is 3 to 120 characters and the message 1 to 5000, trimmed, counted in characters", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const refused = (subject: string, message: string) =>
        Effect.flip(Support.openTicket(ada, { subject, message }))
      expect(yield* refused("ab", "hello")).toMatchObject({ _tag: "InvalidTicketField", field: "subject", message: "Must be at least 3 characters" })
      expect(yield* refused("  ab   ", "hello")).toMatchObject({ field: "subject" })
      expect(yield* refused("x".repeat(121), "hello")).toMatchObject({ field: "subject", message: "Must be at most 120 characters" })
      expect(yield* refused("Fine subject", "   ")).toMatchObject({ field: "message", message: "Must not be empty" })
      expect(yield* refused("Fine subject", "m".repeat(5001))).toMatchObject({ field: "message", message: "Must be at most 5000 characters" })
      // two emoji are two characters (four UTF-16 units): still too short
      expect(yield* refused("😀😀", "hello")).toMatchObject({ field: "subject" })
      expect((yield* SupportStore.state).tickets).toHaveLength(0)
      // the bounds themselves are accepted
      yield* Support.openTicket(ada, { subject: "abc", message: "m" })
      yield* Support.openTicket(ada, { subject: "😀".repeat(120), message: "m".repeat(5000) })
      expect((yield* SupportStore.state).tickets).toHaveLength(2)
    })))

  it.effect("a transactionId must be one of the customer's own transactions", () =>
    withSupport(Effect.gen(function*() {
      const { accountId, transactionId } = yield* adaWithDeposit
      const opened = yield* openFor(accountId, "About my deposit", { category: "deposit", transactionId })
      expect(opened.ticket.transactionId).toBe(transactionId)

      const bola = (yield* registerBola).account.id
      expect(yield* Effect.flip(openFor(bola, "Not mine", { transactionId }))).toMatchObject({ _tag: "TicketTransactionNotFound" })
      expect(yield* Effect.flip(openFor(accountId, "Unknown", { transactionId: TransactionId.make("00000000-0000-4000-8000-00000000dead") })))
        .toMatchObject({ _tag: "TicketTransactionNotFound" })
      expect((yield* SupportStore.state).tickets).toHaveLength(1)
    })))

  it.effect(`a customer has at most ${MAX_ACTIVE_TICKETS} active tickets; a resolved one makes room, and a reopen is always allowed`, () =>
    withSupport(Effect.gen(function*() {
      const { ada, bola } = yield* adaAndBola
      const opened = []
      for (let i = 0; i < MAX_ACTIVE_TICKETS; i++) opened.push(yield* openFor(ada, `Question ${i}`))
      expect(yield* Effect.flip(openFor(ada, "One too many"))).toMatchObject({ _tag: "TooManyOpenTickets", maxActive: MAX_ACTIVE_TICKETS })
      // another customer is not affected
      yield* openFor(bola, "Bola's question")
      // awaiting_customer still counts
      yield* Support.replyAsStaff(AGENT, opened[0]!.ticket.id, "Which account?")
      expect(yield* Effect.flip(openFor(ada, "Still too many"))).toMatchObject({ _tag: "TooManyOpenTickets" })

      yield* Support.resolve(opened[1]!.ticket.id)
      const sixth = yield* openFor(ada, "Room again")
      expect(sixth.ticket.status).toBe("open")
      // reopening the resolved one continues a case: allowed beyond the bound
      const reopened = yield* Support.replyAsCustomer(ada, opened[1]!.ticket.id, "It happened again")
      expect(reopened.ticket.status).toBe("open")
      const mine = yield* Support.myTickets(ada, { page: 1, pageSize: 100 })
      expect(mine.items.filter((t) => t.status === "open" || t.status === "awaiting_customer")).toHaveLength(MAX_ACTIVE_TICKETS + 1)
    })))
})

describe("reading tickets", () => {
  it.effect("lists only the customer's own, newest activity first, paged", () =>
    withSupport(Effect.gen(function*() {
      const { ada, bola } = yield* adaAndBola
      const a = yield* openFor(ada, "First")
      const b = yield* openFor(ada, "Second")
      const c = yield* openFor(ada, "Third")
      yield* openFor(bola, "Bola's")
      const refs = (p: { readonly items: ReadonlyArray<{ readonly reference: string }> }) => p.items.map((t) => t.reference)
      expect(refs(yield* Support.myTickets(ada, page1))).toEqual([c, b, a].map((o) => o.ticket.reference))
      // a reply is activity: the first ticket comes to the top
      yield* TestClock.adjust("1 minute")
      yield* Support.replyAsCustomer(ada, a.ticket.id, "Any news?")
      const all = yield* Support.myTickets(ada, page1)
      expect(refs(all)).toEqual([a, c, b].map((o) => o.ticket.reference))
      expect(all.total).toBe(3)
      const second = yield* Support.myTickets(ada, { page: 2, pageSize: 2 })
      expect(second).toMatchObject({ page: 2, pageSize: 2, total: 3 })
      expect(refs(second)).toEqual([b.ticket.reference])
      expect((yield* Support.myTickets(ada, { page: 3, pageSize: 2 })).items).toEqual([])
    })))

  it.effect("another customer's ticket, or an unknown id, is TicketNotFound", () =>
    withSupport(Effect.gen(function*() {
      const { ada, bola } = yield* adaAndBola
      const adas = yield* openFor(ada)
      expect(yield* Effect.flip(Support.myTicket(bola, adas.ticket.id))).toMatchObject({ _tag: "TicketNotFound" })
      expect(yield* Effect.flip(Support.replyAsCustomer(bola, adas.ticket.id, "hijack"))).toMatchObject({ _tag: "TicketNotFound" })
      expect(yield* Effect.flip(Support.myTicket(ada, TicketId.make("00000000-0000-4000-8000-00000000beef")))).toMatchObject({ _tag: "TicketNotFound" })
      expect((yield* SupportStore.state).messages).toHaveLength(1)
    })))

  it.effect("the conversation is oldest first, and an internal note is nowhere in what the customer reads", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const opened = yield* openFor(ada)
      yield* TestClock.adjust("1 minute")
      yield* Support.replyAsStaff(AGENT, opened.ticket.id, "Checking with the bank.")
      const before = yield* Support.myTicket(ada, opened.ticket.id)
      yield* TestClock.adjust("1 hour")
      const note = yield* Support.addNote(AGENT, opened.ticket.id, "SECRET-NOTE: customer sounds like a fraudster")
      // the note changed nothing the customer reads: not the conversation, status, updatedAt or lastMessageAt
      expect(yield* Support.myTicket(ada, opened.ticket.id)).toEqual(before)
      yield* TestClock.adjust("1 minute")
      yield* Support.replyAsCustomer(ada, opened.ticket.id, "Thanks")

      const seen = yield* Support.myTicket(ada, opened.ticket.id)
      expect(seen.messages.map((m) => [m.authorKind, m.body])).toEqual([
        ["customer", "I deposited yesterday and see nothing."],
        ["staff", "Checking with the bank."],
        ["customer", "Thanks"]
      ])
      const listed = yield* Support.myTickets(ada, page1)
      for (const view of [seen, listed]) {
        expect(JSON.stringify(view)).not.toContain("SECRET-NOTE")
        expect(JSON.stringify(view)).not.toContain(note.id)
      }
      // staff do see it
      expect((yield* Support.ticketForStaff(opened.ticket.id)).notes.map((n) => n.body)).toEqual([note.body])
    })))
})

describe("the customer's reply", () => {
  it.effect("keeps an open ticket open, reopens one awaiting the customer or resolved, and moves its activity", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      const statusAfterReply = Effect.gen(function*() {
        yield* TestClock.adjust("1 minute")
        const replied = yield* Support.replyAsCustomer(ada, ticket.id, "  More detail  ")
        expect(replied.message).toMatchObject({ authorKind: "customer", body: "More detail", ticketId: ticket.id })
        expect(replied.ticket.lastMessageAt).toEqual(replied.message.createdAt)
        expect(replied.ticket.updatedAt).toEqual(replied.message.createdAt)
        return replied.ticket.status
      })
      expect(yield* statusAfterReply).toBe("open")
      yield* Support.replyAsStaff(AGENT, ticket.id, "Please send a screenshot")
      expect(yield* statusAfterReply).toBe("open")
      yield* Support.resolve(ticket.id)
      expect(yield* statusAfterReply).toBe("open")
      expect((yield* Support.myTicket(ada, ticket.id)).messages).toHaveLength(5)
    })))

  it.effect("on a closed ticket is TicketClosed and adds nothing", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* Support.close(ticket.id)
      expect(yield* Effect.flip(Support.replyAsCustomer(ada, ticket.id, "Hello?"))).toMatchObject({ _tag: "TicketClosed", reference: ticket.reference })
      const seen = yield* Support.myTicket(ada, ticket.id)
      expect(seen.ticket.status).toBe("closed")
      expect(seen.messages).toHaveLength(1)
    })))

  it.effect("an empty or oversized reply is InvalidTicketField naming message", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      expect(yield* Effect.flip(Support.replyAsCustomer(ada, ticket.id, " \n "))).toMatchObject({ _tag: "InvalidTicketField", field: "message" })
      expect(yield* Effect.flip(Support.replyAsCustomer(ada, ticket.id, "x".repeat(5001)))).toMatchObject({ field: "message" })
      expect((yield* Support.myTicket(ada, ticket.id)).messages).toHaveLength(1)
    })))

  it.effect(`a conversation holds at most ${MAX_MESSAGES} messages: the next reply, customer's or staff's, is TicketConversationFull and changes nothing`, () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      // the first message and MAX_MESSAGES - 1 replies, alternating sides
      for (let i = 1; i < MAX_MESSAGES; i++) {
        yield* (i % 2 === 0 ? Support.replyAsStaff(AGENT, ticket.id, `staff ${i}`) : Support.replyAsCustomer(ada, ticket.id, `customer ${i}`))
      }
      expect((yield* Support.myTicket(ada, ticket.id)).messages).toHaveLength(MAX_MESSAGES)
      yield* Support.resolve(ticket.id)
      const before = yield* Support.ticketForStaff(ticket.id)
      yield* TestClock.adjust("1 minute")
      const full = { _tag: "TicketConversationFull", reference: ticket.reference, maxMessages: MAX_MESSAGES }
      expect(yield* Effect.flip(Support.replyAsCustomer(ada, ticket.id, "One more"))).toMatchObject(full)
      expect(yield* Effect.flip(Support.replyAsStaff(AGENT, ticket.id, "One more"))).toMatchObject(full)
      // not reopened, not touched: same status, times and conversation
      expect(yield* Support.ticketForStaff(ticket.id)).toEqual(before)
      expect(before.ticket.status).toBe("resolved")
      // notes are not messages: still allowed, and closing still works
      yield* Support.addNote(AGENT, ticket.id, "Asked to open a new ticket")
      expect((yield* Support.close(ticket.id)).status).toBe("closed")
      expect((yield* SupportStore.state).messages.filter((m) => m.ticketId === ticket.id)).toHaveLength(MAX_MESSAGES)
    })))

  it.effect("a reply that loses the race for the last place is counted again inside the unit of work and refused", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      for (let i = 2; i < MAX_MESSAGES; i++) yield* Support.replyAsCustomer(ada, ticket.id, `reply ${i}`)
      // one place left; another reply lands after our first count, just before our update
      const racing = Effect.map(SupportRepo, (repo) =>
        SupportRepo.of({
          ...repo,
          update: (id, from, patch) =>
            Effect.zipRight(
              repo.addMessage(
                new TicketMessage({ id: "7e000000-0000-4000-8000-000000000001", ticketId: TicketId.make(id), authorKind: "staff", authorId: AGENT, body: "racing", createdAt: patch.updatedAt })
              ),
              repo.update(id, from, patch)
            )
        }))
      const refused = yield* Effect.flip(Support.replyAsCustomer(ada, ticket.id, "too late").pipe(Effect.provideServiceEffect(SupportRepo, racing)))
      expect(refused).toMatchObject({ _tag: "TicketConversationFull", maxMessages: MAX_MESSAGES })
      const bodies = (yield* Support.myTicket(ada, ticket.id)).messages.map((m) => m.body)
      expect(bodies).toHaveLength(MAX_MESSAGES)
      expect(bodies.at(-1)).toBe("racing")
    })))
})
