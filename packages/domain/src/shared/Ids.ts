/**
 * The kinds of id, each a branded string (a UUID from the `Ids` port), so that passing one kind
 * where another is expected does not compile. An account is the sign-in identity (accounts.id,
 * the access token's subject); a customer is its banking relationship (customers.id, what plans,
 * transactions, transfers, tickets and the back office's customer screens refer to).
 * A brand is an annotation only: decoding costs nothing more than the string it wraps.
 */
import { Effect, Schema } from "effect"
import { Ids } from "./Ports.js"

const id = <const B extends string>(brand: B) => Schema.String.pipe(Schema.brand(brand))

/** The sign-in identity (accounts.id). */
export const AccountId = id("AccountId")
export type AccountId = typeof AccountId.Type
/** The banking relationship of an account (customers.id). */
export const CustomerId = id("CustomerId")
export type CustomerId = typeof CustomerId.Type
export const TransactionId = id("TransactionId")
export type TransactionId = typeof TransactionId.Type
export const PlanId = id("PlanId")
export type PlanId = typeof PlanId.Type
/** A back-office staff member. */
export const StaffId = id("StaffId")
export type StaffId = typeof StaffId.Type
export const TicketId = id("TicketId")
export type TicketId = typeof TicketId.Type
export const AlertId = id("AlertId")
export type AlertId = typeof AlertId.Type
export const ApprovalId = id("ApprovalId")
export type ApprovalId = typeof ApprovalId.Type
export const DeletionId = id("DeletionId")
export type DeletionId = typeof DeletionId.Type
export const BeneficiaryId = id("BeneficiaryId")
export type BeneficiaryId = typeof BeneficiaryId.Type
export const SpendingId = id("SpendingId")
export type SpendingId = typeof SpendingId.Type
export const FreezeId = id("FreezeId")
export type FreezeId = typeof FreezeId.Type

/** A new id of one kind from the `Ids` port: `yield* newId(PlanId)`. */
export const newId = <A extends string>(_kind: Schema.Schema<A, string>): Effect.Effect<A, never, Ids> =>
  Effect.flatMap(Ids, (ids) => ids.next).pipe(Effect.map((fresh) => fresh as A))
