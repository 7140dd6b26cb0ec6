/**
 * SupportRepo on SQL (migration 0014): tickets, their messages and the internal notes, each in its
 * own table. Opening a ticket locks the customer's row (FOR UPDATE) for the count of active tickets
 * and the inserts, so concurrent opens of one customer cannot both pass the bound.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { InternalNote, type Page, type PageRequest, SupportRepo, Ticket, TicketMessage, type TicketFilter } from "@app/domain"
import { Effect, Layer, Option } from "effect"
import { decodeRows, orDieDb } from "../sql/SqlSupport.js"

/** What counts towards a customer's bound (the domain's ACTIVE_STATUSES). */
const ACTIVE = ["open", "awaiting_customer"]

/** Ids are uuid columns: anything else names no row (rather than failing the query). */
export const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)

export const SupportRepoSql = Layer.effect(
  SupportRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tickets = decodeRows(Ticket)
    const messages = decodeRows(TicketMessage)
    const notes = decodeRows(InternalNote)
    const firstTicket = (query: Effect.Effect<ReadonlyArray<unknown>, any>) =>
      query.pipe(Effect.flatMap(tickets), Effect.map((rs) => Option.fromNullable(rs[0])))

    /** One page of tickets matching `where`, newest activity first (then the newer ticket). */
    const page = (where: Fragment, { page, pageSize }: PageRequest) =>
      orDieDb(Effect.gen(function*() {
        const items = yield* tickets(
          yield* sql`
            SELECT * FROM support_tickets WHERE ${where}
            ORDER BY last_message_at DESC, number DESC
            LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`
        )
        const counted = yield* sql<{ total: string | number }>`SELECT count(*) AS total FROM support_tickets WHERE ${where}`
        return { items, page, pageSize, total: Number(counted[0]?.total ?? 0) } satisfies Page<Ticket>
      }))

    const filterClauses = (filter: TicketFilter): Array<Fragment> => [
      ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
      ...(filter.category === undefined ? [] : [sql`category = ${filter.category}`]),
      ...(filter.assignedStaffId === undefined
        ? []
        : [filter.assignedStaffId === null ? sql`assigned_staff_id IS NULL` : sql`assigned_staff_id = ${filter.assignedStaffId}`]),
      ...(filter.customerId === undefined ? [] : [sql`customer_id = ${filter.customerId}`])
    ]

    return SupportRepo.of({
      open: (ticket, first, maxActive) =>
        orDieDb(sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT id FROM customers WHERE id = ${ticket.customerId} FOR UPDATE`
          const counted = yield* sql<{ active: string | number }>`
            SELECT count(*) AS active FROM support_tickets
            WHERE customer_id = ${ticket.customerId} AND ${sql.in("status", ACTIVE)}`
          if (Number(counted[0]?.active ?? 0) >= maxActive) return Option.none<Ticket>()
          const stored = yield* firstTicket(sql`
            INSERT INTO support_tickets ${
            sql.insert({
              id: ticket.id,
              customerId: ticket.customerId,
              subject: ticket.subject,
              category: ticket.category,
              transactionId: ticket.transactionId,
              status: ticket.status,
              assignedStaffId: ticket.assignedStaffId,
              createdAt: ticket.createdAt,
              updatedAt: ticket.updatedAt,
              lastMessageAt: ticket.lastMessageAt
            })
          }
            RETURNING *`)
          yield* insertMessage(first)
          return stored
        }))),
      findById: (id) =>
        isUuid(id) ? orDieDb(firstTicket(sql`SELECT * FROM support_tickets WHERE id = ${id}`)) : Effect.succeed(Option.none()),
      listForCustomer: (customerId, request) => page(sql`customer_id = ${customerId}`, request),
      list: (filter, request) => page(sql.and(filterClauses(filter)), request),
      update: (id, from, patch) =>
        orDieDb(firstTicket(sql`
          UPDATE support_tickets SET ${
          sql.update({
            updatedAt: patch.updatedAt,
            ...(patch.status === undefined ? {} : { status: patch.status }),
            ...(patch.assignedStaffId === undefined ? {} : { assignedStaffId: patch.assignedStaffId }),
            ...(patch.lastMessageAt === undefined ? {} : { lastMessageAt: patch.lastMessageAt })
          })
        }
          WHERE id = ${id} AND status = ${from}
          RETURNING *`)),
      addMessage: (message) => orDieDb(insertMessage(message)),
      countMessages: (ticketId) =>
        orDieDb(
          Effect.map(
            sql<{ n: string | number }>`SELECT count(*) AS n FROM support_ticket_messages WHERE ticket_id = ${ticketId}`,
            (rows) => Number(rows[0]?.n ?? 0)
          )
        ),
      messages: (ticketId) =>
        orDieDb(Effect.flatMap(sql`SELECT * FROM support_ticket_messages WHERE ticket_id = ${ticketId} ORDER BY seq`, messages)),
      addNote: (note) =>
        orDieDb(sql`
          INSERT INTO support_ticket_notes ${
          sql.insert({ id: note.id, ticketId: note.ticketId, staffId: note.staffId, body: note.body, createdAt: note.createdAt })
        }`.pipe(Effect.asVoid)),
      notes: (ticketId) =>
        orDieDb(Effect.flatMap(sql`SELECT * FROM support_ticket_notes WHERE ticket_id = ${ticketId} ORDER BY seq`, notes))
    })

    function insertMessage(message: TicketMessage) {
      return sql`
        INSERT INTO support_ticket_messages ${
        sql.insert({
          id: message.id,
          ticketId: message.ticketId,
          authorKind: message.authorKind,
          authorId: message.authorId,
          body: message.body,
          createdAt: message.createdAt
        })
      }`.pipe(Effect.asVoid)
    }
  })
)
