/**
 * The client bundles for a browser: nothing it imports (the API definition of packages/http and
 * what that imports) reaches a server-only module (`node:*`, pg, argon2, @app/adapters). The
 * console is built from it; a contract file importing the adapters would break /admin.
 */
import { build } from "esbuild"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

describe("the client in a browser bundle", () => {
  it("bundles for the browser platform without a server-only module", async () => {
    const result = await build({
      entryPoints: [path.join(import.meta.dirname, "../src/index.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    expect(result.errors).toEqual([])
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.filter((f) => /packages\/adapters\/|node_modules\/(pg|argon2|@electric-sql)\//.test(f))).toEqual([])
    expect(inputs.some((f) => f.endsWith("packages/http/src/Api.ts"))).toBe(true)
  })
})
