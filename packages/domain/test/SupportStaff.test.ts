/**
 * The staff side of support tickets (domain only; the back office adds endpoints): the queue and
 * its filters, reading with notes, replying (emails the customer), notes, assignment, resolving,
 * closing; the rules table; and compare-and-set when a ticket changes under a use case.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Ref, TestClock } from "effect"
import * as Notifications from "../src/notifications/Preferences.js"
import { TICKET_STATUSES, type TicketStatus } from "../src/support/Model.js"
import { changeTicket } from "../src/support/Changes.js"
import * as Support from "../src/support/index.js"
import { decide, type TicketAction } from "../src/support/Rules.js"
import { SupportRepo, type TicketFilter } from "../src/support/Ports.js"
import { Sent, Store } from "./support/InMemory.js"
import { SupportStore } from "./support/InMemorySupport.js"
import { adaAndBola, AGENT, openFor, STRANGER, SUPERVISOR, withSupport } from "./support/SupportFixtures.js"
import { TicketId } from "../src/shared/Ids.js"

const page1 = { page: 1, pageSize: 20 }
const replies = Effect.map(Sent.all, (all) => all.filter((m) => m.kind === "support_reply"))

describe("the rules", () => {
  it("every action in every status, as the table in Rules.ts says", () => {
    const expected: Record<TicketStatus, Record<TicketAction, string>> = {
      open: { customer_reply: "open", staff_reply: "awaiting_customer", resolve: "resolved", close: "closed", assign: "open" },
      awaiting_customer: { customer_reply: "open", staff_reply: "awaiting_customer", resolve: "resolved", close: "closed", assign: "awaiting_customer" },
      resolved: { customer_reply: "open", staff_reply: "awaiting_customer", resolve: "unchanged", close: "closed", assign: "resolved" },
      closed: { customer_reply: "refused", staff_reply: "refused", resolve: "refused", close: "unchanged", assign: "refused" }
    }
    for (const from of TICKET_STATUSES) {
      for (const action of Object.keys(expected[from]) as Array<TicketAction>) {
        const d = decide(from, action)
        expect(d._tag === "To" ? d.status : d._tag.toLowerCase(), `${action} on ${from}`).toBe(expected[from][action])
      }
    }
  })
})

describe("staff replies", () => {
  it.effect("make the ticket awaiting_customer and email the customer the reply, whatever their optional-mail setting", () =>
    withSupport(Effect.gen(function*() {
      const { ada, adaEmail } = yield* adaAndBola
      yield* Notifications.updateNotificationSettings(ada, { emailEnabled: false, smsEnabled: false })
      const { ticket } = yield* openFor(ada)
      yield* TestClock.adjust("5 minutes")
      const replied = yield* Support.replyAsStaff(AGENT, ticket.id, "  We found your deposit.  ")
      expect(replied.ticket.status).toBe("awaiting_customer")
      expect(replied.message).toMatchObject({ authorKind: "staff", authorId: AGENT, body: "We found your deposit." })
      expect(replied.ticket.lastMessageAt).toEqual(replied.message.createdAt)
      const sent = yield* replies
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatchObject({ channel: "email", to: adaEmail, subject: `Re: [${ticket.reference}] ${ticket.subject}` })
      expect(sent[0]!.text).toContain("We found your deposit.")
      expect(sent[0]!.text).toContain(ticket.reference)
      // a second reply keeps it awaiting the customer, and emails again
      expect((yield* Support.replyAsStaff(SUPERVISOR, ticket.id, "Anything else?")).ticket.status).toBe("awaiting_customer")
      expect(yield* replies).toHaveLength(2)
    })))

  it.effect("on a resolved ticket reopens it as awaiting_customer", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* Support.resolve(ticket.id)
      expect((yield* Support.replyAsStaff(AGENT, ticket.id, "One more thing")).ticket.status).toBe("awaiting_customer")
    })))

  it.effect("are refused on a closed ticket, by someone not on staff, or for an unknown ticket; nothing is sent", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      expect(yield* Effect.flip(Support.replyAsStaff(STRANGER, ticket.id, "Hi"))).toMatchObject({ _tag: "StaffNotFound", staffId: STRANGER })
      expect(yield* Effect.flip(Support.replyAsStaff(AGENT, TicketId.make("00000000-0000-4000-8000-00000000beef"), "Hi"))).toMatchObject({ _tag: "TicketNotFound" })
      expect(yield* Effect.flip(Support.replyAsStaff(AGENT, ticket.id, ""))).toMatchObject({ _tag: "InvalidTicketField", field: "message" })
      yield* Support.close(ticket.id)
      expect(yield* Effect.flip(Support.replyAsStaff(AGENT, ticket.id, "Hi"))).toMatchObject({ _tag: "TicketClosed" })
      expect(yield* replies).toHaveLength(0)
      expect((yield* SupportStore.state).messages).toHaveLength(1)
    })))

  it.effect("are stored even when the email cannot be sent (deleted customer: nobody to write to)", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* Store.setCustomerStatus(ada, "deleted")
      expect((yield* Support.replyAsStaff(AGENT, ticket.id, "Hello")).ticket.status).toBe("awaiting_customer")
      expect(yield* replies).toHaveLength(0)
      expect((yield* Support.ticketForStaff(ticket.id)).messages).toHaveLength(2)
    })))
})

describe("internal notes", () => {
  it.effect("are read by staff beside the conversation, allowed in any status, and bounded", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      const first = yield* Support.addNote(AGENT, ticket.id, "  Checked the ledger  ")
      const closed = yield* Support.close(ticket.id)
      yield* TestClock.adjust("1 minute")
      const second = yield* Support.addNote(SUPERVISOR, ticket.id, "Closed after review")
      const view = yield* Support.ticketForStaff(ticket.id)
      expect(view.notes.map((n) => [n.staffId, n.body])).toEqual([[AGENT, "Checked the ledger"], [SUPERVISOR, "Closed after review"]])
      expect(view.notes).toEqual([first, second])
      expect(view.messages).toHaveLength(1)
      // a note changes nothing of the ticket (status, updatedAt, lastMessageAt)
      expect(view.ticket).toEqual(closed)
      expect(yield* Effect.flip(Support.addNote(AGENT, ticket.id, ""))).toMatchObject({ _tag: "InvalidTicketField", field: "note" })
      expect(yield* Effect.flip(Support.addNote(AGENT, ticket.id, "n".repeat(5001)))).toMatchObject({ field: "note" })
      expect(yield* Effect.flip(Support.addNote(STRANGER, ticket.id, "hi"))).toMatchObject({ _tag: "StaffNotFound" })
      expect(yield* Effect.flip(Support.addNote(AGENT, TicketId.make("00000000-0000-4000-8000-00000000beef"), "hi"))).toMatchObject({ _tag: "TicketNotFound" })
      expect((yield* SupportStore.state).notes).toHaveLength(2)
    })))
})

describe("assignment, resolving and closing", () => {
  it.effect("assigns to a staff member, reassigns, unassigns; an unknown staff id or a closed ticket is refused", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* TestClock.adjust("1 minute")
      const assigned = yield* Support.assign(ticket.id, AGENT)
      expect(assigned).toMatchObject({ assignedStaffId: AGENT, status: "open" })
      expect(assigned.updatedAt.getTime()).toBeGreaterThan(ticket.updatedAt.getTime())
      expect(assigned.lastMessageAt).toEqual(ticket.lastMessageAt)
      expect((yield* Support.assign(ticket.id, SUPERVISOR)).assignedStaffId).toBe(SUPERVISOR)
      expect(yield* Effect.flip(Support.assign(ticket.id, STRANGER))).toMatchObject({ _tag: "StaffNotFound", staffId: STRANGER })
      expect((yield* Support.ticketForStaff(ticket.id)).ticket.assignedStaffId).toBe(SUPERVISOR)
      expect((yield* Support.assign(ticket.id, null)).assignedStaffId).toBeNull()
      yield* Support.close(ticket.id)
      expect(yield* Effect.flip(Support.assign(ticket.id, AGENT))).toMatchObject({ _tag: "TicketClosed" })
      expect(yield* Effect.flip(Support.assign(TicketId.make("00000000-0000-4000-8000-00000000beef"), AGENT))).toMatchObject({ _tag: "TicketNotFound" })
    })))

  it.effect("resolve: open or awaiting_customer → resolved; again changes nothing; closed is refused", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const a = (yield* openFor(ada, "First")).ticket
      const b = (yield* openFor(ada, "Second")).ticket
      yield* Support.replyAsStaff(AGENT, b.id, "Done?")
      const resolved = yield* Support.resolve(a.id)
      expect(resolved.status).toBe("resolved")
      expect((yield* Support.resolve(b.id)).status).toBe("resolved")
      yield* TestClock.adjust("1 hour")
      expect(yield* Support.resolve(a.id)).toEqual(resolved)
      yield* Support.close(a.id)
      expect(yield* Effect.flip(Support.resolve(a.id))).toMatchObject({ _tag: "TicketClosed", reference: a.reference })
    })))

  it.effect("close is final from any status; closing again changes nothing", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const open = (yield* openFor(ada, "Open one")).ticket
      const awaiting = (yield* openFor(ada, "Awaiting one")).ticket
      const resolved = (yield* openFor(ada, "Resolved one")).ticket
      yield* Support.replyAsStaff(AGENT, awaiting.id, "?")
      yield* Support.resolve(resolved.id)
      for (const t of [open, awaiting, resolved]) {
        const closed = yield* Support.close(t.id)
        expect(closed.status).toBe("closed")
        yield* TestClock.adjust("1 minute")
        expect(yield* Support.close(t.id)).toEqual(closed)
        expect(yield* Effect.flip(Support.replyAsCustomer(ada, t.id, "reopen?"))).toMatchObject({ _tag: "TicketClosed" })
      }
    })))
})

describe("the queue", () => {
  it.effect("filters by status, category, assignee (or unassigned) and customer, newest activity first, paged", () =>
    withSupport(Effect.gen(function*() {
      const { ada, bola } = yield* adaAndBola
      const a1 = (yield* openFor(ada, "Deposit missing", { category: "deposit" })).ticket
      const a2 = (yield* openFor(ada, "KYC stuck", { category: "kyc" })).ticket
      const b1 = (yield* openFor(bola, "Transfer late", { category: "transfer" })).ticket
      yield* Support.assign(a1.id, AGENT)
      yield* Support.assign(b1.id, SUPERVISOR)
      yield* Support.replyAsStaff(AGENT, a2.id, "Upload your ID")
      const refs = (filter: TicketFilter, page = page1) =>
        Effect.map(Support.queue(filter, page), (p) => ({ refs: p.items.map((t) => t.reference), total: p.total }))
      const adaCustomerId = a1.customerId
      expect(yield* refs({})).toEqual({ refs: [b1, a2, a1].map((t) => t.reference), total: 3 })
      expect(yield* refs({ status: "awaiting_customer" })).toEqual({ refs: [a2.reference], total: 1 })
      expect(yield* refs({ status: "open" })).toEqual({ refs: [b1.reference, a1.reference], total: 2 })
      expect(yield* refs({ category: "deposit" })).toEqual({ refs: [a1.reference], total: 1 })
      expect(yield* refs({ assignedStaffId: AGENT })).toEqual({ refs: [a1.reference], total: 1 })
      expect(yield* refs({ assignedStaffId: null })).toEqual({ refs: [a2.reference], total: 1 })
      expect(yield* refs({ customerId: adaCustomerId })).toEqual({ refs: [a2.reference, a1.reference], total: 2 })
      expect(yield* refs({ customerId: adaCustomerId, status: "open", category: "deposit", assignedStaffId: AGENT })).toEqual({ refs: [a1.reference], total: 1 })
      expect(yield* refs({ status: "closed" })).toEqual({ refs: [], total: 0 })
      expect(yield* refs({}, { page: 2, pageSize: 2 })).toEqual({ refs: [a1.reference], total: 3 })
    })))
})

describe("compare and set", () => {
  it.effect("a change decided on a stale status is decided again on the fresh one", () =>
    withSupport(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      const repo = yield* SupportRepo
      const reads = yield* Ref.make(0)
      // the first read returns the ticket as it was, and staff close it right after
      const racingLoad = Effect.gen(function*() {
        const n = yield* Ref.getAndUpdate(reads, (i) => i + 1)
        const current = Option.getOrThrow(yield* repo.findById(ticket.id))
        if (n === 0) yield* Support.close(ticket.id)
        return current
      })
      const refused = yield* Effect.flip(changeTicket(racingLoad, "customer_reply", { reply: { authorKind: "customer", authorId: ticket.customerId, body: "late" } }))
      expect(refused).toMatchObject({ _tag: "TicketClosed" })
      expect(yield* Ref.get(reads)).toBe(2)
      expect((yield* SupportStore.state).messages).toHaveLength(1)
    })))
})
