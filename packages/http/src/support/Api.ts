/**
 * The HTTP contract of the customer's support tickets: list, open, read with the conversation,
 * reply. Every endpoint needs the bearer token. Staff endpoints are the back office's (admin/SupportDeskApi.ts).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AccountNotFound, Support, TICKET_CATEGORIES, type TicketCategory, TicketClosed, TicketConversationFull, TicketId,
  TicketNotFound, TooManyOpenTickets, TransactionId
} from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import * as Ex from "../shared/Examples.js"
import { PageParams } from "../shared/Paging.js"
import { Body, msg, UuidOf } from "../shared/Schemas.js"
import { Authentication } from "../shared/Security.js"
import { ReplyView, TicketDetailView, TicketPageView } from "./Views.js"

const CATEGORY_MESSAGE = `category must be one of ${TICKET_CATEGORIES.join(", ")}`

/** A category (a refined string, so a wrong value gets one message rather than one per literal). */
export const Category = Schema.String.annotations(msg(CATEGORY_MESSAGE)).pipe(
  Schema.filter((s): s is TicketCategory => (TICKET_CATEGORIES as ReadonlyArray<string>).includes(s), {
    ...msg(CATEGORY_MESSAGE),
    jsonSchema: { enum: [...TICKET_CATEGORIES] }
  })
)

const characters = (s: string) => [...s.trim()].length

/** Text of min to max characters once trimmed (counted as the domain counts them: code points). */
export const Text = (min: number, max: number, description: string) =>
  Schema.String.annotations(msg("Must be a string")).pipe(
    Schema.filter((s) => characters(s) >= min, msg(min <= 1 ? "Must not be empty" : `Must be at least ${min} characters`)),
    Schema.filter((s) => characters(s) <= max, msg(`Must be at most ${max} characters`)),
    Schema.annotations({ description: `${description}: ${min} to ${max} characters, trimmed` })
  )

const Subject = Text(Support.SUBJECT_MIN, Support.SUBJECT_MAX, "what the ticket is about")
export const MessageBody = Text(Support.BODY_MIN, Support.BODY_MAX, "the message")

/** A uuid or null, with one message for anything else (a plain NullOr would add "Expected null"). */
const isUuid = Schema.is(Schema.UUID)
const UuidOrNull = Schema.Unknown.pipe(
  Schema.filter((u): u is TransactionId | null => u === null || isUuid(u), {
    ...msg("Must be a valid UUID"),
    jsonSchema: { type: ["string", "null"], format: "uuid" }
  })
)

const TicketIdParam = HttpApiSchema.param("id", UuidOf(TicketId))

/** What any change of a ticket (the domain's support/Changes.ts) can answer: `errors(...TicketChangeFailures, …)`. */
export const TicketChangeFailures = [TicketNotFound, TicketClosed, TicketConversationFull] as const

export class SupportApi extends HttpApiGroup.make("support")
  .add(
    HttpApiEndpoint.get("list", "/tickets")
      .setUrlParams(PageParams)
      .addSuccess(success("Support", TicketPageView))
  )
  .add(
    HttpApiEndpoint.post("open", "/tickets")
      .setPayload(Body({
        subject: Subject,
        message: MessageBody,
        category: Schema.optionalWith(Category.annotations({ description: `${TICKET_CATEGORIES.join(", ")} (default general)` }), {
          exact: true
        }),
        transactionId: Schema.optionalWith(
          UuidOrNull.annotations({ description: "one of the customer's own transactions, when the ticket is about it" }),
          { exact: true }
        )
      }).annotations({
        examples: [{
          subject: "Deposit not showing in my wallet",
          message: "I sent ₦50,000 from my GTBank account on 20 November 2026 at 10:14 but my balance has not changed.",
          category: "deposit",
          transactionId: Ex.TRANSACTION_ID
        }]
      }))
      .addSuccess(success("Support", TicketDetailView, { status: 201, message: "Ticket opened." }))
      .addError(errors(TooManyOpenTickets))
  )
  .add(
    HttpApiEndpoint.get("get")`/tickets/${TicketIdParam}`
      .addSuccess(success("Support", TicketDetailView))
      .addError(errors(TicketNotFound))
  )
  .add(
    HttpApiEndpoint.post("reply")`/tickets/${TicketIdParam}/messages`
      .setPayload(Body({ message: MessageBody }).annotations({
        examples: [{ message: "The sender's bank gave me session ID 000013261120101422334455667788. It is still not showing." }]
      }))
      .addSuccess(success("Support", ReplyView, { status: 201, message: "Reply sent." }))
      .addError(errors(...TicketChangeFailures))
  )
  // every endpoint here reads the signed-in customer's account
  .addError(errors(AccountNotFound))
  .middleware(Authentication)
  .prefix("/api/v1/support")
  .annotate(OpenApi.Title, "Support")
{}
