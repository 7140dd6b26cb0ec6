/**
 * The back office's support desk and its audit rows (in-memory ports): each change appends its row
 * in the same unit of work as the change, with the ticket's state before and after. A unit of work
 * here rolls back the tickets and the audit rows too (`WholeUnitOfWork`), as one SQL transaction
 * does, so a change whose row cannot be appended is undone, and a refused change leaves no row.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Ref } from "effect"
import { AuditRepo } from "../src/admin/Audit.js"
import * as SupportDesk from "../src/admin/SupportDesk.js"
import type { StaffRole } from "../src/admin/StaffModel.js"
import { activeStaff } from "./support/StaffFixtures.js"
import { UnitOfWork } from "../src/shared/Ports.js"
import { Ticket } from "../src/support/Model.js"
import { SupportRepo } from "../src/support/Ports.js"
import { InMemoryLayer, Store } from "./support/InMemory.js"
import { AuditRows, InMemoryAuditLive } from "./support/InMemoryAudit.js"
import { InMemorySupportLayer, SupportStore } from "./support/InMemorySupport.js"
import { adaAndBola, AGENT, openFor, SUPERVISOR } from "./support/SupportFixtures.js"
import { StaffId, TicketId } from "../src/shared/Ids.js"

const staff = (id: StaffId, role: StaffRole) => activeStaff(role, 0, { id, email: `${role}@kobo.test`, lastName: role })
const AGENT_MEMBER = staff(AGENT, "support")
const SUPERVISOR_MEMBER = staff(SUPERVISOR, "admin")

/** A unit of work that, failing, puts back every store it covers: accounts, tickets, audit rows. */
const WholeUnitOfWork = Layer.effect(
  UnitOfWork,
  Effect.gen(function*() {
    const store = yield* Store
    const tickets = yield* SupportStore
    const audit = yield* AuditRows
    return UnitOfWork.of({
      atomically: (effect) =>
        Effect.gen(function*() {
          const snapshot = { state: yield* Ref.get(store.ref), tickets: yield* Ref.get(tickets), audit: yield* Ref.get(audit) }
          return yield* effect.pipe(Effect.onExit((exit) =>
            Exit.isSuccess(exit)
              ? Ref.update(store.commits, (n) => n + 1)
              : Effect.all([
                Ref.set(store.ref, snapshot.state),
                Ref.set(tickets, snapshot.tickets),
                Ref.set(audit, snapshot.audit),
                Ref.update(store.rollbacks, (n) => n + 1)
              ])
          ))
        })
    })
  })
)

const withDesk = <A, E>(self: Effect.Effect<A, E, any>): Effect.Effect<A, E> =>
  Effect.provide(
    self,
    Layer.provideMerge(WholeUnitOfWork, Layer.mergeAll(InMemoryLayer, InMemorySupportLayer, InMemoryAuditLive))
  ) as Effect.Effect<A, E>

const ticketRows = (ticketId: TicketId) => Effect.map(AuditRows.all, (rows) => rows.filter((r) => r.targetId === ticketId))
const stored = (ticketId: TicketId) => Effect.map(SupportStore.state, (st) => st.tickets.find((t) => t.id === ticketId)!)

/** The AuditRepo whose appends fail, as a database error inside the transaction would. */
const auditBroken = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(AuditRepo, (repo) => Effect.provideService(self, AuditRepo, { ...repo, insert: () => Effect.dieMessage("audit append failed") }))

