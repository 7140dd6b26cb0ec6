/**
 * The template maker a build spawns (build/pglite-template.mjs, scripts/build.mjs `pgliteTemplate`)
 * works in `<dir>-<its own pid>`: the build may exit as soon as it has spawned it (ensure-build.mjs
 * does), and a start that finds the directory waits only while the process it names runs
 * (TemplateCopy.ts). Named after the build's pid, a dead build hid a live maker, and a live build
 * hid a killed one (a start then waited ten minutes).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, expect, it } from "vitest"

const maker = path.resolve(import.meta.dirname, "../../../build/pglite-template.mjs")
let dir: string

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

it("names its working directory after its own pid, then puts the template in place", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "kobo-template-maker-"))
  const base = path.join(dir, "pglite-template.partial-k")
  const final = path.join(dir, "pglite-template")
  const child = spawn(process.execPath, [maker, base, final, JSON.stringify({ key: "k" })], { stdio: "ignore" })
  const seen = new Set<string>()
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
  let code: number | null | undefined
  void exited.then((c) => (code = c))
  while (code === undefined) {
    for (const name of fs.readdirSync(dir)) if (name.includes(".partial-")) seen.add(name)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(code).toBe(0)
  expect([...seen]).toEqual([`pglite-template.partial-k-${child.pid}`])
  expect(fs.existsSync(path.join(final, "pglite", "PG_VERSION"))).toBe(true)
  expect(JSON.parse(fs.readFileSync(path.join(final, "manifest.json"), "utf8"))).toEqual({ key: "k" })
  expect(fs.readdirSync(dir).filter((name) => name.includes(".partial-"))).toEqual([])
}, 60_000)
