/**
 * SupportRepoSql and SupportStaffSql against a real database (PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set): references from the sequence, the bound of active tickets under
 * concurrency, compare-and-set updates, the staff queue's filters, and notes kept apart from the
 * conversation (and from its count of messages).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { CustomerId, InternalNote, StaffId, SupportRepo, SupportStaff, TicketId, TicketMessage, TransactionId, TransactionRepo, type Ticket } from "@app/domain"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { AppConfigTest } from "../src/AppConfig.js"
import { adaptersLayer } from "../src/Live.js"
import { describeBackend, TestSqlLayer } from "../src/testing/TestDatabase.js"
import { newCustomer } from "../src/testing/Customers.js"

const Repos = adaptersLayer(TestSqlLayer).pipe(Layer.provide(AppConfigTest()))

const at = new Date("2026-05-01T08:00:00.000Z")
const minutes = (m: number) => new Date(at.getTime() + m * 60_000)
const page1 = { page: 1, pageSize: 20 }

const message = (ticketId: TicketId, authorId: string, body: string, createdAt: Date, authorKind: "customer" | "staff" = "customer") =>
  new TicketMessage({ id: randomUUID(), ticketId, authorKind, authorId, body, createdAt })

type Fields = Partial<Pick<Ticket, "category" | "transactionId" | "subject">>

/** Tries to open a ticket for the customer at `when` under the bound `maxActive`, with its first message. */
const tryOpen = (customerId: CustomerId, when: Date, fields: Fields = {}, maxActive = 100) =>
  Effect.gen(function*() {
    const id = TicketId.make(randomUUID())
    return yield* (yield* SupportRepo).open({
      id,
      customerId,
      subject: fields.subject ?? "Where is my money?",
      category: fields.category ?? "general",
      transactionId: fields.transactionId ?? null,
      status: "open",
      assignedStaffId: null,
      createdAt: when,
      updatedAt: when,
      lastMessageAt: when
    }, message(id, customerId, "first message", when), maxActive)
  })

/** Opens a ticket (bound 100); the stored ticket. */
const open = (customerId: CustomerId, when: Date, fields: Fields = {}) => Effect.map(tryOpen(customerId, when, fields), Option.getOrThrow)

const hire = Effect.gen(function*() {
  const id = StaffId.make(randomUUID())
  yield* (yield* SqlClient.SqlClient)`INSERT INTO staff (id, email, created_at) VALUES (${id}, ${`staff-${id}@example.com`}, ${at})`
  return id
})

const numberOf = (t: Ticket) => Number(t.reference.replace(/^TKT-/, ""))

