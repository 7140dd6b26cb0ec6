#!/usr/bin/env node
/**
 * `npm run build`: compiles the runnables to JavaScript under build/ (what `npm start` and the other
 * run scripts execute with `node --enable-source-maps build/<name>.mjs`):
 *
 * | Entry point | Output |
 * |---|---|
 * | packages/runtime/src/start.ts | build/start.mjs |
 * | packages/runtime/src/http.ts | build/http.mjs |
 * | packages/runtime/src/scheduler.ts | build/scheduler.mjs |
 * | packages/cli/src/main.ts | build/cli.mjs |
 * | packages/sandbox/src/main.ts | build/sandbox.mjs |
 *
 * ESM, platform node, target node20, with source maps. The @app/* workspaces are bundled (their
 * package.json points at .ts sources, which node cannot run), and so are Effect's own packages
 * (`bundled`: effect, @effect/platform, @effect/sql…): loading them from node_modules meant
 * resolving, reading and compiling hundreds of small modules at every start (`cli --help` took
 * 1.34 s, 0.76 s bundled; `npm start` answers ~0.5 s sooner). Every other
 * npm package stays external and is imported from node_modules at run time (argon2's native
 * binding, PGlite's .wasm/.data files, jose, croner, nodemailer, pg, undici, OpenTelemetry's SDK…);
 * none of them imports effect, so there is one copy of it in a process. Code the entry points share is
 * in build/chunk-*.mjs, and so is what they import on demand (`import()`: OpenTelemetry's layer,
 * whose packages then load only when tracing is on).
 *
 * What the build changes in workspace sources on the way (`workspaceSources`), nothing else:
 * - source locations: a bundled module's `import.meta` would be the bundle's (build/x.mjs), so a
 *   module that finds files next to its source (packages/http/src/console/ConsoleStatic.ts serves
 *   ../../../console/dist at /admin) would look in the wrong place. Every `import.meta.url`,
 *   `import.meta.dirname` and `import.meta.filename` in a workspace source is rewritten to the source
 *   file's own location, computed at run time from the bundle's (build/ sits in the repository root,
 *   beside packages/): the code behaves as under tsx, from any working directory;
 * - imports from Effect's barrels become imports of the modules they re-export
 *   (`rewriteBarrelImports`): the same bindings, a fifth fewer modules loaded at start-up.
 *
 * It also makes build/pglite-template, the database a new DATA_DIR starts from, when the migrations
 * (or PGlite) changed (`pgliteTemplate`).
 *
 * Usage: `node scripts/build.mjs` (or `npm run build`); `--quiet` prints nothing but errors.
 * Writes build/.built (the build's stamp, read by scripts/ensure-build.mjs) last, only on success.
 * Also vitest's globalSetup for the end-to-end tests (`setup`: one build before they start).
 */
import * as esbuild from "esbuild"
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { isRunning } from "./processes.mjs"

export const root = path.resolve(import.meta.dirname, "..")
export const outdir = path.join(root, "build")
export const stampFile = path.join(outdir, ".built")

export const entryPoints = {
  start: "packages/runtime/src/start.ts",
  http: "packages/runtime/src/http.ts",
  scheduler: "packages/runtime/src/scheduler.ts",
  cli: "packages/cli/src/main.ts",
  sandbox: "packages/sandbox/src/main.ts"
}

/** Not a runnable: makes build/pglite-template (`pgliteTemplate`); one file, so its text keys the template. */
const templateMaker = { "pglite-template": "packages/runtime/src/pgliteTemplate.ts" }

/** A package import path's package name: "@effect/sql/Migrator" → "@effect/sql", "pg" → "pg". */
const packageName = (specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

/**
 * Effect's own packages (`effect`, `@effect/*`), bundled (see the header); all of them, so none can
 * load a second copy of effect from node_modules. @effect/opentelemetry goes in the on-demand
 * tracing chunk.
 */
const bundled = (name) => name === "effect" || name.startsWith("@effect/")

/** Bundles the @app/* workspaces, leaves every other package to node_modules (and records which). */
const externalPackages = (externals) => ({
  name: "external-packages",
  setup(build) {
    // a bare import path: not relative, not absolute, not a node: builtin
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || args.path.startsWith("@app/")) return undefined
      if (bundled(packageName(args.path))) return undefined
      externals.add(packageName(args.path))
      return { path: args.path, external: true }
    })
  }
})

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g

