/**
 * `node build/pglite-template.mjs <dir> [<final dir> <manifest>]` (run by scripts/build.mjs, not
 * by hand): makes in `<dir>/pglite` (with a final directory, `<dir>-<pid>/pglite`) the PGlite database a new DATA_DIR starts from (Startup.ts), with the code a first
 * start runs, on the same client: initdb (`pgliteLayer`, as SqlClientLive opens it), then the
 * service's migrations (`runMigrations`, as MigrationsLive). Nothing else is written: no customer,
 * no staff, no setting beyond what the migrations insert. It imports only the migrations and the
 * client, so the build knows when the template is out of date (scripts/build.mjs keys it on this
 * bundle's text and the versions of the packages it imports). Given a final directory and the
 * manifest's JSON, it also writes `<dir>/manifest.json` and renames `<dir>` to the final directory
 * itself, so the build need not wait for it (a first `npm start` loads the service meanwhile, and
 * TemplateCopy.ts waits for the template).
 */
import { runMigrations } from "@app/adapters/Migrations"
import { pgliteLayer } from "@app/adapters/sql/Database"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

const [given, finalDir, manifest] = process.argv.slice(2)
if (given === undefined) {
  console.error("usage: node build/pglite-template.mjs <new directory> [<final directory> <manifest json>]")
  process.exit(2)
}
// Made for a build (a final directory given), it works in `<dir>-<its own pid>`: the build that
// spawned it may exit at once, and whoever finds the directory asks whether its maker still runs.
const dir = finalDir === undefined ? given : `${given}-${process.pid}`
const started = performance.now()

/** Puts the made template in place (another build's of the same key may have won the race: fine). */
const finish = () => {
  if (finalDir === undefined || manifest === undefined) return
  fs.writeFileSync(path.join(dir, "manifest.json"), manifest)
  fs.rmSync(finalDir, { recursive: true, force: true })
  try {
    fs.renameSync(dir, finalDir)
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true })
    const theirs = JSON.parse(fs.readFileSync(path.join(finalDir, "manifest.json"), "utf8")) as { readonly key?: unknown }
    if (theirs.key !== (JSON.parse(manifest) as { readonly key?: unknown }).key) throw error
  }
  console.error(`build: PGlite template (initdb + migrations) in ${path.relative(process.cwd(), finalDir)} (${(performance.now() - started).toFixed(0)} ms)`)
}

// built and released: PGlite is closed cleanly (a shutdown checkpoint) before the process exits
Effect.scoped(
  Effect.flatMap(Layer.build(pgliteLayer(path.join(path.resolve(dir), "pglite"))), (context) => Effect.provide(runMigrations, context))
).pipe(Effect.runPromise).then(finish).catch((error: unknown) => {
  console.error("pglite-template: failed", error)
  fs.rmSync(dir, { recursive: true, force: true })
  process.exit(1)
})