layer(Repos, { timeout: "60 seconds" })(`SupportRepoSql (${describeBackend()})`, (it) => {
  it.effect("references are TKT- and the next number of the sequence, and unique", () =>
    Effect.gen(function*() {
      const customer = yield* newCustomer("support", "81", at)
      const a = yield* open(customer.id, minutes(1))
      const b = yield* open(customer.id, minutes(2))
      expect(a.reference).toMatch(/^TKT-\d{5,}$/)
      expect(numberOf(a)).toBeGreaterThanOrEqual(10001)
      expect(numberOf(b)).toBe(numberOf(a) + 1)
      expect(a).toMatchObject({ customerId: customer.id, status: "open", category: "general", assignedStaffId: null, transactionId: null })
      expect(Option.getOrThrow(yield* (yield* SupportRepo).findById(a.id))).toEqual(a)
      // the database refuses a second ticket with a number (hence a reference) already taken
      const sql = yield* SqlClient.SqlClient
      const duplicate = yield* Effect.either(sql`
        INSERT INTO support_tickets (id, number, customer_id, subject, category, status, created_at, updated_at, last_message_at)
        VALUES (${randomUUID()}, ${numberOf(a)}, ${customer.id}, 'dup', 'general', 'open', ${at}, ${at}, ${at})`)
      expect(duplicate._tag).toBe("Left")
      expect(yield* (yield* SupportRepo).findById("not-a-uuid")).toEqual(Option.none())
    }))

  it.effect("open refuses a customer at the bound of active tickets, also under concurrency; resolved ones do not count", () =>
    Effect.gen(function*() {
      const repo = yield* SupportRepo
      const customer = yield* newCustomer("support", "82", at)
      const attempt = (n: number) => tryOpen(customer.id, minutes(n), { subject: `Question ${n}` }, 3)
      const results = yield* Effect.all([1, 2, 3, 4, 5, 6].map(attempt), { concurrency: "unbounded" })
      expect(results.filter(Option.isSome)).toHaveLength(3)
      const mine = yield* repo.listForCustomer(customer.id, page1)
      expect(mine.total).toBe(3)
      // resolving one makes room
      const first = mine.items[0]!
      yield* repo.update(first.id, "open", { status: "resolved", updatedAt: minutes(10) })
      expect(Option.isSome(yield* attempt(11))).toBe(true)
      expect(Option.isNone(yield* attempt(12))).toBe(true)
    }))

  it.effect("update is compare-and-set on the status, and writes only what the patch names", () =>
    Effect.gen(function*() {
      const repo = yield* SupportRepo
      const staff = yield* hire
      const customer = yield* newCustomer("support", "83", at)
      const t = yield* open(customer.id, minutes(1))
      expect(yield* repo.update(t.id, "resolved", { status: "closed", updatedAt: minutes(2) })).toEqual(Option.none())
      expect(yield* repo.update(randomUUID(), "open", { status: "closed", updatedAt: minutes(2) })).toEqual(Option.none())
      const assigned = Option.getOrThrow(yield* repo.update(t.id, "open", { assignedStaffId: staff, updatedAt: minutes(3) }))
      expect(assigned).toMatchObject({ status: "open", assignedStaffId: staff, updatedAt: minutes(3), lastMessageAt: minutes(1) })
      const replied = Option.getOrThrow(
        yield* repo.update(t.id, "open", { status: "awaiting_customer", updatedAt: minutes(4), lastMessageAt: minutes(4) })
      )
      expect(replied).toMatchObject({ status: "awaiting_customer", assignedStaffId: staff, lastMessageAt: minutes(4) })
      const unassigned = Option.getOrThrow(yield* repo.update(t.id, "awaiting_customer", { assignedStaffId: null, updatedAt: minutes(5) }))
      expect(unassigned.assignedStaffId).toBeNull()
      expect(Option.getOrThrow(yield* repo.findById(t.id))).toEqual(unassigned)
    }))

  it.effect("lists newest activity first, and the queue filters by status, category, assignee and customer", () =>
    Effect.gen(function*() {
      const repo = yield* SupportRepo
      const staff = yield* hire
      const ada = yield* newCustomer("support", "84", at)
      const bola = yield* newCustomer("support", "84", at)
      const a1 = yield* open(ada.id, minutes(1), { category: "deposit" })
      const a2 = yield* open(ada.id, minutes(2), { category: "kyc" })
      const b1 = yield* open(bola.id, minutes(3), { category: "deposit" })
      // a1 has the newest message now
      yield* repo.update(a1.id, "open", { status: "awaiting_customer", assignedStaffId: staff, updatedAt: minutes(4), lastMessageAt: minutes(4) })
      const ids = (p: { readonly items: ReadonlyArray<Ticket> }) => p.items.map((t) => t.id)
      expect(ids(yield* repo.listForCustomer(ada.id, page1))).toEqual([a1.id, a2.id])
      const second = yield* repo.listForCustomer(ada.id, { page: 2, pageSize: 1 })
      expect(second).toMatchObject({ page: 2, pageSize: 1, total: 2 })
      expect(ids(second)).toEqual([a2.id])
      // the queue holds other tests' tickets too: filter by these customers
      const queue = (filter: Parameters<typeof repo.list>[0]) =>
        Effect.map(repo.list(filter, { page: 1, pageSize: 100 }), (p) => ids(p).filter((id) => [a1.id, a2.id, b1.id].includes(id)))
      expect(yield* queue({})).toEqual([a1.id, b1.id, a2.id])
      expect(yield* queue({ category: "deposit" })).toEqual([a1.id, b1.id])
      expect(yield* queue({ status: "open" })).toEqual([b1.id, a2.id])
      expect(yield* queue({ status: "awaiting_customer", assignedStaffId: staff })).toEqual([a1.id])
      expect(yield* queue({ assignedStaffId: null })).toEqual([b1.id, a2.id])
      expect(yield* queue({ customerId: bola.id })).toEqual([b1.id])
      const filtered = yield* repo.list({ customerId: ada.id, category: "kyc", status: "open", assignedStaffId: null }, page1)
      expect(filtered).toMatchObject({ total: 1, page: 1, pageSize: 20 })
      expect(ids(filtered)).toEqual([a2.id])
    }))

  it.effect("notes are kept apart from the conversation; both keep the order they were added in", () =>
    Effect.gen(function*() {
      const repo = yield* SupportRepo
      const staff = yield* hire
      const customer = yield* newCustomer("support", "85", at)
      const t = yield* open(customer.id, minutes(1))
      // same timestamps: the order added decides
      yield* repo.addMessage(message(t.id, staff, "staff reply", minutes(2), "staff"))
      yield* repo.addMessage(message(t.id, customer.id, "customer again", minutes(2)))
      const note = new InternalNote({ id: randomUUID(), ticketId: t.id, staffId: staff, body: "INTERNAL only", createdAt: minutes(2) })
      const later = new InternalNote({ id: randomUUID(), ticketId: t.id, staffId: staff, body: "second note", createdAt: minutes(1) })
      yield* repo.addNote(note)
      yield* repo.addNote(later)
      const conversation = yield* repo.messages(t.id)
      expect(conversation.map((m) => [m.authorKind, m.body])).toEqual([
        ["customer", "first message"],
        ["staff", "staff reply"],
        ["customer", "customer again"]
      ])
      expect(JSON.stringify(conversation)).not.toContain("INTERNAL")
      expect(yield* repo.notes(t.id)).toEqual([note, later])
      // countMessages counts the conversation only (notes are not messages), per ticket
      expect(yield* repo.countMessages(t.id)).toBe(3)
      expect(yield* repo.countMessages((yield* open(customer.id, minutes(4))).id)).toBe(1)
      expect(yield* repo.countMessages(TicketId.make(randomUUID()))).toBe(0)
      // a note changed nothing of the ticket
      expect(Option.getOrThrow(yield* repo.findById(t.id))).toEqual(t)
      // a note's author must be on staff
      const stranger = new InternalNote({ id: randomUUID(), ticketId: t.id, staffId: StaffId.make(randomUUID()), body: "x", createdAt: minutes(3) })
      expect((yield* Effect.exit(repo.addNote(stranger)))._tag).toBe("Failure")
    }))

  it.effect("a ticket may name one of the customer's transactions; SupportStaff knows who is on staff", () =>
    Effect.gen(function*() {
      const customer = yield* newCustomer("support", "86", at)
      const txId = TransactionId.make(randomUUID())
      yield* (yield* TransactionRepo).recordDeposit({
        id: txId,
        customerId: customer.id,
        amountKobo: 5000n,
        providerReference: `ref-${txId}`,
        postedAt: at,
        now: at
      })
      const t = yield* open(customer.id, minutes(1), { category: "deposit", transactionId: txId })
      expect(t.transactionId).toBe(txId)
      const staff = yield* hire
      const directory = yield* SupportStaff
      expect(yield* directory.exists(staff)).toBe(true)
      expect(yield* directory.exists(StaffId.make(randomUUID()))).toBe(false)
      expect(yield* directory.exists(StaffId.make("not-a-uuid"))).toBe(false)
    }))
})
