/**
 * `npm run sandbox`: the sandbox bank on its own, for a service started with
 * CORE_BANKING_URL=http://127.0.0.1:8090 (same CORE_BANKING_TOKEN on both sides).
 *
 * | Variable | Meaning | Default |
 * |---|---|---|
 * | SANDBOX_PORT | listening port (127.0.0.1) | 8090 |
 * | SANDBOX_DATA_DIR | the bank's journal (`sandbox-bank.jsonl`) lives here, kept across restarts; `none` = memory only | ./.data/sandbox |
 * | DURABLE_WRITES | each journal line fdatasync'ed before the answer leaves (as in `npm start`); `false` = the page cache | true |
 * | SANDBOX_LATENCY_MS | added to every call | 0 |
 * | SANDBOX_DUPLICATE_REFERENCES | a repeated reference answers its `first-outcome`, or `reject` ("94") | first-outcome |
 * | SANDBOX_NIP_SESSION_TTL_MS | how long a name enquiry's session id may be quoted by a transfer | 1800000 (30 min) |
 * | CORE_BANKING_TOKEN | the bearer token callers must send | the service's development token |
 * | SANDBOX_WEBHOOK_URL | where inbound deposits are announced; `none` = not announced | http://127.0.0.1:$PORT/api/v1/webhooks/core-banking (PORT 8080) |
 * | WEBHOOK_HEADER, WEBHOOK_SECRET | the webhook's shared header and secret | as the service |
 * | CORE_BANKING_TIMEOUT_MS | a 0004 transfer answers after this + 1 s | 10000 |
 * | SANDBOX_DIALECT (or `--dialect`) | `generic`, or `bankone`: BankOne's third-party API over the same bank (docs/bankone.md) | generic |
 * | BANKONE_TOKEN | the token the `bankone` dialect accepts | the development BankOne token |
 * | BANKONE_INSTITUTION_CODE | when set, postings must quote it as NibssCode | unset |
 *
 * `npm run sandbox -- --dialect bankone` serves BankOne's dialect; the `/sandbox/*` test routes and
 * the start-up line are the same in both.
 */
import { runService } from "@app/adapters/Runner"
import { Effect, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { JOURNAL_FILE } from "./Bank.js"
import { sandboxLayer, SandboxServer } from "./Server.js"
import { dialectArgument, SandboxConfig, standaloneOptions } from "./Standalone.js"

/**
 * Before the journal, the sandbox kept its state in a PGlite database in this directory: that state
 * is not imported (the bank starts empty beside it); it says so when it starts.
 */
const holdsOldDatabase = (dataDir: Option.Option<string>) =>
  Option.match(dataDir, {
    onNone: () => false,
    onSome: (dir) => fs.existsSync(path.join(dir, "PG_VERSION")) && !fs.existsSync(path.join(dir, JOURNAL_FILE))
  })

const SandboxMain = Layer.unwrapEffect(
  Effect.map(SandboxConfig, (config) => {
    const oldDatabase = holdsOldDatabase(config.dataDir)
    const dialect = dialectArgument(process.argv.slice(2)) ?? config.dialect
    return Layer.effectDiscard(
      Effect.flatMap(SandboxServer, ({ baseUrl }) =>
        Effect.logInfo(`sandbox bank listening on ${baseUrl}`).pipe(
          Effect.annotateLogs({
            journal: Option.match(config.dataDir, { onNone: () => "none (memory only)", onSome: (dir) => path.join(dir, JOURNAL_FILE) }),
            webhook: Option.getOrElse(config.webhookUrl, () => "none"),
            durable: config.durable,
            dialect
          }),
          Effect.zipLeft(Effect.when(
            Effect.logWarning(
              "sandbox bank: this data directory holds a PGlite database from an older sandbox; its state was not " +
                `imported (the bank now keeps its state in ${JOURNAL_FILE}); delete the old files when you no longer need them`
            ),
            () => oldDatabase
          ))
        ))
    ).pipe(
      Layer.provide(sandboxLayer(standaloneOptions(config, dialect)))
    )
  })
)

runService(SandboxMain)
