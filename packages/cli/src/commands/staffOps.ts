/**
 * `settings get|set`, `audit verify`, `alerts list|ack`, `deletions list|review`, `tx show|requery|resolve`,
 * `jobs failed [--retry ID]`, `payouts status|run`: the back office's use cases from a shell, as the
 * operator (see Operator.ts), audited like their admin API twins. `admin` is in admin.ts.
 */
import { Args, Command, Options } from "@effect/cli"
import { AlertId, DeletionId, Plans, type StaffMember, TransactionId } from "@app/domain"
import { nextPayoutRun } from "@app/scheduler"
import { Console, Effect, Option } from "effect"
import { asOperator, asOperatorWithBank, CliFailure, idArg, idOption, jsonOption, operatorOption, output, StaffAccess, table, toJson } from "../Operator.js"

const common = { json: jsonOption, operator: operatorOption }
const page = { page: 1, pageSize: 50 }

// settings -----------------------------------------------------------------------------------------

const settingsGet = Command.make("get", { key: Args.text({ name: "key" }).pipe(Args.optional), ...common }, ({ json, key, operator }) =>
  asOperator(operator, (actor) =>
    StaffAccess.AdminSettings.list(actor).pipe(
      Effect.map((all) => Option.match(key, { onNone: () => all, onSome: (k) => all.filter((s) => s.key === k) })),
      Effect.filterOrFail((shown) => shown.length > 0, () => new CliFailure({ exitCode: 3, message: `no setting ${Option.getOrElse(key, () => "")}` })),
      Effect.flatMap((shown) => output(json, shown, () => table(["key", "value", "default"], shown.map((s) => [s.key, toJson(s.value), toJson(s.defaultValue)]))))
    ))
).pipe(Command.withDescription("Show one app setting or all of them"))

const settingsSet = Command.make(
  "set",
  { key: Args.text({ name: "key" }), value: Args.text({ name: "json-value" }).pipe(Args.withDescription("the new value as JSON, e.g. 5 or '{\"tiers\": …}'")), ...common },
  ({ json, key, operator, value }) =>
    asOperator(operator, (actor) =>
      Effect.try({ try: () => JSON.parse(value) as unknown, catch: () => new CliFailure({ exitCode: 2, message: "the value must be JSON" }) }).pipe(
        Effect.flatMap((parsed) => StaffAccess.Approvals.updateSetting(actor, key, parsed)),
        Effect.flatMap((r) =>
          r._tag === "Done"
            ? output(json, r.result, () => `${key} = ${toJson(r.result.value)}`)
            : output(json, { pendingApproval: r.approval }, () => `change filed for another superadmin's approval: ${r.approval.id}`)
        )
      ))
).pipe(Command.withDescription("Change an app setting (superadmin; validated by its schema)"))

const settings = Command.make("settings").pipe(Command.withDescription("App settings"), Command.withSubcommands([settingsGet, settingsSet]))

// audit and alerts ---------------------------------------------------------------------------------

const auditVerify = Command.make("verify", common, ({ json, operator }) =>
  asOperator(operator, (actor) =>
    StaffAccess.Audit.verifyFor(actor).pipe(
      Effect.tap((result) =>
        output(json, result, () => result.ok ? `audit chain intact: ${result.rows} rows, last hash ${result.lastHash}` : `audit chain BROKEN at row ${result.brokenAt}: ${result.reason}`)
      ),
      Effect.filterOrFail((result) => result.ok, () => new CliFailure({ exitCode: 1, message: "the audit chain does not verify" }))
    ))
).pipe(Command.withDescription("Walk the audit log's hash chain; exit 1 naming the first broken row"))

const audit = Command.make("audit").pipe(Command.withDescription("The audit log"), Command.withSubcommands([auditVerify]))

const alertsList = Command.make("list", common, ({ json, operator }) =>
  asOperator(operator, (actor) =>
    StaffAccess.AlertDesk.listOpen(actor).pipe(
      Effect.flatMap((alerts) => output(json, alerts, () => table(["id", "kind", "severity", "x", "last raised", "message"], alerts.map((a) => [a.id, a.kind, a.severity, a.occurrences, a.lastRaisedAt, a.message]))))
    ))
).pipe(Command.withDescription("Open staff alerts, newest first"))

