import { HttpApiBuilder } from "@effect/platform"
import { Support } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { replyView, ticketDetailView, ticketPageView } from "./Views.js"

const support = mapDomainErrors("Support")

export const SupportHandlers = HttpApiBuilder.group(Api, "support", (handlers) =>
  handlers
    .handle("list", ({ urlParams }) =>
      Effect.flatMap(signedIn, (accountId) => Support.myTickets(accountId, urlParams)).pipe(
        Effect.map(ticketPageView),
        support
      ))
    .handle("open", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Support.openTicket(accountId, payload)).pipe(
        Effect.map(ticketDetailView),
        support
      ))
    .handle("get", ({ path }) =>
      Effect.flatMap(signedIn, (accountId) => Support.myTicket(accountId, path.id)).pipe(
        Effect.map(ticketDetailView),
        support
      ))
    .handle("reply", ({ path, payload }) =>
      Effect.flatMap(signedIn, (accountId) => Support.replyAsCustomer(accountId, path.id, payload.message)).pipe(
        Effect.map(replyView),
        support
      )))
