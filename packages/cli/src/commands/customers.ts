/** `customers search|show|freeze|unfreeze`: the back office's customer use cases, from a shell. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { CustomerId } from "@app/domain"
import { asOperator, asOperatorWithBank, idArg, jsonOption, operatorOption, output, StaffAccess, table } from "../Operator.js"

const id = idArg("customer-id", "customer").pipe(Args.map(CustomerId.make))
const page = Options.integer("page").pipe(Options.withDefault(1))
const pageSize = Options.integer("page-size").pipe(Options.withDefault(20))

const search = Command.make(
  "search",
  {
    q: Args.text({ name: "query" }).pipe(Args.withDescription("name, email, phone, account number, referral code or id"), Args.optional),
    status: Options.text("status").pipe(Options.optional),
    kyc: Options.text("kyc").pipe(Options.optional),
    page,
    pageSize,
    json: jsonOption,
    operator: operatorOption
  },
  ({ json, kyc, operator, page, pageSize, q, status }) =>
    asOperator(operator, (actor) =>
      StaffAccess.Customers.search(actor, {
        sort: "newest",
        ...Option.match(q, { onNone: () => ({}), onSome: (v) => ({ q: v }) }),
        ...Option.match(status, { onNone: () => ({}), onSome: (v) => ({ status: v }) }),
        ...Option.match(kyc, { onNone: () => ({}), onSome: (v) => ({ kyc: v }) })
      }, { page, pageSize }).pipe(
        Effect.flatMap((found) =>
          output(json, found, () =>
            `${table(
              ["id", "name", "email", "status", "kyc", "account", "balance (kobo)"],
              found.items.map((c) => [
                c.customerId,
                [c.firstName, c.lastName].filter(Boolean).join(" "),
                c.email,
                c.customerStatus,
                c.kycStatus,
                c.coreAccountNumber,
                c.lastKnownBalanceKobo
              ])
            )}\n${found.total} customer(s), page ${found.page}`)
        )
      ))
).pipe(Command.withDescription("Search customers (newest first)"))

const show = Command.make("show", { id, json: jsonOption, operator: operatorOption }, ({ id, json, operator }) =>
  asOperatorWithBank(operator, (actor) =>
    StaffAccess.Customers.detail(actor, id).pipe(
      Effect.flatMap((file) =>
        output(json, file, () => {
          const c = file.summary
          return [
            table(["field", "value"], [
              ["id", c.customerId],
              ["name", [c.firstName, c.lastName].filter(Boolean).join(" ")],
              ["email", c.email],
              ["status", c.customerStatus],
              ["kyc", c.kycStatus],
              ["account", c.coreAccountNumber],
              ["balance (kobo)", file.liveBalanceKobo ?? c.lastKnownBalanceKobo],
              ["plan", file.plan === null ? null : `${file.plan.state} ${file.plan.id}`]
            ]),
            "",
            table(["transaction", "purpose", "amount (kobo)", "status", "at"], file.recentTransactions.map((t) => [t.id, t.purpose, t.amountKobo, t.status, t.createdAt]))
          ].join("\n")
        })
      )
    ))
).pipe(Command.withDescription("One customer's file: KYC, plan, recent transactions (refreshes the balance at the bank)"))

const freeze = Command.make(
  "freeze",
  { id, reason: Options.text("reason").pipe(Options.withDescription("why (required, audited)")), json: jsonOption, operator: operatorOption },
  ({ id, json, operator, reason }) =>
    asOperatorWithBank(operator, (actor) =>
      StaffAccess.Freezes.freeze(actor, id, reason.trim()).pipe(
        Effect.flatMap((out) => output(json, out, () => `customer ${id} suspended; core account: ${out.providerFreeze}`))
      ))
).pipe(Command.withDescription("Freeze a customer: suspended, sessions revoked, core account frozen once no movement is in flight"))

const unfreeze = Command.make("unfreeze", { id, json: jsonOption, operator: operatorOption }, ({ id, json, operator }) =>
  asOperatorWithBank(operator, (actor) =>
    StaffAccess.Approvals.unfreezeCustomer(actor, id).pipe(
      Effect.flatMap((r) =>
        r._tag === "Done"
          ? output(json, r.result, () => `customer ${id} unfrozen: ${r.result.customerStatus}`)
          : output(json, { pendingApproval: r.approval }, () => `unfreeze filed for a second member's approval: ${r.approval.id}`)
      )
    ))
).pipe(Command.withDescription("Unfreeze a suspended customer (waits for a second member under ADMIN_FOUR_EYES)"))

export const customers = Command.make("customers").pipe(
  Command.withDescription("Customers: search, show, freeze, unfreeze"),
  Command.withSubcommands([search, show, freeze, unfreeze])
)
