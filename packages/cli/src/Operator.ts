/**
 * What every staff command shares: the operator it acts as, the layers it runs on, its output
 * (a human table, or `--json`) and its exit code.
 *
 * - The operator: `--operator EMAIL`, else the `KOBO_OPERATOR` environment variable; an existing,
 *   active staff member whose role's permissions apply, exactly as on the admin API, and in whose
 *   name actions are audited. As at the service's start-up, ADMIN_BOOTSTRAP_* creates the first
 *   superadmin while no staff exists.
 * - Exit codes: 0 done; 1 failed (the bank refused, an unexpected error); 2 usage (a bad argument,
 *   a malformed id, no operator); 3 not found; 4 refused (the role lacks the permission, the state
 *   forbids it, or a conflict such as a staff email already taken); 5 busy (the embedded sandbox
 *   bank is held by another process). Expected failures print one line, `error: …`, no stack.
 * - Layers: the database (DATABASE_URL, or PGlite under DATA_DIR: stop `npm start` first, PGlite is
 *   one process's database) for every command; the core banking provider only for commands that
 *   call the bank (CORE_BANKING_URL, or the sandbox bank in-process).
 */
import { Args, HelpDoc, Options, ValidationError } from "@effect/cli"
import { AdaptersLive, AppConfig } from "@app/adapters"
import { StaffAccess, type StaffMember, StaffRepo } from "@app/domain"
import { CoreBankingLive } from "@app/runtime"
import { Console, Data, Effect, Layer, Option } from "effect"