/** `import.meta.{url,dirname,filename}` in a workspace source → the source file's location (above). */
const rewriteImportMeta = (contents, file) => {
  if (!contents.includes("import.meta.")) return contents
  const relative = JSON.stringify(path.relative(root, file).split(path.sep).join("/"))
  return contents.replace(IMPORT_META, (_, property) =>
    property === "url" ? `__sourceUrl(${relative})` : property === "filename" ? `__sourceFile(${relative})` : `__sourceDir(${relative})`)
}

/** The barrels whose imports are made deep (see `rewriteBarrelImports`). */
const BARRELS = ["effect", "@effect/platform", "@effect/platform-node", "@effect/sql", "@effect/experimental", "@effect/cli"]

/**
 * For each barrel, what its index re-exports: name → the module path that defines it, from its
 * `export * as Name from "./Name.js"` (a namespace) and `export { a, b } from "./Function.js"`
 * lines; only modules the package exports by that path. Anything else is left to the barrel.
 */
const barrelMaps = () => {
  const maps = new Map()
  for (const pkg of BARRELS) {
    const dir = path.join(root, "node_modules", pkg)
    let index, exported
    try {
      index = fs.readFileSync(path.join(dir, "dist/esm/index.js"), "utf8")
      exported = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).exports ?? {}
    } catch {
      continue
    }
    const map = new Map()
    for (const [, name, sub] of index.matchAll(/^export \* as (\w+) from "\.\/([\w/]+)\.js";?$/gm)) {
      if (exported[`./${sub}`] !== undefined) map.set(name, { module: `${pkg}/${sub}`, namespace: true })
    }
    for (const [, names, sub] of index.matchAll(/^export \{([^}]*)\} from "\.\/([\w/]+)\.js";?$/gm)) {
      if (exported[`./${sub}`] === undefined) continue
      for (const name of names.split(",").map((n) => n.trim()).filter((n) => /^\w+$/.test(n))) {
        map.set(name, { module: `${pkg}/${sub}`, namespace: false })
      }
    }
    maps.set(pkg, map)
  }
  return maps
}

