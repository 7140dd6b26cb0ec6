/**
 * Staff are their own records, not customers (the back office signs them in). What the customer
 * side needs to know of them: whether an email belongs to a staff member, so social sign-in can
 * refuse to turn a staff identity into a customer account.
 */
import { Context, type Effect } from "effect"

export class StaffDirectory extends Context.Tag("domain/StaffDirectory")<StaffDirectory, {
  /** Whether this (normalised) email belongs to a staff member. */
  readonly isStaffEmail: (email: string) => Effect.Effect<boolean>
}>() {}
