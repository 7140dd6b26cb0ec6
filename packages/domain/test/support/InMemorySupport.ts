/**
 * In-memory SupportRepo and SupportStaff for domain tests, kept apart from InMemory.ts: provide
 * `InMemorySupportLayer` next to `InMemoryLayer`. `SupportStore` is the test's view of what is
 * stored (tickets, messages, notes) and the back door that hires staff.
 */
import { Context, Effect, Layer, Option, Ref } from "effect"
import { InternalNote, Ticket, TicketMessage } from "../../src/support/Model.js"
import { SupportRepo, SupportStaff, type TicketFilter } from "../../src/support/Ports.js"
import { ACTIVE_STATUSES } from "../../src/support/Model.js"
import type { Page, PageRequest } from "../../src/shared/Paging.js"
import { StaffId } from "../../src/shared/Ids.js"

export interface SupportState {
  /** in insertion order */
  readonly tickets: ReadonlyArray<Ticket>
  /** in insertion order */
  readonly messages: ReadonlyArray<TicketMessage>
  /** in insertion order */
  readonly notes: ReadonlyArray<InternalNote>
  readonly staff: ReadonlySet<string>
  /** the number of the next reference (TKT-<n>), as the database sequence */
  readonly nextNumber: number
}

export const FIRST_REFERENCE_NUMBER = 10001

export class SupportStore extends Context.Tag("test/SupportStore")<SupportStore, Ref.Ref<SupportState>>() {
  static readonly state = Effect.flatMap(SupportStore, Ref.get)
  static readonly hire = (staffId: StaffId) =>
    Effect.flatMap(SupportStore, (ref) => Ref.update(ref, (st) => ({ ...st, staff: new Set([...st.staff, staffId]) })))
}

const numberOf = (t: Ticket) => Number(t.reference.slice("TKT-".length))

/** newest activity first: lastMessageAt, then the newer ticket (higher reference number) */
const byActivity = (a: Ticket, b: Ticket) =>
  b.lastMessageAt.getTime() - a.lastMessageAt.getTime() || numberOf(b) - numberOf(a)

const paged = (all: ReadonlyArray<Ticket>, { page, pageSize }: PageRequest): Page<Ticket> => ({
  items: [...all].sort(byActivity).slice((page - 1) * pageSize, page * pageSize),
  page,
  pageSize,
  total: all.length
})

const matches = (filter: TicketFilter) => (t: Ticket) =>
  (filter.status === undefined || t.status === filter.status) &&
  (filter.category === undefined || t.category === filter.category) &&
  (filter.assignedStaffId === undefined || t.assignedStaffId === filter.assignedStaffId) &&
  (filter.customerId === undefined || t.customerId === filter.customerId)

const makeRepo = (ref: Ref.Ref<SupportState>): SupportRepo["Type"] => ({
  open: (ticket, first, maxActive) =>
    Ref.modify(ref, (st): [Option.Option<Ticket>, SupportState] => {
      const active = st.tickets.filter((t) => t.customerId === ticket.customerId && ACTIVE_STATUSES.includes(t.status))
      if (active.length >= maxActive) return [Option.none(), st]
      const stored = new Ticket({ ...ticket, reference: `TKT-${st.nextNumber}` })
      return [Option.some(stored), {
        ...st,
        tickets: [...st.tickets, stored],
        messages: [...st.messages, first],
        nextNumber: st.nextNumber + 1
      }]
    }),
  findById: (id) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.tickets.find((t) => t.id === id))),
  listForCustomer: (customerId, page) =>
    Effect.map(Ref.get(ref), (st) => paged(st.tickets.filter((t) => t.customerId === customerId), page)),
  list: (filter, page) => Effect.map(Ref.get(ref), (st) => paged(st.tickets.filter(matches(filter)), page)),
  update: (id, from, patch) =>
    Ref.modify(ref, (st): [Option.Option<Ticket>, SupportState] => {
      const found = st.tickets.find((t) => t.id === id)
      if (found === undefined || found.status !== from) return [Option.none(), st]
      const updated = new Ticket({ ...found, ...patch })
      return [Option.some(updated), { ...st, tickets: st.tickets.map((t) => t.id === id ? updated : t) }]
    }),
  addMessage: (message) => Ref.update(ref, (st) => ({ ...st, messages: [...st.messages, message] })),
  countMessages: (ticketId) => Effect.map(Ref.get(ref), (st) => st.messages.filter((m) => m.ticketId === ticketId).length),
  messages: (ticketId) => Effect.map(Ref.get(ref), (st) => st.messages.filter((m) => m.ticketId === ticketId)),
  addNote: (note) => Ref.update(ref, (st) => ({ ...st, notes: [...st.notes, note] })),
  notes: (ticketId) => Effect.map(Ref.get(ref), (st) => st.notes.filter((n) => n.ticketId === ticketId))
})

const SupportStoreLive = Layer.effect(
  SupportStore,
  Ref.make<SupportState>({ tickets: [], messages: [], notes: [], staff: new Set(), nextNumber: FIRST_REFERENCE_NUMBER })
)

/** SupportRepo, SupportStaff and the SupportStore probe, with fresh state each time it is provided. */
export const InMemorySupportLayer = Layer.mergeAll(
  Layer.effect(SupportRepo, Effect.map(SupportStore, makeRepo)),
  Layer.effect(SupportStaff, Effect.map(SupportStore, (ref) => ({
    exists: (staffId: StaffId) => Effect.map(Ref.get(ref), (st) => st.staff.has(staffId))
  })))
).pipe(Layer.provideMerge(SupportStoreLive))