const BARREL_IMPORT = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"(${BARRELS.map((b) => b.replace(/[/]/g, "\\/")).join("|")})";?`, "g")

/**
 * `import { Effect, Layer, pipe, type Option } from "effect"` → `import * as Effect from
 * "effect/Effect"; import * as Layer from "effect/Layer"; import { pipe } from "effect/Function";
 * import type { Option } from "effect"`: the same bindings (the barrel re-exports exactly those
 * modules), without loading every module of the package (effect's index loads some 360 files,
 * @effect/platform-node's brings @effect/cluster, ws, msgpackr…) at start-up. The packages stay
 * external. Line breaks are kept, so the source map still points at the right lines.
 */
const rewriteBarrelImports = (contents, maps, file) =>
  contents.replace(BARREL_IMPORT, (statement, list, pkg) => {
    const map = maps.get(pkg)
    if (map === undefined) return statement
    const lines = "\n".repeat((statement.match(/\n/g) ?? []).length)
    const out = []
    const types = []
    const rest = []
    for (const spec of list.split(",").map((s) => s.replace(/\s+/g, " ").trim()).filter((s) => s !== "")) {
      if (spec.startsWith("type ")) {
        types.push(spec.slice(5))
        continue
      }
      const [name, alias = name] = spec.split(" as ").map((s) => s.trim())
      const target = map.get(name)
      if (target === undefined) rest.push(spec)
      else if (target.namespace) out.push(`import * as ${alias} from "${target.module}";`)
      else out.push(`import { ${name === alias ? name : `${name} as ${alias}`} } from "${target.module}";`)
    }
    if (rest.length > 0) {
      console.warn(`build: ${path.relative(root, file)}: ${rest.join(", ")} from "${pkg}" left to the barrel`)
      out.push(`import { ${rest.join(", ")} } from "${pkg}";`)
    }
    if (types.length > 0) out.push(`import type { ${types.join(", ")} } from "${pkg}";`)
    return out.join(" ") + lines
  })

/** The transforms of workspace sources (above) before esbuild compiles them. */
const workspaceSources = (maps) => ({
  name: "workspace-sources",
  setup(build) {
    build.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      const original = await fs.promises.readFile(args.path, "utf8")
      const contents = rewriteBarrelImports(rewriteImportMeta(original, args.path), maps, args.path)
      return contents === original ? undefined : { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" }
    })
  }
})

// prepended to every bundle: the helpers the rewritten import.meta expressions call
const banner = [
  "import { fileURLToPath as __fileURLToPath } from \"node:url\";",
  "import { dirname as __dirnameOf } from \"node:path\";",
  "const __sourceUrl = (relative) => new URL(\"../\" + relative, import.meta.url).href;",
  "const __sourceFile = (relative) => __fileURLToPath(__sourceUrl(relative));",
  "const __sourceDir = (relative) => __dirnameOf(__sourceFile(relative));"
].join(" ")

/** The installed version of an npm package (its package.json, found beside its entry point). */
const installedVersion = (name) => {
  const direct = path.join(root, "node_modules", name, "package.json")
  if (fs.existsSync(direct)) return JSON.parse(fs.readFileSync(direct, "utf8")).version
  let dir = path.dirname(createRequire(path.join(root, "package.json")).resolve(name))
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir)
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version
}

export const templateDir = path.join(outdir, "pglite-template")
const templateManifest = path.join(templateDir, "manifest.json")

/**
 * build/pglite-template/pglite: a PGlite database with every migration applied, made by
 * build/pglite-template.mjs (packages/runtime/src/pgliteTemplate.ts); a new DATA_DIR/pglite starts
 * as a copy of it (packages/runtime/src/Startup.ts, which reads manifest.json) instead of running
 * initdb and the migrations at start-up. Remade only when its key changes: the template maker's
 * bundle (the migrations and the SQL client, nothing else) and the versions of the packages it
 * imports (PGlite, @effect/sql…), so editing other code does not remake it. `wait: false`
 * (scripts/ensure-build.mjs, so `npm start`) returns once the maker runs: initdb is ~7 s of one
 * core, the longest step of a first start, and the service loads meanwhile (TemplateCopy.ts waits).
 */
export const pgliteTemplate = async ({ externals, wait = true }) => {
  const maker = path.join(outdir, "pglite-template.mjs")
  const versions = Object.fromEntries([...externals].sort().map((name) => [name, installedVersion(name)]))
  const key = createHash("sha256").update(fs.readFileSync(maker)).update(JSON.stringify(versions)).digest("hex").slice(0, 16)
  try {
    const manifest = JSON.parse(fs.readFileSync(templateManifest, "utf8"))
    if (manifest.key === key && fs.existsSync(path.join(templateDir, "pglite/PG_VERSION"))) return
  } catch {
    // no template yet
  }
  // `pglite-template.partial-<key>-<pid>`: a maker of this key already running (a restart during a
  // first start's build) is left to finish; those of dead processes are removed
  const prefix = `${path.basename(templateDir)}.partial-`
  for (const name of fs.readdirSync(outdir).filter((n) => n.startsWith(prefix))) {
    const [theirKey, pid] = name.slice(prefix.length).split("-")
    if (isRunning(Number(pid))) {
      if (theirKey === key && !wait) return
    } else {
      fs.rmSync(path.join(outdir, name), { recursive: true, force: true })
    }
  }
  // the maker appends its own pid: the process that writes the directory is the one it names
  const partial = path.join(outdir, `${prefix}${key}`)
  const manifest = `${JSON.stringify({ key, pglite: versions["@electric-sql/pglite"], packages: versions }, null, 2)}\n`
  // the maker puts the template in place and says so itself
  const child = spawn(process.execPath, ["--enable-source-maps", maker, partial, templateDir, manifest], {
    stdio: ["ignore", "inherit", "inherit"]
  })
  if (!wait) {
    // npm start goes on loading the service, which waits for the template (TemplateCopy.ts)
    child.unref()
    return
  }
  const made = await new Promise((resolve, reject) => {
    child.on("error", reject).on("exit", (status, signal) => resolve({ status, signal }))
  })
  if (made.status !== 0) throw new Error(`build: making the PGlite template failed (exit ${made.status ?? made.signal})`)
}

/** What both builds share (the runnables, the template maker). */
const common = (externals, quiet) => ({
  absWorkingDir: root,
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // Without the sources' text: the maps shrink from 12 MB to under 2 MB, which node parses at every
  // start under --enable-source-maps (~0.1 s on a busy 2-core machine); a stack trace still names
  // the TypeScript file and line, and the sources are beside the build.
  sourcesContent: false,
  // No keepNames: without minification esbuild renames only where two bundled modules declare the
  // same name (a second `class NotFound` becomes `NotFound2`), and keepNames made every function
  // expression, including the closures Effect creates on each operation, call a helper that
  // redefines its `name`: 5.6% of the service's CPU under bench:api. Names that reach clients, logs
  // and spans are explicit strings (error tags, span names, Context tags), never `.name`.
  keepNames: false,
  legalComments: "none",
  banner: { js: banner },
  plugins: [externalPackages(externals), workspaceSources(barrelMaps())],
  logLevel: quiet ? "error" : "warning",
  metafile: true
})

/** Builds every entry point into build/ and the PGlite template; resolves with the npm packages they import. */
export const build = async ({ quiet = false, log = console.log, waitForTemplate = true } = {}) => {
  const started = performance.now()
  const externals = new Set()
  const makerExternals = new Set()
  fs.mkdirSync(outdir, { recursive: true })
  fs.rmSync(stampFile, { force: true })
  /** Every external package must be installed where the bundles (build/) can import it from. */
  const checkInstalled = (names) => {
    const missing = [...names].filter((name) => !fs.existsSync(path.join(root, "node_modules", name, "package.json")))
    if (missing.length > 0) {
      throw new Error(`build: not installed in ${path.join(root, "node_modules")}: ${[...new Set(missing)].join(", ")} (run npm install)`)
    }
  }
  // The template (initdb: ~7 s of one core, the longest step of a first start) is made as soon as
  // its small maker is bundled, while esbuild bundles the runnables on the other cores.
  const template = esbuild.build({ ...common(makerExternals, quiet), entryPoints: templateMaker }).then(() => {
    checkInstalled(makerExternals)
    return pgliteTemplate({ externals: makerExternals, wait: waitForTemplate })
  })
  const [result] = await Promise.all([
    // chunks in build/ itself, beside the entry points: the banner's helpers find the root at ../
    esbuild.build({ ...common(externals, quiet), entryPoints, splitting: true, chunkNames: "chunk-[hash]" }),
    template
  ])
  checkInstalled(externals)
  // earlier builds' chunks (content-hashed names) would otherwise pile up
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => path.basename(file)))
  for (const file of fs.readdirSync(outdir)) {
    if (/^chunk-.*\.mjs(\.map)?$/.test(file) && !written.has(file)) fs.rmSync(path.join(outdir, file), { force: true })
  }
  if (!quiet) {
    const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".mjs"))
    const entries = outputs.filter(([file]) => !path.basename(file).startsWith("chunk-"))
    const chunks = outputs.filter(([file]) => path.basename(file).startsWith("chunk-"))
    const kB = (bytes) => `${(bytes / 1024).toFixed(0)} kB`
    log(
      `build: ${entries.map(([file, { bytes }]) => `${path.basename(file)} ${kB(bytes)}`).join(", ")}, ` +
        `${chunks.length} shared chunks ${kB(chunks.reduce((sum, [, { bytes }]) => sum + bytes, 0))} ` +
        `in ${(performance.now() - started).toFixed(0)} ms (${externals.size} external packages)`
    )
  }
  fs.writeFileSync(stampFile, `${new Date().toISOString()}\n`)
  return externals
}

/** vitest globalSetup (vitest.e2e.config.ts): the end-to-end tests run the build of the current sources. */
export const setup = async () => {
  await build({ log: (line) => console.error(line) })
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename) {
  await build({ quiet: process.argv.includes("--quiet") }).catch((error) => {
    // esbuild has printed its errors already
    console.error(Array.isArray(error?.errors) ? `build: failed with ${error.errors.length} error(s)` : error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
