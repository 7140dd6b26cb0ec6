/**
 * "Needs attention" and names beside ids in the back office, on the real stack: a movement the bank
 * parked for an operator (transfer and reversal refused, sandbox destination 0007) with its
 * reversal_refused alert, a movement pending past reconciliation's requery window, a ticket waiting
 * on staff and a four-eyes request, each seen by the roles that may act on or view it and by no
 * other; customers and staff named in the ledger, the support desk and the audit log.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { adminGet, adminServer, member, type Member, ROOT, rootToken } from "./support/AdminFixtures.js"
import { bankCustomer } from "./support/BankingFixtures.js"
import { expectFailure, expectSuccess, post } from "./support/Fixtures.js"
import { deposit } from "./support/PlanFixtures.js"

const ADMIN = "Admin"
const ATTENTION = "/api/v1/admin/attention"
const NOTE = "Bank ops confirmed the manual credit, ref MC-0042"

const transfer = (token: string, destinationAccountNumber: string, amountKobo = 10_000) =>
  post("/api/v1/transactions/transfer", {
    destinationAccountNumber,
    destinationBankCode: "000013",
    destinationBankName: "GTBank",
    destinationAccountName: `SANDBOX ACCOUNT ${destinationAccountNumber.slice(-4)}`,
    amountKobo,
    idempotencyKey: randomUUID()
  }, token)

const attention = (token: string) => Effect.map(adminGet(ATTENTION, token), (r) => expectSuccess(r, { apiObject: ADMIN }))

const movementsOf = (customerId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; status: string; purpose: string }>`
      SELECT id, status, purpose FROM transactions WHERE customer_id = ${customerId} AND type = 'transfer' ORDER BY created_at, id`).pipe(
      Effect.orDie
    )

/** The customer's name as the back office holds it. */
const nameOf = (customerId: string, token: string) =>
  Effect.map(adminGet(`/api/v1/admin/customers/${customerId}`, token), (r) => {
    const c = expectSuccess(r, { apiObject: ADMIN }).customer
    return `${c.firstName} ${c.lastName}`
  })

