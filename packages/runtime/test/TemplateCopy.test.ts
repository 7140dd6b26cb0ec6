/**
 * A new embedded database from the build's template (TemplateCopy.ts): the template present, absent
 * or for another PGlite, being made by another process (finishing while a start waits, its maker
 * dead, the wait running out), and a data directory that is not empty. Each test has a template
 * directory of its own in a temporary folder, with a small stand-in for a database (the copy only
 * looks at PG_VERSION and pg_wal's segments).
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { pgliteVersion, seedFromTemplate } from "../src/TemplateCopy.js"

const WAL_SEGMENT = "000000010000000000000001"
/** a WAL segment's written part, then zeros (the copy writes the part and leaves a hole) */
const walBytes = Buffer.concat([Buffer.from("the last record"), Buffer.alloc(4096)])

let dir: string
let templateDir: string
let target: string

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "kobo-template-copy-"))
  templateDir = path.join(dir, "pglite-template")
  target = path.join(dir, "data", "pglite")
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** What scripts/build.mjs leaves in place: `pglite` (a stand-in) and manifest.json for `pglite` (version). */
const makeTemplate = (pglite: string = pgliteVersion()) => {
  const db = path.join(templateDir, "pglite")
  fs.mkdirSync(path.join(db, "base", "1"), { recursive: true })
  fs.mkdirSync(path.join(db, "pg_wal"))
  fs.writeFileSync(path.join(db, "PG_VERSION"), "17\n")
  fs.writeFileSync(path.join(db, "base", "1", "1259"), "a table's pages")
  fs.writeFileSync(path.join(db, "pg_wal", WAL_SEGMENT), walBytes)
  fs.writeFileSync(path.join(templateDir, "manifest.json"), JSON.stringify({ key: "k", pglite }))
}

/** A maker's working directory, as scripts/build.mjs names it: `<template>.partial-<key>-<pid>`. */
const makerAt = (pid: number) => fs.mkdirSync(`${templateDir}.partial-k-${pid}`)

const leftovers = () => fs.readdirSync(path.dirname(target)).filter((name) => name.includes(".partial-"))

const timed = async <A>(run: () => Promise<A>): Promise<readonly [A, number]> => {
  const started = performance.now()
  const result = await run()
  return [result, performance.now() - started]
}

describe("seedFromTemplate", () => {
  it("copies a present template into an empty data directory, the WAL segment byte for byte", async () => {
    makeTemplate()
    expect(await seedFromTemplate(target, { templateDir })).toBe(true)
    expect(fs.readFileSync(path.join(target, "PG_VERSION"), "utf8")).toBe("17\n")
    expect(fs.readFileSync(path.join(target, "base", "1", "1259"), "utf8")).toBe("a table's pages")
    expect(fs.readFileSync(path.join(target, "pg_wal", WAL_SEGMENT)).equals(walBytes)).toBe(true)
    expect(leftovers()).toEqual([])
  })

  it("does nothing without a template (PGlite then runs initdb itself)", async () => {
    const [seeded, ms] = await timed(() => seedFromTemplate(target, { templateDir }))
    expect(seeded).toBe(false)
    expect(fs.existsSync(target)).toBe(false)
    expect(ms).toBeLessThan(1_000)
  })

  it("ignores a template made for another PGlite", async () => {
    makeTemplate("0.0.1")
    expect(await seedFromTemplate(target, { templateDir })).toBe(false)
    expect(fs.existsSync(target)).toBe(false)
  })

  it("leaves a data directory that is not empty alone", async () => {
    makeTemplate()
    fs.mkdirSync(target, { recursive: true })
    fs.writeFileSync(path.join(target, "PG_VERSION"), "16\n")
    expect(await seedFromTemplate(target, { templateDir })).toBe(false)
    expect(fs.readdirSync(target)).toEqual(["PG_VERSION"])
    expect(fs.readFileSync(path.join(target, "PG_VERSION"), "utf8")).toBe("16\n")
  })

  it("waits for a template another process is making, and copies it once it is in place", async () => {
    makerAt(process.pid)
    setTimeout(() => {
      fs.rmSync(`${templateDir}.partial-k-${process.pid}`, { recursive: true })
      makeTemplate()
    }, 300)
    const [seeded, ms] = await timed(() => seedFromTemplate(target, { templateDir, waitMs: 10_000, pollMs: 10 }))
    expect(seeded).toBe(true)
    expect(ms).toBeGreaterThanOrEqual(290)
    expect(fs.readFileSync(path.join(target, "PG_VERSION"), "utf8")).toBe("17\n")
  })

  it("does not wait for a maker that no longer runs", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid
    makerAt(dead)
    const [seeded, ms] = await timed(() => seedFromTemplate(target, { templateDir, waitMs: 10_000, pollMs: 10 }))
    expect(seeded).toBe(false)
    expect(ms).toBeLessThan(1_000)
  })

  it("gives up when the wait runs out, the maker still running", async () => {
    makerAt(process.pid)
    const [seeded, ms] = await timed(() => seedFromTemplate(target, { templateDir, waitMs: 300, pollMs: 10 }))
    expect(seeded).toBe(false)
    expect(ms).toBeGreaterThanOrEqual(290)
    expect(ms).toBeLessThan(3_000)
    expect(fs.existsSync(target)).toBe(false)
  })
})