export class CliFailure extends Data.TaggedError("CliFailure")<{ readonly exitCode: 1 | 2 | 3 | 4 | 5; readonly message: string }> {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `value` as an id (a UUID, lower-cased), or the one line that says it is not one. */
const asId = (what: string, value: string): Effect.Effect<string, string> =>
  UUID.test(value.trim()) ? Effect.succeed(value.trim().toLowerCase()) : Effect.fail(`not a ${what} id (a UUID): ${value}`)

/**
 * A command's id argument: a malformed one is a usage error (exit 2, one line) before any database
 * work, where it used to reach SQL and end in a stack trace.
 */
export const idArg = (name: string, what: string) =>
  Args.text({ name }).pipe(
    Args.withDescription(`the ${what}'s id (a UUID)`),
    Args.mapEffect((value) => Effect.mapError(asId(what, value), (message) => HelpDoc.p(message)))
  )

/** The same for an option that takes an id. */
export const idOption = (name: string, what: string) =>
  Options.text(name).pipe(
    Options.mapEffect((value) => Effect.mapError(asId(what, value), (message) => ValidationError.invalidValue(HelpDoc.p(message))))
  )

export const operatorOption = Options.text("operator").pipe(
  Options.withDescription("email of the staff member acting (default: $KOBO_OPERATOR)"),
  Options.optional
)
export const jsonOption = Options.boolean("json").pipe(Options.withDescription("print JSON for scripts instead of a table"))

/** The staff member acting: `--operator`, else $KOBO_OPERATOR; must exist and be active. */
export const resolveOperator = (flag: Option.Option<string>) =>
  Effect.gen(function*() {
    // as at the service's start-up: with no staff yet, ADMIN_BOOTSTRAP_* creates the first superadmin
    const bootstrap = (yield* AppConfig).adminBootstrap
    if (Option.isSome(bootstrap)) yield* StaffAccess.bootstrapSuperadmin(bootstrap.value.email, bootstrap.value.password)
    const email = Option.getOrElse(flag, () => process.env.KOBO_OPERATOR ?? "").trim().toLowerCase()
    if (email === "") return yield* new CliFailure({ exitCode: 2, message: "name the operator: --operator EMAIL or KOBO_OPERATOR" })
    const found = yield* (yield* StaffRepo).findByEmail(email)
    if (Option.isNone(found) || found.value.status !== "active") {
      return yield* new CliFailure({ exitCode: 2, message: `no active staff member has the email ${email}` })
    }
    return found.value satisfies StaffMember
  })

/** What an operator reads for a domain failure: one plain line (the tag when nothing better is known). */
const MESSAGES: Record<string, (e: Record<string, unknown>) => string> = {
  AdminCustomerNotFound: () => "no customer has this id",
  AdminTransactionNotFound: () => "no transaction has this id",
  TransactionNotFound: () => "no transaction has this id",
  AlertNotFound: () => "no open alert has this id (unknown, or already acknowledged)",
  ApprovalNotFound: () => "no four-eyes request has this id (or your role cannot decide it)",
  DeletionNotFound: () => "no deletion record has this id",
  StaffNotFound: () => "no staff member has this id",
  SettingNotFound: (e) => `no setting has the key ${String(e.key)} (\`settings get\` lists them)`,
  PermissionDenied: (e) => `your role lacks the permission ${String(e.permission)}`,
  CustomerNotFreezable: (e) => `the customer is ${String(e.status)}: nothing to freeze`,
  CustomerNotSuspended: (e) => `the customer is ${String(e.status)}, not suspended`,
  ApprovalDecided: (e) => `the request was already ${String(e.status)}`,
  OwnApproval: () => "you asked for this change: another member must approve or reject it",
  DeletionAlreadyReviewed: () => "the deletion record was reviewed already",
  StaffEmailTaken: () => "another staff member already has this email",
  ProviderUnfreezeFailed: (e) => `the bank did not lift the freeze (${String(e.reason)}); the customer stays suspended`
}

export const describeFailure = (error: { readonly _tag: string; readonly message?: string }): string => {
  const known = MESSAGES[error._tag]
  if (known !== undefined) return known(error as unknown as Record<string, unknown>)
  return typeof error.message === "string" && error.message !== "" ? error.message : error._tag
}

/** Domain failures as exit codes: unknown ids 3, refusals 4, the rest 1. */
const failureOf = (error: { readonly _tag: string; readonly message?: string }): CliFailure => {
  if (error._tag === "CliFailure") return error as CliFailure
  const text = describeFailure(error)
  if (error._tag.endsWith("NotFound")) return new CliFailure({ exitCode: 3, message: text })
  if (error._tag === "InvalidSettingValue" || error._tag === "InvalidStaffInput") return new CliFailure({ exitCode: 2, message: text })
  if (/^(PermissionDenied|CustomerNot|Approval|OwnApproval|DeletionAlready|StaffEmailTaken|JobRetryRefused|MovementNotAwaitingOperator)/.test(error._tag)) {
    return new CliFailure({ exitCode: 4, message: text })
  }
  return new CliFailure({ exitCode: 1, message: text })
}

const asStaff = <A, E extends { readonly _tag: string }, R>(operator: Option.Option<string>, run: (actor: StaffMember) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(resolveOperator(operator), run).pipe(Effect.mapError(failureOf))

/** Runs a staff command on the database, as the operator. */
export const asOperator = <A, E extends { readonly _tag: string }, R>(
  operator: Option.Option<string>,
  run: (actor: StaffMember) => Effect.Effect<A, E, R>
) => Effect.provide(asStaff(operator, run), AdaptersLive)

/** Runs a staff command that calls the bank: the database and the core banking provider. */
export const asOperatorWithBank = <A, E extends { readonly _tag: string }, R>(
  operator: Option.Option<string>,
  run: (actor: StaffMember) => Effect.Effect<A, E, R>
) => Effect.provide(asStaff(operator, run), Layer.provideMerge(CoreBankingLive, AdaptersLive))

/** A plain text table: a header row, a rule, one row per record; cells cut at 60 characters. */
export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<unknown>>): string => {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? "-" : v instanceof Date ? v.toISOString() : String(v)
    return s.length > 60 ? `${s.slice(0, 57)}...` : s
  }
  const cells = rows.map((r) => r.map(cell))
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)))
  const line = (r: ReadonlyArray<string>) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n")
}

/** JSON with bigints as decimal strings and dates as ISO text. */
export const toJson = (value: unknown) =>
  JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v), 2)

/** Prints `value` as JSON (`--json`) or as the human rendering. */
export const output = (json: boolean, value: unknown, human: () => string) => Console.log(json ? toJson(value) : human())

export { StaffAccess }
