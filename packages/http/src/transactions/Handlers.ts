import { HttpApiBuilder } from "@effect/platform"
import { Reports, Transactions } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { reportAnswer } from "../shared/Csv.js"
import { CurrentAccount, signedIn } from "../shared/Security.js"
import { reportCsv } from "./Csv.js"
import { reportView, transactionPageView, transactionView } from "./Views.js"

const transactions = mapDomainErrors("Transaction")

const reportIn = reportAnswer("transactions", reportCsv, reportView)

export const TransactionHandlers = HttpApiBuilder.group(Api, "transactions", (handlers) =>
  handlers
    .handle("list", ({ urlParams }) =>
      // the account as the authentication read it, moments ago: not read again
      Effect.flatMap(CurrentAccount, (found) => Transactions.transactionsOf(found, urlParams)).pipe(
        Effect.map(transactionPageView),
        transactions
      ))
    .handle("get", ({ path }) =>
      Effect.flatMap(signedIn, (accountId) => Transactions.transaction(accountId, path.id)).pipe(
        Effect.map(transactionView),
        transactions
      ))
    .handle("report", ({ urlParams }) =>
      Effect.flatMap(signedIn, (accountId) => Reports.transactionReport(accountId, { from: urlParams.from, to: urlParams.to })).pipe(
        transactions,
        Effect.map((report) => reportIn(urlParams.format, report))
      )))
