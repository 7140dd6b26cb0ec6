/**
 * The customer's support endpoints end to end: GET/POST /api/v1/support/tickets, GET
 * /support/tickets/{id} and POST /support/tickets/{id}/messages, with every error they answer.
 * Staff act here through the domain use cases inside the server's layer, which is also how the test
 * proves an internal note never reaches a customer; the back office's own endpoints
 * (/api/v1/admin/support/tickets) are tested in AdminSupport.test.ts.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { StaffId, Support } from "@app/domain"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { api, expectFailure, expectSuccess, expectValidation, post, UUID_PATTERN, verifiedAccount } from "./support/Fixtures.js"
import { bankCustomer, get } from "./support/BankingFixtures.js"
import { outbox, TestServer } from "./support/TestServer.js"

const TICKETS = "/api/v1/support/tickets"
const OBJECT = "Support"
const NOT_FOUND = "Ticket not found"
const AUTH = "Authentication required"
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const TICKET_KEYS = ["category", "createdAt", "id", "lastMessageAt", "reference", "status", "subject", "transactionId", "updatedAt"]
const MESSAGE_KEYS = ["authorKind", "body", "createdAt", "id"]

const openTicket = (token: string | undefined, body: unknown) => post(TICKETS, body, token)
const reply = (token: string | undefined, id: string, body: unknown) => post(`${TICKETS}/${id}/messages`, body, token)

const opened = (token: string, body: Record<string, unknown> = {}) =>
  Effect.map(
    openTicket(token, { subject: "Where is my money?", message: "I deposited yesterday.", ...body }),
    (r) => expectSuccess(r, { status: 201, apiObject: OBJECT, message: "Ticket opened." })
  )

const ticket = (token: string, id: string) =>
  Effect.map(get(`${TICKETS}/${id}`, token), (r) => expectSuccess(r, { apiObject: OBJECT }))

const listed = (token: string, query = "") => Effect.map(get(`${TICKETS}${query}`, token), (r) => expectSuccess(r, { apiObject: OBJECT }))

/** A staff member in the `staff` table; their id. */
const hireStaff = Effect.gen(function*() {
  const id = randomUUID()
  yield* (yield* SqlClient.SqlClient)`INSERT INTO staff (id, email, created_at) VALUES (${id}, ${`agent-${id}@example.com`}, now())`
  return id
})

/** A customer with one confirmed test deposit; its transaction id. */
const customerWithDeposit = (tag: string) =>
  Effect.gen(function*() {
    const customer = yield* bankCustomer(tag)
    expectSuccess(yield* post("/api/v1/transactions/deposit/test", { amountKobo: 5_000 }, customer.accessToken), { apiObject: "Transaction" })
    const transactions = expectSuccess(yield* get("/api/v1/transactions", customer.accessToken), { apiObject: "Transaction" })
    return { ...customer, transactionId: transactions.items[0].id as string }
  })

