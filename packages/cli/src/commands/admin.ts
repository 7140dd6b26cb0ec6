/**
 * `admin invite|create|change-email`: staff members (superadmin only: staff:invite, staff:change_email),
 * audited under the operator.
 *
 * - invite: the member gets an emailed link to choose their password.
 * - create: the member is active at once with a password: read from stdin with `--password-stdin`
 *   (never a flag's value, which shell history and `ps` would keep), else generated here (24
 *   characters, 144 random bits) and printed once.
 * - change-email: the member's email changes, their open invite and reset links are voided and their
 *   sessions end (PATCH /admin/staff/{id}/email's use case); send-link then reaches the new address.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { asOperator, CliFailure, jsonOption, operatorOption, output, StaffAccess } from "../Operator.js"
import { StaffId } from "@app/domain"

const common = { json: jsonOption, operator: operatorOption }
const member = {
  email: Options.text("email"),
  firstName: Options.text("first-name"),
  lastName: Options.text("last-name"),
  role: Options.choice("role", ["superadmin", "admin", "support", "officer"]).pipe(Options.withDefault("admin" as const))
}

const adminInvite = Command.make("invite", { ...member, ...common }, ({ email, firstName, json, lastName, operator, role }) =>
  asOperator(operator, (actor) =>
    StaffAccess.invite(actor, { email, firstName, lastName, role }).pipe(
      Effect.flatMap((m) => output(json, m, () => `${m.email} invited as ${m.role} (${m.id}); the invite link was emailed`))
    ))
).pipe(Command.withDescription("Invite a staff member (superadmin); the link is emailed"))

/** All of stdin, less one trailing line break (`echo pw |` and `< file` both end with one). */
const readStdin = Effect.tryPromise({
  try: async () => {
    if (process.stdin.isTTY) process.stderr.write("password (then Enter and Ctrl-D): ")
    const chunks: Array<Buffer> = []
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk))
    return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "")
  },
  catch: () => new CliFailure({ exitCode: 2, message: "could not read the password from stdin" })
})

const generated = () => randomBytes(18).toString("base64url")

const adminCreate = Command.make(
  "create",
  {
    ...member,
    passwordStdin: Options.boolean("password-stdin").pipe(
      Options.withDescription("read the password (12 to 128 characters) from stdin; without it one is generated and printed once")
    ),
    ...common
  },
  ({ email, firstName, json, lastName, operator, passwordStdin, role }) =>
    asOperator(operator, (actor) =>
      Effect.gen(function*() {
        // the operator first: nothing is read or generated for a refused command
        yield* StaffAccess.requirePermission(actor, "staff:invite")
        const password = passwordStdin ? yield* readStdin : generated()
        const m = yield* StaffAccess.createWithPassword(actor, { email, firstName, lastName, role, password: Redacted.make(password) })
        yield* output(json, passwordStdin ? m : { ...m, generatedPassword: password }, () =>
          passwordStdin
            ? `${m.email} created as ${m.role} (${m.id}), active with the password given`
            : `${m.email} created as ${m.role} (${m.id}), active\n` +
              `generated password (shown this once, not stored in clear): ${password}\n` +
              `hand it over safely; a reset link (POST /admin/officers/{id}/send-link) lets them choose their own`)
      }))
).pipe(Command.withDescription("Create an active staff member with a password (superadmin); no email is sent"))

const adminChangeEmail = Command.make(
  "change-email",
  { staffId: Args.text({ name: "staff-id" }).pipe(Args.map(StaffId.make)), email: Options.text("email"), ...common },
  ({ email, json, operator, staffId }) =>
    asOperator(operator, (actor) =>
      StaffAccess.changeEmail(actor, staffId, email).pipe(
        Effect.flatMap((m) => output(json, m, () => `${m.id} now has the email ${m.email}; their open links were voided and their sessions ended`))
      ))
).pipe(Command.withDescription("Change a staff member's email (superadmin): voids their open links, ends their sessions"))

export const admin = Command.make("admin").pipe(
  Command.withDescription("Staff"),
  Command.withSubcommands([adminInvite, adminCreate, adminChangeEmail])
)