const alertsAck = Command.make("ack", { id: idArg("alert-id", "alert").pipe(Args.map(AlertId.make)), ...common }, ({ id, json, operator }) =>
  asOperator(operator, (actor) => StaffAccess.AlertDesk.acknowledge(actor, id).pipe(Effect.zipRight(output(json, { acknowledged: id }, () => `alert ${id} acknowledged`))))
).pipe(Command.withDescription("Acknowledge an open alert"))

const alerts = Command.make("alerts").pipe(Command.withDescription("Staff alerts"), Command.withSubcommands([alertsList, alertsAck]))

// deletions -----------------------------------------------------------------------------------------

const deletionsList = Command.make(
  "list",
  { status: Options.choice("status", ["pending_review", "reviewed"]).pipe(Options.withDefault("pending_review" as const)), ...common },
  ({ json, operator, status }) =>
    asOperator(operator, (actor) =>
      StaffAccess.Deletions.list(actor, status, page).pipe(
        Effect.flatMap((found) => output(json, found, () => table(["id", "customer", "via", "created", "reviewed by"], found.items.map((d) => [d.record.id, d.record.customerId, d.record.via, d.record.createdAt, d.reviewedBy]))))
      ))
).pipe(Command.withDescription("Deletion records by status"))

const deletionsReview = Command.make(
  "review",
  { id: idArg("deletion-id", "deletion record").pipe(Args.map(DeletionId.make)), note: Options.text("note").pipe(Options.optional), ...common },
  ({ id, json, note, operator }) =>
    asOperator(operator, (actor) =>
      StaffAccess.Deletions.review(actor, id, Option.getOrNull(note)).pipe(Effect.flatMap((r) => output(json, r, () => `deletion ${id} reviewed`))))
).pipe(Command.withDescription("Mark a deletion record reviewed, with a note"))

const deletions = Command.make("deletions").pipe(Command.withDescription("Deletion review"), Command.withSubcommands([deletionsList, deletionsReview]))

// transactions, jobs, payouts ------------------------------------------------------------------------

const txShow = Command.make("show", { id: idArg("transaction-id", "transaction").pipe(Args.map(TransactionId.make)), ...common }, ({ id, json, operator }) =>
  asOperator(operator, (actor) =>
    StaffAccess.Ledger.search(actor, { id }, { page: 1, pageSize: 1 }).pipe(
      Effect.flatMap((found) => found.items.length === 0 ? Effect.fail(new CliFailure({ exitCode: 3, message: `no transaction ${id}` })) : Effect.succeed(found.items[0]!)),
      Effect.flatMap((t) => output(json, t, () => table(["field", "value"], Object.entries(t).map(([k, v]) => [k, v]))))
    ))
).pipe(Command.withDescription("One transaction, as the ledger holds it"))

const requeryOne = (json: boolean, r: StaffAccess.Ledger.RequeryResult) =>
  output(json, r, () => table(["", "status"], [["ours", r.transaction.status], ["bank: debit", r.provider.debit?.status], ["bank: transfer", r.provider.transfer?.status]]))

/** Every pending movement, requeried one by one (progress on stderr), then one summary table. */
const requeryPending = (json: boolean, actor: StaffMember) =>
  Effect.gen(function*() {
    const pending: Array<{ readonly id: TransactionId }> = []
    for (let p = 1;; p++) {
      const found = yield* StaffAccess.Ledger.search(actor, { status: "pending" }, { page: p, pageSize: 100 })
      pending.push(...found.items)
      if (p * 100 >= found.total) break
    }
    const results: Array<StaffAccess.Ledger.RequeryResult> = []
    for (const [i, t] of pending.entries()) {
      results.push(yield* StaffAccess.Ledger.requery(actor, t.id))
      const done = Math.round(((i + 1) / pending.length) * 20)
      yield* Console.error(`[${"#".repeat(done)}${".".repeat(20 - done)}] ${i + 1}/${pending.length}`)
    }
    yield* output(json, results, () =>
      `${table(
        ["transaction", "purpose", "amount (kobo)", "ours", "bank: debit", "bank: transfer"],
        results.map((r) => [r.transaction.id, r.transaction.purpose, r.transaction.amountKobo, r.transaction.status, r.provider.debit?.status, r.provider.transfer?.status])
      )}\n${results.length} pending movement(s) requeried`)
  })