layer(TestServer, { excludeTestServices: true, timeout: "120 seconds" })("support tickets", (it) => {
  describe("POST /api/v1/support/tickets", () => {
    it.effect("201: the ticket (open, TKT- reference, category general) with its first message; no staff or note fields", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-open")
        const result = yield* opened(ada.accessToken, { subject: "  Card declined  ", message: "  Twice today. " })
        expect(Object.keys(result).sort()).toEqual([...TICKET_KEYS, "messages"].sort())
        expect(result).toMatchObject({ subject: "Card declined", category: "general", status: "open", transactionId: null })
        expect(result.id).toMatch(UUID_PATTERN)
        expect(result.reference).toMatch(/^TKT-\d{5,}$/)
        for (const field of ["createdAt", "updatedAt", "lastMessageAt"]) expect(result[field]).toMatch(ISO)
        expect(result.messages).toHaveLength(1)
        expect(Object.keys(result.messages[0]).sort()).toEqual(MESSAGE_KEYS)
        expect(result.messages[0]).toMatchObject({ authorKind: "customer", body: "Twice today." })
        const next = yield* opened(ada.accessToken, { category: "kyc" })
        expect(next.category).toBe("kyc")
        expect(Number(next.reference.slice(4))).toBe(Number(result.reference.slice(4)) + 1)
      }))

    it.effect("400 with fieldErrors: missing, too short or too long fields, a bad category, a malformed transactionId", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-invalid")
        const missing = expectValidation(yield* openTicket(ada.accessToken, {}), { fields: ["subject", "message"], apiObject: OBJECT })
        expect(missing.fieldErrors.subject).toBeDefined()
        const bounds = expectValidation(
          yield* openTicket(ada.accessToken, { subject: " ab ", message: "x".repeat(5001) }),
          { fields: ["subject", "message"], apiObject: OBJECT }
        )
        expect(bounds.fieldErrors).toEqual({ subject: ["Must be at least 3 characters"], message: ["Must be at most 5000 characters"] })
        const blank = expectValidation(yield* openTicket(ada.accessToken, { subject: "x".repeat(121), message: "   " }), { apiObject: OBJECT })
        expect(blank.fieldErrors).toEqual({ subject: ["Must be at most 120 characters"], message: ["Must not be empty"] })
        const category = expectValidation(
          yield* openTicket(ada.accessToken, { subject: "Hello there", message: "hi", category: "billing" }),
          { fields: ["category"], apiObject: OBJECT }
        )
        expect(category.fieldErrors.category).toEqual(["category must be one of general, deposit, disbursement, transfer, account, kyc"])
        for (const transactionId of ["tx-1", 42, {}]) {
          const malformed = expectValidation(
            yield* openTicket(ada.accessToken, { subject: "Hello there", message: "hi", transactionId }),
            { fields: ["transactionId"], apiObject: OBJECT }
          )
          expect(malformed.fieldErrors.transactionId).toEqual(["Must be a valid UUID"])
        }
        expectValidation(yield* openTicket(ada.accessToken, { subject: 42, message: ["hi"] }), { fields: ["subject", "message"], apiObject: OBJECT })
        expect((yield* listed(ada.accessToken)).total).toBe(0)
      }))

    it.effect("transactionId: the customer's own is kept; another customer's or an unknown one is 400 naming transactionId", () =>
      Effect.gen(function*() {
        const ada = yield* customerWithDeposit("support-tx-ada")
        const bola = yield* verifiedAccount("support-tx-bola")
        const mine = yield* opened(ada.accessToken, { category: "deposit", transactionId: ada.transactionId })
        expect(mine.transactionId).toBe(ada.transactionId)
        for (const transactionId of [ada.transactionId, randomUUID()]) {
          const error = expectValidation(
            yield* openTicket(bola.accessToken, { subject: "About a deposit", message: "hi", transactionId }),
            { fields: ["transactionId"], apiObject: OBJECT }
          )
          expect(error.fieldErrors.transactionId).toEqual(["No transaction of yours has this id"])
        }
        expect((yield* listed(bola.accessToken)).total).toBe(0)
        // null is the same as leaving it out
        expect((yield* opened(bola.accessToken, { transactionId: null })).transactionId).toBeNull()
      }))

    it.effect(`409 TOO_MANY_OPEN_TICKETS at ${Support.MAX_ACTIVE_TICKETS} active tickets`, () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-bound")
        for (let i = 0; i < Support.MAX_ACTIVE_TICKETS; i++) yield* opened(ada.accessToken, { subject: `Question ${i}` })
        const error = expectFailure(
          yield* openTicket(ada.accessToken, { subject: "One more", message: "hi" }),
          409,
          /open tickets/,
          OBJECT
        )
        expect(error).toEqual({ code: "TOO_MANY_OPEN_TICKETS", maxActive: Support.MAX_ACTIVE_TICKETS })
      }))

    it.effect("401 without a token on every endpoint", () =>
      Effect.gen(function*() {
        const id = randomUUID()
        expectFailure(yield* openTicket(undefined, { subject: "Hello there", message: "hi" }), 401, AUTH, OBJECT)
        expectFailure(yield* get(TICKETS), 401, AUTH, OBJECT)
        expectFailure(yield* get(`${TICKETS}/${id}`), 401, AUTH, OBJECT)
        expectFailure(yield* reply(undefined, id, { message: "hi" }), 401, AUTH, OBJECT)
        expectFailure(yield* get(TICKETS, "not-a-token"), 401, AUTH, OBJECT)
      }))
  })

  describe("GET /api/v1/support/tickets and /tickets/{id}", () => {
    it.effect("lists only the customer's own, newest activity first, in the shared page shape", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-list")
        const bola = yield* verifiedAccount("support-list-other")
        const first = yield* opened(ada.accessToken, { subject: "First" })
        const second = yield* opened(ada.accessToken, { subject: "Second" })
        yield* opened(bola.accessToken, { subject: "Bola's" })
        const page = yield* listed(ada.accessToken)
        expect(page).toMatchObject({ page: 1, pageSize: 20, total: 2, totalPages: 1 })
        expect(page.items.map((t: any) => t.id)).toEqual([second.id, first.id])
        expect(Object.keys(page.items[0]).sort()).toEqual(TICKET_KEYS)
        // a reply is activity
        expectSuccess(yield* reply(ada.accessToken, first.id, { message: "Any news?" }), { status: 201, apiObject: OBJECT })
        expect((yield* listed(ada.accessToken)).items.map((t: any) => t.id)).toEqual([first.id, second.id])
        const paged = yield* listed(ada.accessToken, "?page=2&pageSize=1")
        expect(paged).toMatchObject({ page: 2, pageSize: 1, total: 2, totalPages: 2 })
        expect(paged.items.map((t: any) => t.id)).toEqual([second.id])
        expectValidation(yield* get(`${TICKETS}?pageSize=101`, ada.accessToken), { fields: ["pageSize"], apiObject: OBJECT })
        expectValidation(yield* get(`${TICKETS}?page=0`, ada.accessToken), { fields: ["page"], apiObject: OBJECT })
      }))

    it.effect("one ticket with its conversation oldest first; another's or unknown is 404; a malformed id 400", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-get")
        const bola = yield* verifiedAccount("support-get-other")
        const staff = yield* hireStaff
        const created = yield* opened(ada.accessToken)
        yield* Support.replyAsStaff(StaffId.make(staff), created.id, "We are looking into it.")
        expectSuccess(yield* reply(ada.accessToken, created.id, { message: "Thanks" }), { status: 201, apiObject: OBJECT })
        const seen = yield* ticket(ada.accessToken, created.id)
        expect(Object.keys(seen).sort()).toEqual([...TICKET_KEYS, "messages"].sort())
        expect(seen.messages.map((m: any) => [m.authorKind, m.body])).toEqual([
          ["customer", "I deposited yesterday."],
          ["staff", "We are looking into it."],
          ["customer", "Thanks"]
        ])
        expect(JSON.stringify(seen)).not.toContain(staff)

        const error = expectFailure(yield* get(`${TICKETS}/${created.id}`, bola.accessToken), 404, NOT_FOUND, OBJECT)
        expect(error.code).toBe("TICKET_NOT_FOUND")
        expectFailure(yield* get(`${TICKETS}/${randomUUID()}`, ada.accessToken), 404, NOT_FOUND, OBJECT)
        expectValidation(yield* get(`${TICKETS}/not-a-uuid`, ada.accessToken), { fields: ["id"], apiObject: OBJECT })
      }))
  })

  describe("POST /api/v1/support/tickets/{id}/messages", () => {
    it.effect("201 with the reply and the ticket; a staff reply emails the customer; the customer's reply reopens a resolved ticket", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-reply")
        const staff = yield* hireStaff
        const created = yield* opened(ada.accessToken)
        yield* Support.replyAsStaff(StaffId.make(staff), created.id, "Please send the session id.")
        const emailed = outbox().filter((m) => m.kind === "support_reply" && m.to === ada.email)
        expect(emailed).toHaveLength(1)
        expect(emailed[0]!.text).toContain("Please send the session id.")
        expect(emailed[0]!.subject).toContain(created.reference)
        expect((yield* ticket(ada.accessToken, created.id)).status).toBe("awaiting_customer")

        const answered = expectSuccess(
          yield* reply(ada.accessToken, created.id, { message: "  It is 000013...  " }),
          { status: 201, apiObject: OBJECT, message: "Reply sent." }
        )
        expect(Object.keys(answered).sort()).toEqual(["message", "ticket"])
        expect(Object.keys(answered.message).sort()).toEqual(MESSAGE_KEYS)
        expect(answered.message).toMatchObject({ authorKind: "customer", body: "It is 000013..." })
        expect(answered.ticket).toMatchObject({ id: created.id, status: "open", lastMessageAt: answered.message.createdAt })

        yield* Support.resolve(created.id)
        expect((yield* ticket(ada.accessToken, created.id)).status).toBe("resolved")
        const reopened = expectSuccess(yield* reply(ada.accessToken, created.id, { message: "It happened again" }), { status: 201, apiObject: OBJECT })
        expect(reopened.ticket.status).toBe("open")
      }))

    it.effect("409 TICKET_CLOSED on a closed ticket; 404 for another's or unknown; 400 for an empty or oversized message or a malformed id", () =>
      Effect.gen(function*() {
        const ada = yield* verifiedAccount("support-reply-errors")
        const bola = yield* verifiedAccount("support-reply-errors-other")
        const created = yield* opened(ada.accessToken)
        expectValidation(yield* reply(ada.accessToken, created.id, { message: "  " }), { fields: ["message"], apiObject: OBJECT })
        expectValidation(yield* reply(ada.accessToken, created.id, { message: "m".repeat(5001) }), { fields: ["message"], apiObject: OBJECT })
        expectValidation(yield* reply(ada.accessToken, created.id, {}), { fields: ["message"], apiObject: OBJECT })
        expectValidation(yield* reply(ada.accessToken, "nope", { message: "hi" }), { fields: ["id"], apiObject: OBJECT })
        expectFailure(yield* reply(bola.accessToken, created.id, { message: "hi" }), 404, NOT_FOUND, OBJECT)
        expectFailure(yield* reply(ada.accessToken, randomUUID(), { message: "hi" }), 404, NOT_FOUND, OBJECT)

        yield* Support.close(created.id)
        const error = expectFailure(yield* reply(ada.accessToken, created.id, { message: "hello?" }), 409, "This ticket is closed; open a new ticket", OBJECT)
        expect(error).toEqual({ code: "TICKET_CLOSED", reference: created.reference })
        const seen = yield* ticket(ada.accessToken, created.id)
        expect(seen.status).toBe("closed")
        expect(seen.messages).toHaveLength(1)
      }))
  })

  it.effect(`409 TICKET_CONVERSATION_FULL once the conversation holds ${Support.MAX_MESSAGES} messages, also for replies sent at once`, () =>
    Effect.gen(function*() {
      const ada = yield* verifiedAccount("support-full")
      const staff = yield* hireStaff
      const created = yield* opened(ada.accessToken)
      // fill the conversation directly to two places short of the bound
      yield* (yield* SqlClient.SqlClient)`
        INSERT INTO support_ticket_messages (id, ticket_id, author_kind, author_id, body, created_at)
        SELECT gen_random_uuid(), t.id, 'customer', t.customer_id, 'filler ' || g, now()
        FROM support_tickets t, generate_series(1, ${Support.MAX_MESSAGES - 3}) g WHERE t.id = ${created.id}`
      expect((yield* ticket(ada.accessToken, created.id)).messages).toHaveLength(Support.MAX_MESSAGES - 2)
      // four replies at once for the last two places (on PostgreSQL they really race)
      const replies = yield* Effect.all(
        [1, 2, 3, 4].map((i) => reply(ada.accessToken, created.id, { message: `at once ${i}` })),
        { concurrency: "unbounded" }
      )
      expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 409, 409])
      for (const refused of replies.filter((r) => r.status === 409)) {
        const error = expectFailure(refused, 409, `This ticket has reached its limit of ${Support.MAX_MESSAGES} messages; open a new ticket`, OBJECT)
        expect(error).toEqual({ code: "TICKET_CONVERSATION_FULL", reference: created.reference, maxMessages: Support.MAX_MESSAGES })
      }
      const full = yield* ticket(ada.accessToken, created.id)
      expect(full.messages).toHaveLength(Support.MAX_MESSAGES)
      // staff cannot add one either, and a refused reply does not reopen a resolved ticket
      yield* Support.resolve(created.id)
      expect(yield* Effect.flip(Support.replyAsStaff(StaffId.make(staff), created.id, "One more"))).toMatchObject({ _tag: "TicketConversationFull" })
      expectFailure(yield* reply(ada.accessToken, created.id, { message: "reopen?" }), 409, /limit of/, OBJECT)
      const after = yield* ticket(ada.accessToken, created.id)
      expect(after.status).toBe("resolved")
      expect(after.messages).toHaveLength(Support.MAX_MESSAGES)
      expect(after.lastMessageAt).toBe(full.lastMessageAt)
    }))

  it.effect("an internal note never reaches any customer response", () =>
    Effect.gen(function*() {
      const NOTE = `INTERNAL-NOTE-${randomUUID()}`
      const ada = yield* verifiedAccount("support-note")
      const staff = yield* hireStaff
      const created = yield* opened(ada.accessToken)
      yield* Support.replyAsStaff(StaffId.make(staff), created.id, "A visible reply")
      const note = yield* Support.addNote(StaffId.make(staff), created.id, NOTE)
      // the note is stored, and staff read it
      expect((yield* Support.ticketForStaff(created.id)).notes.map((n) => n.body)).toEqual([NOTE])

      const replies = [
        yield* get(TICKETS, ada.accessToken),
        yield* get(`${TICKETS}?page=1&pageSize=100`, ada.accessToken),
        yield* get(`${TICKETS}/${created.id}`, ada.accessToken),
        yield* reply(ada.accessToken, created.id, { message: "My reply" }),
        yield* openTicket(ada.accessToken, { subject: "Another one", message: "hi" })
      ]
      yield* Support.close(created.id)
      replies.push(yield* reply(ada.accessToken, created.id, { message: "after close" }))
      replies.push(yield* get(`${TICKETS}/${created.id}`, ada.accessToken))
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 201, 201, 409, 200])
      for (const r of replies) {
        expect(r.text).not.toContain(NOTE)
        expect(r.text).not.toContain(note.id)
        expect(r.text).not.toContain(staff)
      }
      // and the conversation the customer sees is the conversation alone
      const seen = expectSuccess(replies.at(-1)!, { apiObject: OBJECT })
      expect(seen.messages.map((m: any) => m.body)).toEqual(["I deposited yesterday.", "A visible reply", "My reply"])
    }))

  it.effect("the OpenAPI document lists the support endpoints with their statuses", () =>
    Effect.gen(function*() {
      const doc = (yield* api("GET", "/api/v1/openapi.json")).body
      expect(Object.keys(doc.paths["/api/v1/support/tickets"]).sort()).toEqual(["get", "post"])
      expect(Object.keys(doc.paths["/api/v1/support/tickets/{id}/messages"].post.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "404", "409"]))
    }))
})
