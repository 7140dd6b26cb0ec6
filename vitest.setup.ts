/**
 * Runs before every test file: @effect/vitest's `it` back to its own `it.effect`, `it.scoped`, ….
 *
 * `layer(...)` of @effect/vitest 0.30 gives its block its testers by assigning them onto the `it`
 * every file imports (vitest's own `it` object), and never puts the defaults back. Test files share
 * processes (`isolate: false`), so a file's top-level `it.effect` ran inside the runtime of the
 * last `layer(...)` another file declared in the process: after an HTTP test file (`layer(TestServer,
 * { excludeTestServices: true })`) there was no TestClock ("adjust is not a function"). Later
 * versions of the library no longer mutate the shared `it` (Effect-TS/effect-smol#2177).
 * `makeMethods` is the package's public way to attach its default testers to an `it`.
 */
import { it, makeMethods } from "@effect/vitest"

makeMethods(it)
