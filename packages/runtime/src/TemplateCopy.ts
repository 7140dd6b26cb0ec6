/**
 * A new embedded database from the build's template: an empty DATA_DIR/pglite (the directory
 * SqlClientLive of @app/adapters opens) starts as a copy of build/pglite-template/pglite, the
 * database that initdb and the migrations make (scripts/build.mjs makes it with
 * packages/runtime/src/pgliteTemplate.ts), instead of PGlite starting twice to run initdb and some
 * 150 statements of DDL then running on a cold WebAssembly engine: most of a fresh start-up.
 * Only the migration history's timestamps tell the difference (they say when the template was made).
 *
 * The copy (some 40 MB, a thousand files) begins before the service's modules load
 * (`startEarlyCopy`, the first thing a runnable does) into DATA_DIR/pglite.partial-<pid>, on a
 * thread of its own; `PgliteTemplateLive` (Startup.ts), once the configuration is known, waits for it and
 * renames it into place. A process that stops before that (an invalid configuration) removes it.
 * Node built-ins only: this module loads in a few milliseconds.
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { Worker } from "node:worker_threads"

/** The repository root: this file is packages/runtime/src/TemplateCopy.ts (in build/*.mjs too, see scripts/build.mjs). */
const ROOT = path.resolve(import.meta.dirname, "../../..")

/** Made by scripts/build.mjs (`pgliteTemplate`): the database `pglite` and manifest.json. */
const TEMPLATE_DIR = path.join(ROOT, "build/pglite-template")

/** The installed PGlite's version (its package.json is not exported: found beside its entry). */
export const pgliteVersion = (): string => {
  let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir)
  return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { readonly version: string }).version
}

/**
 * Where the template is and how long to wait for one in the making: build/pglite-template and ten
 * minutes (a first start waits while the build's maker runs initdb); tests give their own.
 */
export interface TemplateOptions {
  /** the directory holding `pglite` and manifest.json; its makers work in `<dir>.partial-<key>-<pid>` beside it */
  readonly templateDir?: string
  readonly waitMs?: number
  readonly pollMs?: number
}

/** The build's template database, if it made one for the installed PGlite. */
export const templateDatabase = (templateDir: string = TEMPLATE_DIR): string | undefined => {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(templateDir, "manifest.json"), "utf8")) as { readonly pglite?: unknown }
    if (manifest.pglite !== pgliteVersion()) return undefined
    const dir = path.join(templateDir, "pglite")
    return fs.existsSync(path.join(dir, "PG_VERSION")) ? dir : undefined
  } catch {
    return undefined
  }
}

/** Whether a process of this id runs (EPERM: it does, as another user). */
const isRunning = (pid: number): boolean => {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    return process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Whether the build is making the template right now: a first `npm start` does not wait for it
 * (scripts/build.mjs `pgliteTemplate`, `build/pglite-template.partial-<key>-<pid>`).
 */
const templateInTheMaking = (templateDir: string): boolean => {
  const prefix = `${path.basename(templateDir)}.partial-`
  try {
    return fs.readdirSync(path.dirname(templateDir))
      .some((name) => name.startsWith(prefix) && isRunning(Number(name.slice(prefix.length).split("-")[1])))
  } catch {
    return false
  }
}

/**
 * The template, waiting for one the build is still making while its maker runs (`waitMs` at most,
 * ten minutes unless told); undefined when there is none, its maker died or the wait ran out.
 */
export const awaitTemplate = async (options: TemplateOptions = {}): Promise<string | undefined> => {
  const { pollMs = 50, templateDir = TEMPLATE_DIR, waitMs = 600_000 } = options
  const deadline = Date.now() + waitMs
  let template = templateDatabase(templateDir)
  while (template === undefined && templateInTheMaking(templateDir) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs))
    template = templateDatabase(templateDir)
  }
  return template
}

/** A directory that does not exist or has nothing in it. */
export const isEmptyDir = (dir: string): boolean => {
  try {
    return fs.readdirSync(dir).length === 0
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT"
  }
}

/**
 * What the copying thread runs (CommonJS): the tree `from` to `to` (new), copy-on-write where the
 * file system can, modes kept; a WAL segment (16 MB, about half of it zeros after the template's
 * last record) as its written part followed by a hole, which reads as the same zeros.
 */
