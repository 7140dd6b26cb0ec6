/**
 * What every staff command shares: the operator it acts as, the layers it runs on, its output
 * (a human table, or `--json`) and its exit code.
 *
 * - The operator: `--operator EMAIL`, else the `KOBO_OPERATOR` environment variable; an existing,
 *   active staff member whose role's permissions apply, exactly as on the admin API, and in whose
 *   name actions are audited. As at the service's start-up, ADMIN_BOOTSTRAP_* creates the first
 *   superadmin while no staff exists.
 * - Exit codes: 0 done; 1 failed (the bank refused, an unexpected error); 2 usage (a bad argument,
 *   no operator); 3 not found; 4 refused (the role lacks the permission, the state forbids it, or
 *   a conflict such as a staff email already taken).
 * - Layers: the database (DATABASE_URL, or PGlite under DATA_DIR: stop `npm start` first, PGlite is
 *   one process's database) for every command; the core banking provider only for commands that
 *   call the bank (CORE_BANKING_URL, or the sandbox bank in-process).
 */
import { Options } from "@effect/cli"
import { AdaptersLive, AppConfig } from "@app/adapters"
import { StaffAccess, type StaffMember, StaffRepo } from "@app/domain"
import { CoreBankingLive } from "@app/runtime"
import { Console, Data, Effect, Layer, Option } from "effect"

export class CliFailure extends Data.TaggedError("CliFailure")<{ readonly exitCode: 1 | 2 | 3 | 4; readonly message: string }> {}

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

/** Domain failures as exit codes: unknown ids 3, refusals 4, the rest 1. */
const failureOf = (error: { readonly _tag: string; readonly message?: string }): CliFailure => {
  if (error._tag === "CliFailure") return error as CliFailure
  const text = `${error._tag}${error.message ? `: ${error.message}` : ""}`
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
