/**
 * `node build/pglite-template.mjs <dir>` (run by scripts/build.mjs, not by hand): makes in
 * `<dir>/pglite` the PGlite database a new DATA_DIR starts from (Startup.ts), with the code a first
 * start runs, on the same client: initdb (`pgliteLayer`, as SqlClientLive opens it), then the
 * service's migrations (`runMigrations`, as MigrationsLive). Nothing else is written: no customer,
 * no staff, no setting beyond what the migrations insert. It imports only the migrations and the
 * client, so the build knows when the template is out of date (scripts/build.mjs keys it on this
 * bundle's text and the versions of the packages it imports).
 */
import { runMigrations } from "@app/adapters/Migrations"
import { pgliteLayer } from "@app/adapters/sql/Database"
import { Effect, Layer } from "effect"
import * as path from "node:path"

const dir = process.argv[2]
if (dir === undefined) {
  console.error("usage: node build/pglite-template.mjs <new directory>")
  process.exit(2)
}

// built and released: PGlite is closed cleanly (a shutdown checkpoint) before the process exits
Effect.scoped(
  Effect.flatMap(Layer.build(pgliteLayer(path.join(path.resolve(dir), "pglite"))), (context) => Effect.provide(runMigrations, context))
).pipe(Effect.runPromise).catch((error: unknown) => {
  console.error("pglite-template: failed", error)
  process.exit(1)
})
