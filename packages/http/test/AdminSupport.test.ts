/**
 * The support desk in the back office: the queue and its filters, a ticket with its notes apart,
 * reply (the customer is emailed and sees it), internal notes the customer never sees, assign,
 * resolve (a customer reply reopens), close (replies refused), refusals by role, all audited.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, rootToken } from "./support/AdminFixtures.js"
import { api, expectFailure, expectSuccess, expectValidation, post, verifiedAccount } from "./support/Fixtures.js"
import { outbox, type Reply } from "./support/TestServer.js"
import { TicketId } from "@app/domain"

const DESK = "/api/v1/admin/support/tickets"

const openTicket = (token: string, subject: string) =>
  Effect.map(post("/api/v1/support/tickets", { subject, message: "My deposit has not arrived", category: "deposit" }, token), (r) =>
    expectSuccess(r, { status: 201, apiObject: "Support" }))

layer(adminServer(), { excludeTestServices: true, timeout: "60 seconds" })("admin support desk", (it) => {
  describe("the desk", () => {
    it.effect("queue → read → note (never seen by the customer) → reply (emailed) → assign → resolve → reopened by the customer → close", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const support = yield* member("support")
        const customer = yield* verifiedAccount("desk")
        const opened = yield* openTicket(customer.accessToken, "Deposit missing")
        const ticketId: TicketId = opened.id
        const queue = expectSuccess(yield* adminGet(`${DESK}?status=open&assignee=none&customerId=${customer.customerId}`, support.token), { apiObject: "Admin" })
        expect(queue.items.map((t: any) => t.id)).toEqual([ticketId])
        expect(queue.items[0]).toMatchObject({ customerId: customer.customerId, assignedStaffId: null, category: "deposit" })

        const secret = `internal-${randomUUID()}`
        const note = expectSuccess(yield* post(`${DESK}/${ticketId}/notes`, { note: `Checked the bank: ${secret}` }, support.token), {
          status: 201,
          apiObject: "Admin"
        })
        expect(note.staffId).toBe(support.id)
        const reply = expectSuccess(yield* post(`${DESK}/${ticketId}/messages`, { message: "We are on it." }, support.token), {
          status: 201,
          apiObject: "Admin"
        })
        expect(reply.ticket.status).toBe("awaiting_customer")
        expect(reply.message).toMatchObject({ authorKind: "staff", authorId: support.id, body: "We are on it." })
        expect(outbox().filter((m) => m.to === customer.email && m.kind === "support_reply").at(-1)?.text).toContain("We are on it.")

        const detail = expectSuccess(yield* adminGet(`${DESK}/${ticketId}`, support.token), { apiObject: "Admin" })
        expect(detail.messages.map((m: any) => m.authorKind)).toEqual(["customer", "staff"])
        expect(detail.notes.map((n: any) => n.body)).toEqual([`Checked the bank: ${secret}`])
        const seen = yield* api("GET", `/api/v1/support/tickets/${ticketId}`, undefined, customer.accessToken)
        expect(seen.status).toBe(200)
        expect(seen.text).not.toContain(secret)
        expect(seen.text).not.toContain(note.id)

        const assigned = expectSuccess(yield* post(`${DESK}/${ticketId}/assign`, { staffId: support.id }, token), { apiObject: "Admin" })
        expect(assigned.assignedStaffId).toBe(support.id)
        expect(expectSuccess(yield* adminGet(`${DESK}?assignee=${support.id}`, token), { apiObject: "Admin" }).items.map((t: any) => t.id))
          .toContain(ticketId)
        expect(expectSuccess(yield* post(`${DESK}/${ticketId}/resolve`, undefined, support.token), { apiObject: "Admin" }).status).toBe("resolved")
        expectSuccess(yield* post(`/api/v1/support/tickets/${ticketId}/messages`, { message: "Still missing" }, customer.accessToken), {
          status: 201,
          apiObject: "Support"
        })
        expect(expectSuccess(yield* adminGet(`${DESK}/${ticketId}`, token), { apiObject: "Admin" }).ticket.status).toBe("open")
        expect(expectSuccess(yield* post(`${DESK}/${ticketId}/close`, undefined, token), { apiObject: "Admin" }).status).toBe("closed")
        expect(expectFailure(yield* post(`${DESK}/${ticketId}/messages`, { message: "More" }, support.token), 409, /closed/, "Admin").code)
          .toBe("TICKET_CLOSED")

        const audit = expectSuccess(yield* adminGet(`/api/v1/admin/audit?targetKind=ticket&targetId=${ticketId}&pageSize=20`, token), { apiObject: "Admin" })
        expect(audit.items.map((e: any) => e.action).reverse()).toEqual(["ticket.note", "ticket.reply", "ticket.assign", "ticket.resolve", "ticket.close"])
        expect(JSON.stringify(audit)).not.toContain(secret)
      }))

    it.effect("404 for an unknown ticket or assignee; 400 for bad input; 403 for an officer assigning; 401 for a customer token", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const customer = yield* verifiedAccount("desk-errors")
        const opened = yield* openTicket(customer.accessToken, "Another case")
        const ticketId: TicketId = opened.id
        expect(expectFailure(yield* adminGet(`${DESK}/${randomUUID()}`, token), 404, /not found/, "Admin").code).toBe("TICKET_NOT_FOUND")
        const unknown = randomUUID()
        expect(expectFailure(yield* post(`${DESK}/${ticketId}/assign`, { staffId: unknown }, token), 404, /not found/, "Admin"))
          .toEqual({ code: "STAFF_NOT_FOUND", staffId: unknown })
        expectValidation(yield* post(`${DESK}/${ticketId}/notes`, { note: " " }, token), { fields: ["note"], apiObject: "Admin" })
        expectValidation(yield* adminGet(`${DESK}?status=pending&assignee=someone`, token), { fields: ["status", "assignee"], apiObject: "Admin" })
        const officer = yield* member("officer")
        expect(expectFailure(yield* post(`${DESK}/${ticketId}/assign`, { staffId: null }, officer.token), 403, /role/, "Admin").permission)
          .toBe("support:assign")
        expectSuccess(yield* post(`${DESK}/${ticketId}/messages`, { message: "Officer here." }, officer.token), { status: 201, apiObject: "Admin" })
        expectFailure(yield* adminGet(DESK, customer.accessToken), 401, "Authentication required", "Admin")
      }))

    it.effect("every action's refusals: 404 unknown ticket, 400 empty reply or malformed ids, 409 on a closed ticket; none audited", () =>
      Effect.gen(function*() {
        const token = yield* rootToken
        const support = yield* member("support")
        const unknown = randomUUID()
        const notFound = (reply: Reply) => expect(expectFailure(reply, 404, "Ticket not found", "Admin").code).toBe("TICKET_NOT_FOUND")
        notFound(yield* post(`${DESK}/${unknown}/messages`, { message: "Hello" }, support.token))
        notFound(yield* post(`${DESK}/${unknown}/notes`, { note: "A note" }, support.token))
        notFound(yield* post(`${DESK}/${unknown}/assign`, { staffId: support.id }, token))
        notFound(yield* post(`${DESK}/${unknown}/assign`, { staffId: null }, token))
        notFound(yield* post(`${DESK}/${unknown}/resolve`, undefined, support.token))
        notFound(yield* post(`${DESK}/${unknown}/close`, undefined, token))

        const customer = yield* verifiedAccount("desk-refusals")
        const ticketId: TicketId = (yield* openTicket(customer.accessToken, "Refusals")).id
        for (const message of ["", "   "]) {
          expectValidation(yield* post(`${DESK}/${ticketId}/messages`, { message }, support.token), { fields: ["message"], apiObject: "Admin" })
        }
        expectValidation(yield* post(`${DESK}/${ticketId}/messages`, {}, support.token), { fields: ["message"], apiObject: "Admin" })
        expectValidation(yield* adminGet(`${DESK}/not-a-uuid`, token), { fields: ["id"], apiObject: "Admin" })
        const bodies: Record<string, unknown> = { messages: { message: "Hi" }, notes: { note: "A note" }, assign: { staffId: null } }
        for (const action of ["messages", "notes", "assign", "resolve", "close"]) {
          expectValidation(yield* post(`${DESK}/not-a-uuid/${action}`, bodies[action], token), { fields: ["id"], apiObject: "Admin" })
        }
        for (const staffId of ["not-a-uuid", 42, ""]) {
          expectValidation(yield* post(`${DESK}/${ticketId}/assign`, { staffId }, token), { fields: ["staffId"], apiObject: "Admin" })
        }
        expectValidation(yield* post(`${DESK}/${ticketId}/assign`, {}, token), { fields: ["staffId"], apiObject: "Admin" })

        expect(expectSuccess(yield* post(`${DESK}/${ticketId}/close`, undefined, token), { apiObject: "Admin" }).status).toBe("closed")
        const closed = (reply: Reply) => expect(expectFailure(reply, 409, /closed/, "Admin").code).toBe("TICKET_CLOSED")
        closed(yield* post(`${DESK}/${ticketId}/resolve`, undefined, support.token))
        closed(yield* post(`${DESK}/${ticketId}/assign`, { staffId: support.id }, token))
        closed(yield* post(`${DESK}/${ticketId}/assign`, { staffId: null }, token))
        const detail = expectSuccess(yield* adminGet(`${DESK}/${ticketId}`, token), { apiObject: "Admin" })
        expect(detail.ticket).toMatchObject({ status: "closed", assignedStaffId: null })
        expect(detail.messages).toHaveLength(1)
        // the close is the one row: refusals and bad input append nothing
        const audit = expectSuccess(yield* adminGet(`/api/v1/admin/audit?targetKind=ticket&targetId=${ticketId}`, token), { apiObject: "Admin" })
        expect(audit.items.map((e: any) => [e.action, e.before, e.after])).toEqual([
          ["ticket.close", { status: "open", assignedStaffId: null }, { status: "closed", assignedStaffId: null }]
        ])
      }))
  })
})
