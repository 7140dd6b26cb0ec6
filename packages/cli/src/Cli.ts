/**
 * The operator CLI's command tree: one file per command (or command group) under `commands/`.
 * `main.ts` runs it with the process's arguments and configuration.
 */
import { Command } from "@effect/cli"
import { admin } from "./commands/admin.js"
import { checkConfig } from "./commands/checkConfig.js"
import { customers } from "./commands/customers.js"
import { staffCommands } from "./commands/staffOps.js"
import { migrate } from "./commands/migrate.js"

export const cli = Command.make("kobo-plans").pipe(
  Command.withDescription("Operator commands of the savings and disbursement service"),
  Command.withSubcommands([migrate, checkConfig, customers, ...staffCommands, admin])
)

export const run = Command.run(cli, { name: "kobo-plans", version: "0.1.0" })