const txRequery = Command.make(
  "requery",
  {
    id: idArg("transaction-id", "transaction").pipe(Args.map(TransactionId.make)).pipe(Args.optional),
    pending: Options.boolean("pending").pipe(Options.withDescription("every pending movement, with progress and a summary")),
    ...common
  },
  ({ id, json, operator, pending }) =>
    asOperatorWithBank(operator, (actor) =>
      Effect.gen(function*() {
        if (pending) return yield* requeryPending(json, actor)
        if (Option.isNone(id)) return yield* new CliFailure({ exitCode: 2, message: "name a transaction id, or --pending" })
        return yield* requeryOne(json, yield* StaffAccess.Ledger.requery(actor, id.value))
      }))
).pipe(Command.withDescription("Ask the bank about a transaction, or every pending one (read-only; audited)"))

/**
 * `tx resolve ID --outcome credited_back|delivered --note TEXT`: records what staff established with
 * the bank about a movement parked after a refused reversal (transactions:resolve; filed for a
 * second member's approval under ADMIN_FOUR_EYES). The plan, closure or deletion waiting on it goes on.
 */
const txResolve = Command.make(
  "resolve",
  {
    id: Args.text({ name: "transaction-id" }).pipe(Args.map(TransactionId.make)),
    outcome: Options.choice("outcome", ["credited_back", "delivered"]).pipe(
      Options.withDescription("credited_back: the money was given back to the customer by hand; delivered: the bank confirmed the transfer")
    ),
    note: Options.text("note").pipe(Options.withDescription("what the bank confirmed, and its reference (required)")),
    ...common
  },
  ({ id, json, note, operator, outcome }) =>
    asOperatorWithBank(operator, (actor) =>
      Effect.gen(function*() {
        if (note.trim() === "" || note.length > 1000) {
          return yield* new CliFailure({ exitCode: 2, message: "--note is required (at most 1000 characters): what the bank confirmed, and its reference" })
        }
        const r = yield* StaffAccess.Approvals.resolveMovement(actor, { transactionId: id, outcome, note: note.trim() }).pipe(
          Effect.catchTag("MovementNotAwaitingOperator", (e) =>
            Effect.fail(
              new CliFailure({
                exitCode: 4,
                message: `transaction ${e.transactionId} is ${e.status} (${
                  e.why === "in_progress" ? "the saga still drives it" : e.why === "final" ? "already final or resolved" : "not a movement"
                }): only a movement parked after a refused reversal can be resolved`
              })
            ))
        )
        if (r._tag === "Pending") {
          return yield* output(json, { pendingApproval: r.approval }, () => `resolution filed for a second member's approval: ${r.approval.id}`)
        }
        const done = r.result
        return yield* output(json, done, () =>
          [
            `transaction ${done.transaction.id} resolved ${outcome}: now ${done.transaction.status}`,
            ...(done.planState === null ? [] : [`plan: ${done.planState}`]),
            ...(done.closureStatus === null ? [] : [`closure: ${done.closureStatus}`])
          ].join("\n"))
      }))
).pipe(Command.withDescription("Record the outcome of a movement parked after the bank refused its reversal (audited)"))

const tx = Command.make("tx").pipe(Command.withDescription("Transactions"), Command.withSubcommands([txShow, txRequery, txResolve]))

const listFailed = (json: boolean, actor: StaffMember) =>
  StaffAccess.Ledger.failedJobs(actor, page).pipe(
    Effect.flatMap((found) => output(json, found, () => `${table(["transaction", "customer", "plan", "amount (kobo)", "reason", "at"], found.items.map((t) => [t.id, t.customerId, t.planId, t.amountKobo, t.failureReason, t.createdAt]))}\n${found.total} failed payout(s)`))
  )