describe("support desk audit rows", () => {
  it.effect("every change records the ticket before and after (status, assignee) and the id it added, never a text", () =>
    withDesk(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* SupportDesk.assign(SUPERVISOR_MEMBER, ticket.id, AGENT)
      const note = yield* SupportDesk.note(AGENT_MEMBER, ticket.id, "Checked with the bank: reference 99")
      const replied = yield* SupportDesk.reply(AGENT_MEMBER, ticket.id, "We found your deposit.")
      yield* SupportDesk.resolve(AGENT_MEMBER, ticket.id)
      yield* SupportDesk.close(SUPERVISOR_MEMBER, ticket.id)
      const rows = yield* ticketRows(ticket.id)
      expect(rows.map((r) => [r.action, r.actorId, r.before, r.after])).toEqual([
        ["ticket.assign", SUPERVISOR, { status: "open", assignedStaffId: null }, { status: "open", assignedStaffId: AGENT }],
        ["ticket.note", AGENT, { status: "open", assignedStaffId: AGENT }, { status: "open", assignedStaffId: AGENT, noteId: note.id }],
        ["ticket.reply", AGENT, { status: "open", assignedStaffId: AGENT }, {
          status: "awaiting_customer",
          assignedStaffId: AGENT,
          messageId: replied.message.id
        }],
        ["ticket.resolve", AGENT, { status: "awaiting_customer", assignedStaffId: AGENT }, { status: "resolved", assignedStaffId: AGENT }],
        ["ticket.close", SUPERVISOR, { status: "resolved", assignedStaffId: AGENT }, { status: "closed", assignedStaffId: AGENT }]
      ])
      expect(JSON.stringify(rows)).not.toContain("reference 99")
      expect(JSON.stringify(rows)).not.toContain("We found your deposit")
    })))

  // (the in-memory Notifier sends at once; the real one queues a reply's email in the same transaction)
  it.effect("a change whose audit row cannot be appended is undone: the ticket, its messages and notes stay as they were", () =>
    withDesk(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      for (
        const action of [
          SupportDesk.resolve(AGENT_MEMBER, ticket.id),
          SupportDesk.assign(AGENT_MEMBER, ticket.id, SUPERVISOR),
          SupportDesk.reply(AGENT_MEMBER, ticket.id, "On it"),
          SupportDesk.note(AGENT_MEMBER, ticket.id, "A note")
        ] as const
      ) {
        const exit = yield* Effect.exit(auditBroken(action as Effect.Effect<unknown, unknown, any>))
        expect(Exit.isFailure(exit)).toBe(true)
      }
      expect(yield* stored(ticket.id)).toEqual(ticket)
      const st = yield* SupportStore.state
      expect(st.messages.filter((m) => m.ticketId === ticket.id)).toHaveLength(1)
      expect(st.notes).toEqual([])
      expect(yield* ticketRows(ticket.id)).toEqual([])
      // with the audit log working again, the same change goes through with its row
      expect((yield* SupportDesk.resolve(AGENT_MEMBER, ticket.id)).status).toBe("resolved")
      expect((yield* ticketRows(ticket.id)).map((r) => r.action)).toEqual(["ticket.resolve"])
    })))

  it.effect("a refused change (closed ticket, unknown assignee, unknown ticket, wrong role) appends no row", () =>
    withDesk(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* SupportDesk.close(AGENT_MEMBER, ticket.id)
      const rowsBefore = (yield* AuditRows.all).length
      expect(yield* Effect.flip(SupportDesk.resolve(AGENT_MEMBER, ticket.id))).toMatchObject({ _tag: "TicketClosed" })
      expect(yield* Effect.flip(SupportDesk.assign(AGENT_MEMBER, ticket.id, AGENT))).toMatchObject({ _tag: "TicketClosed" })
      expect(yield* Effect.flip(SupportDesk.reply(AGENT_MEMBER, ticket.id, "Hello"))).toMatchObject({ _tag: "TicketClosed" })
      const { ticket: other } = yield* openFor(ada, "Another one")
      const unknownStaff = StaffId.make("5a000000-0000-4000-8000-0000000000aa")
      expect(yield* Effect.flip(SupportDesk.assign(AGENT_MEMBER, other.id, unknownStaff))).toMatchObject({ _tag: "StaffNotFound" })
      expect(yield* Effect.flip(SupportDesk.resolve(AGENT_MEMBER, TicketId.make("00000000-0000-4000-8000-00000000beef")))).toMatchObject({
        _tag: "TicketNotFound"
      })
      const officer = staff(StaffId.make("5a000000-0000-4000-8000-0000000000bb"), "officer")
      expect(yield* Effect.flip(SupportDesk.resolve(officer, other.id))).toMatchObject({ _tag: "PermissionDenied" })
      expect((yield* AuditRows.all).length).toBe(rowsBefore)
      expect((yield* stored(other.id)).status).toBe("open")
    })))

  it.effect("before is the ticket the stored change was decided on, when it changed underneath (read again by compare-and-set)", () =>
    withDesk(Effect.gen(function*() {
      const { ada } = yield* adaAndBola
      const { ticket } = yield* openFor(ada)
      yield* SupportDesk.reply(AGENT_MEMBER, ticket.id, "Can you send a receipt?")
      // the customer answers between the desk's first read and its write
      const tickets = yield* SupportStore
      const repo = yield* SupportRepo
      let reads = 0
      const racing = SupportRepo.of({
        ...repo,
        findById: (id) =>
          Effect.tap(repo.findById(id), () =>
            ++reads === 1
              ? Ref.update(tickets, (st) => ({
                ...st,
                tickets: st.tickets.map((t) => (t.id === id ? new Ticket({ ...t, status: "open" }) : t))
              }))
              : Effect.void)
      })
      const resolved = yield* Effect.provideService(SupportDesk.resolve(AGENT_MEMBER, ticket.id), SupportRepo, racing)
      expect(resolved.status).toBe("resolved")
      expect(reads).toBe(2)
      const row = (yield* ticketRows(ticket.id)).at(-1)!
      expect(row).toMatchObject({ action: "ticket.resolve", before: { status: "open" }, after: { status: "resolved" } })
    })))
})