const COPY_TREE = `
const { workerData: { from, to } } = require("node:worker_threads")
const fs = require("node:fs")
const path = require("node:path")
const isWalSegment = (file) => path.basename(path.dirname(file)) === "pg_wal" && /^[0-9A-F]{24}$/.test(path.basename(file))
fs.cpSync(from, to, { recursive: true, mode: fs.constants.COPYFILE_FICLONE, filter: (file) => !isWalSegment(file) })
const wal = path.join(from, "pg_wal")
for (const name of fs.readdirSync(wal).filter((name) => isWalSegment(path.join(wal, name)))) {
  const bytes = fs.readFileSync(path.join(wal, name))
  let end = bytes.length
  while (end > 0 && bytes[end - 1] === 0) end--
  const fd = fs.openSync(path.join(to, "pg_wal", name), "w")
  try {
    fs.fchmodSync(fd, fs.statSync(path.join(wal, name)).mode & 0o7777)
    fs.writeSync(fd, bytes, 0, end)
    fs.ftruncateSync(fd, bytes.length)
  } finally {
    fs.closeSync(fd)
  }
}
`

/**
 * Copies the tree `from` to `to` (new) on a thread of its own, with synchronous calls: libuv's
 * thread pool stays free for the module loader, which reads every module through it (a thousand
 * concurrent copies there would double the service's module loading).
 */
const copyTree = (from: string, to: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(COPY_TREE, { eval: true, workerData: { from, to } })
    // it must not keep a stopping process alive
    worker.unref()
    worker.once("error", reject)
    worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`template copy: exit ${code}`))))
  })

const remove = (dir: string) => fs.rmSync(dir, { recursive: true, force: true })

/** `<target>.partial-<pid>` copies of processes that no longer run (killed mid-copy). */
const removeAbandonedCopies = (target: string) => {
  const prefix = `${path.basename(target)}.partial-`
  let names: Array<string>
  try {
    names = fs.readdirSync(path.dirname(target))
  } catch {
    return
  }
  for (const name of names.filter((n) => n.startsWith(prefix))) {
    const pid = Number(name.slice(prefix.length))
    if (pid !== process.pid && !isRunning(pid)) remove(path.join(path.dirname(target), name))
  }
}

interface Copy {
  readonly target: string
  readonly partial: string
  /** false: the copy failed (and is removed) */
  readonly done: Promise<boolean>
}

let early: Copy | undefined

/** Begins copying the template to `<target>.partial-<pid>`; removed if this process exits first. */
const beginCopy = (template: string, target: string): Copy => {
  removeAbandonedCopies(target)
  const partial = `${target}.partial-${process.pid}`
  remove(partial)
  // a copy still being written may leave files behind: the next start removes them (above)
  const cleanup = () => {
    try {
      remove(partial)
    } catch {
      // removeAbandonedCopies
    }
  }
  process.once("exit", cleanup)
  let done: Promise<boolean>
  try {
    done = copyTree(template, partial).then(() => true, () => (cleanup(), false))
  } catch {
    cleanup()
    done = Promise.resolve(false)
  }
  return { target, partial, done }
}

/**
 * The first thing a runnable does: when the embedded database will be new (no DATABASE_URL, an
 * empty DATA_DIR/pglite, as AppConfig reads them: DATA_DIR defaults to ./.data) and the build made
 * a template, begins copying it, so the copy runs while the service's modules load.
 */
export const startEarlyCopy = (env: NodeJS.ProcessEnv = process.env): void => {
  try {
    if (env.DATABASE_URL !== undefined) return
    const target = path.join(path.resolve(env.DATA_DIR ?? "./.data"), "pglite")
    const template = templateDatabase()
    if (template === undefined || !isEmptyDir(target)) return
    early = beginCopy(template, target)
  } catch {
    early = undefined
  }
}

/**
 * Puts a copy of the template in `target` when it is empty (waiting for the early copy when it was
 * for `target`, else copying now, after the template itself if the build is still making it);
 * resolves with whether it did. The copy is renamed into place,
 * so PGlite never finds half a database. On any error: false, and PGlite starts the directory itself.
 */
export const seedFromTemplate = async (target: string, options: TemplateOptions = {}): Promise<boolean> => {
  const started = early?.target === target ? early : undefined
  early = undefined
  const template = started === undefined && isEmptyDir(target) ? await awaitTemplate(options) : templateDatabase(options.templateDir)
  if (template === undefined || !isEmptyDir(target)) {
    // not needed after all: removed once its files are written
    if (started !== undefined && await started.done) remove(started.partial)
    return false
  }
  const copy = started ?? beginCopy(template, target)
  if (!(await copy.done)) return false
  try {
    remove(target)
    fs.renameSync(copy.partial, target)
    return true
  } catch {
    remove(copy.partial)
    return false
  }
}