/** The plan of a failed payout becomes due now; the due-payout job (or `payouts run`) pays it. */
const retryFailed = (json: boolean, actor: StaffMember, id: TransactionId) =>
  StaffAccess.retryFailedPayout(actor, id).pipe(
    Effect.flatMap((r) =>
      output(json, r, () =>
        `plan ${r.planId} (${r.stateBefore === r.state ? r.state : `${r.stateBefore} -> ${r.state}`}): instalment ${r.cycle} is due now; ` +
        `the next due-payout run (or \`payouts run\`) pays it`)
    )
  )

const jobsFailed = Command.make(
  "failed",
  {
    retry: idOption("retry", "transaction").pipe(
      Options.map(TransactionId.make),
      Options.withDescription("a failed payout's transaction id: its plan becomes due now (a paused plan resumes); audited"),
      Options.optional
    ),
    ...common
  },
  ({ json, operator, retry }) =>
    asOperator(operator, (actor) =>
      Effect.gen(function*() {
        if (Option.isSome(retry)) return yield* retryFailed(json, actor, retry.value)
        return yield* listFailed(json, actor)
      }))
).pipe(Command.withDescription("Payouts that failed (each failed attempt); --retry ID makes that payout's plan due now"))

const jobs = Command.make("jobs").pipe(Command.withDescription("Scheduled jobs"), Command.withSubcommands([jobsFailed]))

/** Plans claimed per batch by `payouts run` (small enough for its progress line to move), and at most how many batches. */
const RUN_BATCH = 50
const RUN_MAX_BATCHES = 200

const payoutsRun = Command.make("run", common, ({ json, operator }) =>
  asOperatorWithBank(operator, (actor) =>
    Effect.gen(function*() {
      yield* StaffAccess.requirePermission(actor, "jobs:read")
      const { dueNow } = yield* StaffAccess.Ledger.payoutBoard(actor)
      yield* Console.error(`running the due-payout job: ${dueNow} plan${dueNow === 1 ? "" : "s"} due`)
      // one batch at a time (the job's own claims, so safe beside running schedulers), with progress
      const total = { plans: 0, paid: 0, failed: 0 }
      for (let n = 0; n < RUN_MAX_BATCHES; n++) {
        const batch = yield* Plans.processDuePayouts({ batchSize: RUN_BATCH, maxBatches: 1 })
        if (batch.plans === 0) break
        total.plans += batch.plans
        total.paid += batch.paid
        total.failed += batch.failed
        yield* Console.error(`  ${total.plans}/${Math.max(dueNow, total.plans)} plans, ${total.paid} paid, ${total.failed} failed`)
        // a short batch means nothing more was due (as the job decides): a plan whose payout is
        // pending stays due, and is not claimed over and over
        if (batch.plans < RUN_BATCH) break
      }
      return yield* output(json, total, () => `due payouts: ${toJson(total)}`)
    }))
).pipe(Command.withDescription("The due-payout job, now, batch by batch with progress on stderr (safe beside running schedulers)"))

const payoutsStatus = Command.make("status", common, ({ json, operator }) =>
  asOperator(operator, (actor) =>
    Effect.gen(function*() {
      const board = yield* StaffAccess.Ledger.payoutBoard(actor)
      const nextRun = yield* nextPayoutRun(new Date())
      const status = { ...board, nextRun }
      yield* output(json, status, () =>
        table(["", ""], [
          ["active plans", board.activePlans],
          ["due now", board.dueNow],
          ["claimed by a running job", board.claimed],
          ["payouts in flight at the bank", board.payoutsInFlight],
          ["next instalment due", board.nextDueAt],
          ["next job run", nextRun]
        ]))
    }))
).pipe(Command.withDescription("Where the due-payout job stands: due now, in flight, the next run"))

const payouts = Command.make("payouts").pipe(Command.withDescription("Scheduled payouts"), Command.withSubcommands([payoutsStatus, payoutsRun]))

export const staffCommands = [settings, audit, alerts, deletions, tx, jobs, payouts] as const
