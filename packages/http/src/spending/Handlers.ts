import { HttpApiBuilder } from "@effect/platform"
import { Spendings } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { reportAnswer } from "../shared/Csv.js"
import { signedIn } from "../shared/Security.js"
import { reportView, spendingPageView, spendingView } from "./Views.js"

const spendings = mapDomainErrors("Spending")

const reportIn = reportAnswer("spendings", Spendings.reportCsv, reportView)

export const SpendingHandlers = HttpApiBuilder.group(Api, "spendings", (handlers) =>
  handlers
    .handle("add", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Spendings.logSpending(accountId, payload)).pipe(Effect.map(spendingView), spendings))
    .handle("list", ({ urlParams: { category, from, page, pageSize, to } }) =>
      Effect.flatMap(signedIn, (accountId) => Spendings.listSpendings(accountId, { category, from, to }, { page, pageSize })).pipe(
        Effect.map(spendingPageView),
        spendings
      ))
    .handle("report", ({ urlParams }) =>
      Effect.flatMap(signedIn, (accountId) => Spendings.spendingReport(accountId, { from: urlParams.from, to: urlParams.to })).pipe(
        spendings,
        Effect.map((report) => reportIn(urlParams.format, report))
      ))
    .handle("emailReport", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Spendings.emailMonthReport(accountId, payload.month)).pipe(spendings))
    .handle("update", ({ path, payload }) =>
      Effect.flatMap(signedIn, (accountId) => Spendings.updateSpending(accountId, path.id, payload)).pipe(
        Effect.map(spendingView),
        spendings
      ))
    .handle("remove", ({ path }) =>
      Effect.flatMap(signedIn, (accountId) => Spendings.removeSpending(accountId, path.id)).pipe(Effect.map(spendingView), spendings)))