layer(adminServer({ adminFourEyes: true }), { excludeTestServices: true, timeout: "120 seconds" })("needs attention", (it) => {
  let staff: { admin: Member; support: Member; officer: Member } | undefined
  const members = Effect.gen(function*() {
    staff ??= { admin: yield* member("admin"), support: yield* member("support"), officer: yield* member("officer") }
    return staff
  })

  it.effect("each kind with its count and first rows, linked by id and named; a lower role sees only the kinds it may act on or view", () =>
    Effect.gen(function*() {
      const { admin, officer, support } = yield* members
      const root = yield* rootToken
      const c = yield* bankCustomer("attention")
      yield* deposit(c.accessToken, 500_000)
      const name = yield* nameOf(c.customerId, root)
      expect(name).toMatch(/\S+ \S+/)

      // parked for an operator: the bank refused the transfer and then the reversal of its debit
      yield* transfer(c.accessToken, "0123450007")
      // pending at the bank (0002), and made older than reconciliation's requery window
      yield* transfer(c.accessToken, "0123450002")
      const [parked, pending] = yield* movementsOf(c.customerId)
      expect([parked!.status, pending!.status]).toEqual(["pending", "pending"])
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE transactions SET created_at = created_at - interval '3 hours' WHERE id = ${pending!.id}`.pipe(Effect.orDie)
      // a ticket waiting on staff
      const ticket = expectSuccess(
        yield* post("/api/v1/support/tickets", { subject: "My transfer did not arrive", message: "It left my account yesterday." }, c.accessToken),
        { status: 201, apiObject: "Support" }
      )
      // a four-eyes request: the admin's resolution waits for a second member
      const filed = expectSuccess(yield* post(`/api/v1/admin/transactions/${parked!.id}/resolve`, { outcome: "credited_back", note: NOTE }, admin.token), {
        status: 202,
        apiObject: ADMIN
      })

      const all = yield* attention(root)
      const parkedRow = all.movements.items.find((m: any) => m.id === parked!.id)
      expect(parkedRow).toMatchObject({ customerId: c.customerId, customerName: name, awaitsOperator: true, status: "pending" })
      const stuckRow = all.movements.items.find((m: any) => m.id === pending!.id)
      expect(stuckRow).toMatchObject({ customerName: name, awaitsOperator: false, status: "pending" })
      // awaiting an operator first, then the oldest stuck ones
      expect(all.movements.items.findIndex((m: any) => m.id === parked!.id)).toBeLessThan(
        all.movements.items.findIndex((m: any) => m.id === pending!.id)
      )
      const alert = all.alerts.items.find((a: any) => a.transactionId === parked!.id)
      expect(alert).toMatchObject({ kind: "reversal_refused", customerId: c.customerId, customerName: name })
      expect(all.tickets.items.find((t: any) => t.id === ticket.id)).toMatchObject({ status: "open", customerId: c.customerId, customerName: name })
      expect(all.approvals.items.find((a: any) => a.id === filed.pendingApproval.id)).toMatchObject({
        status: "pending",
        requestedBy: admin.id,
        requestedByName: "Ngozi Eze"
      })
      for (const kind of ["alerts", "approvals", "movements", "tickets"]) {
        expect(all[kind].count).toBeGreaterThanOrEqual(all[kind].items.length)
        expect(all[kind].items.length).toBeLessThanOrEqual(5)
      }
      expect(all.total).toBe(all.alerts.count + all.approvals.count + all.movements.count + all.tickets.count)

      // support: alerts, movements, tickets; no approvals (it decides none)
      const bySupport = yield* attention(support.token)
      expect(bySupport.approvals).toBeNull()
      expect(bySupport.alerts.count).toBe(all.alerts.count)
      expect(bySupport.movements.count).toBe(all.movements.count)
      expect(bySupport.tickets.count).toBe(all.tickets.count)
      expect(bySupport.total).toBe(all.total - all.approvals.count)
      // officer: movements and tickets only
      const byOfficer = yield* attention(officer.token)
      expect(byOfficer.alerts).toBeNull()
      expect(byOfficer.approvals).toBeNull()
      expect(byOfficer.movements.items.map((m: any) => m.id)).toContain(parked!.id)
      expect(byOfficer.total).toBe(all.movements.count + all.tickets.count)

      // once dealt with, a row leaves: the ticket answered waits on the customer, not on staff
      expectSuccess(yield* post(`/api/v1/admin/support/tickets/${ticket.id}/messages`, { message: "We are on it." }, support.token), {
        status: 201,
        apiObject: ADMIN
      })
      const after = yield* attention(root)
      expect(after.tickets.items.map((t: any) => t.id)).not.toContain(ticket.id)
      expect(after.tickets.count).toBe(all.tickets.count - 1)

      expectFailure(yield* adminGet(ATTENTION), 401, "Authentication required", ADMIN)
    }))

  it.effect("names beside ids: the ledger, the support desk (customer, assignee, authors) and the audit log (actors; the email of a member without a name)", () =>
    Effect.gen(function*() {
      const { support } = yield* members
      const root = yield* rootToken
      const c = yield* bankCustomer("names")
      yield* deposit(c.accessToken, 300_000)
      const name = yield* nameOf(c.customerId, root)

      const ledger = expectSuccess(yield* adminGet(`/api/v1/admin/transactions?customerId=${c.customerId}`, root), { apiObject: ADMIN })
      expect(ledger.items).toHaveLength(1)
      expect(ledger.items[0]).toMatchObject({ customerId: c.customerId, customerName: name, awaitsOperator: false, purpose: "deposit" })

      const ticket = expectSuccess(
        yield* post("/api/v1/support/tickets", { subject: "Statement please", message: "For my visa application." }, c.accessToken),
        { status: 201, apiObject: "Support" }
      )
      const desk = `/api/v1/admin/support/tickets/${ticket.id}`
      const assigned = expectSuccess(yield* post(`${desk}/assign`, { staffId: support.id }, root), { apiObject: ADMIN })
      expect(assigned).toMatchObject({ customerName: name, assignedStaffId: support.id, assignedStaffName: "Ngozi Eze" })
      const replied = expectSuccess(yield* post(`${desk}/messages`, { message: "Sent to your email." }, support.token), { status: 201, apiObject: ADMIN })
      expect(replied.message).toMatchObject({ authorKind: "staff", authorId: support.id, authorName: "Ngozi Eze" })
      const note = expectSuccess(yield* post(`${desk}/notes`, { note: "Customer verified by phone." }, support.token), { status: 201, apiObject: ADMIN })
      expect(note).toMatchObject({ staffId: support.id, staffName: "Ngozi Eze" })
      const detail = expectSuccess(yield* adminGet(desk, root), { apiObject: ADMIN })
      expect(detail.ticket).toMatchObject({ customerName: name, assignedStaffName: "Ngozi Eze" })
      expect(detail.messages.map((m: any) => m.authorName)).toEqual([name, "Ngozi Eze"])
      expect(detail.notes.map((n: any) => n.staffName)).toEqual(["Ngozi Eze"])
      const queue = expectSuccess(yield* adminGet(`/api/v1/admin/support/tickets?customerId=${c.customerId}`, root), { apiObject: ADMIN })
      expect(queue.items.map((t: any) => [t.id, t.customerName, t.assignedStaffName])).toEqual([[ticket.id, name, "Ngozi Eze"]])

      const audit = expectSuccess(yield* adminGet(`/api/v1/admin/audit?action=ticket.assign&targetId=${ticket.id}`, root), { apiObject: ADMIN })
      expect(audit.items).toHaveLength(1)
      expect(audit.items[0]).toMatchObject({ actorKind: "staff", actorName: ROOT.email, targetKind: "ticket", targetName: null })
      const byMember = expectSuccess(yield* adminGet(`/api/v1/admin/audit?actorId=${support.id}`, root), { apiObject: ADMIN })
      expect(byMember.items.length).toBeGreaterThan(0)
      expect(new Set(byMember.items.map((e: any) => e.actorName))).toEqual(new Set(["Ngozi Eze"]))
    }))
})
