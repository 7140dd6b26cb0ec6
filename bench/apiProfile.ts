/**
 * Reads a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) and lists where the time went:
 * the self time by concern (logging, tracing, metrics, Schema, Effect's runtime, HttpApi, SQL,
 * crypto, node's http, the app's code, GC: by where the code lives), by package, by source file,
 * and the functions with the most self time.
 * bench/api.ts calls it on the service's profile of `--profile`, restricted to the timed runs;
 * on its own:
 *
 *   npx tsx bench/apiProfile.ts FILE.cpuprofile [--windows FILE.windows.json] [--top 30]
 *
 * (bench/api.ts writes the timed runs' windows next to the profile, as FILE.windows.json.)
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}

interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
}

interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  /** µs, on the monotonic clock (CLOCK_MONOTONIC on Linux, as process.hrtime) */
  readonly startTime: number
  readonly endTime: number
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** µs on the monotonic clock, as `process.hrtime.bigint() / 1000n` gives in any process. */
export interface Window {
  readonly from: number
  readonly to: number
}

export interface ProfileSummary {
  /** self time in the windows (or in all the profile), ms */
  readonly totalMs: number
  readonly samples: number
  /** whether the windows matched no sample and the whole profile was used */
  readonly wholeProfile: boolean
  readonly functions: ReadonlyArray<{ readonly name: string; readonly where: string; readonly ms: number }>
  readonly packages: ReadonlyArray<{ readonly name: string; readonly ms: number }>
  readonly files: ReadonlyArray<{ readonly name: string; readonly ms: number }>
  readonly concerns: ReadonlyArray<{ readonly name: string; readonly ms: number }>
}

const ROOT = fileURLToPath(new URL("..", import.meta.url))

const shortUrl = (url: string) => {
  const file = url.startsWith("file://") ? fileURLToPath(url) : url
  const nm = file.lastIndexOf("node_modules/")
  if (nm >= 0) return file.slice(nm + "node_modules/".length)
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file
}

/**
 * What a frame is doing, by where it is (a heuristic: Effect's fiber runtime runs every
 * continuation from its own loop, so the logical caller is not on the stack; the first rule that
 * matches wins).
 */
const CONCERNS: ReadonlyArray<readonly [string, (f: CallFrame) => boolean]> = [
  // the sampler counts wall time: time the thread spends descheduled (a busy machine) lands mostly here
  ["socket writes (writev: queries to PostgreSQL, responses; plus time descheduled)", (f) =>
    f.url === "" && /^(writev|writeBuffer|writeString|writeUtf8String|writeLatin1String)$/.test(f.functionName)],
  ["logging (Effect's logger, console)", (f) =>
    (f.url === "" && f.functionName === "consoleCall") ||
    /effect\/dist\/esm\/internal\/logger|node:internal\/console|node:tty|node:internal\/fs\//.test(f.url)],
  ["tracing spans (Effect's native tracer)", (f) =>
    /effect\/dist\/esm\/(internal\/tracer|Tracer)\.js/.test(f.url) || /^(unsafeMakeSpan|addSpanStackTrace)$/.test(f.functionName)],
  ["metrics", (f) => /effect\/dist\/esm\/(internal\/metric|Metric)/.test(f.url)],
  ["Schema (decode, encode, validation)", (f) => /effect\/dist\/esm\/(ParseResult|SchemaAST|Schema)\.js/.test(f.url)],
  ["Effect runtime (fibers, context, FiberRefs, Hash/Equal, core)", (f) => /node_modules\/effect\//.test(f.url)],
  ["@effect/platform (HttpApi, router, server)", (f) => /node_modules\/(@effect\/platform|find-my-way-ts)/.test(f.url)],
  ["@effect/sql and pg", (f) => /node_modules\/(@effect\/sql|pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//.test(f.url)],
  ["jose and node:crypto", (f) => /node_modules\/jose\/|node:internal\/crypto|node:crypto/.test(f.url)],
  ["undici (bank calls)", (f) => /node_modules\/undici\//.test(f.url)],
  ["node http, net, streams, events, timers", (f) => f.url.startsWith("node:")],
  ["app code (packages/*, build/*.mjs)", (f) => /\/packages\/|\/build\/[^/]+\.mjs$/.test(f.url)],
  ["garbage collector", (f) => f.functionName === "(garbage collector)"],
  ["idle", (f) => f.functionName === "(idle)"]
]

const concernOf = (frame: CallFrame): string => CONCERNS.find(([, test]) => test(frame))?.[0] ?? "other"

/** Which package a frame belongs to. */
const packageOf = (frame: CallFrame): string => {
  const { functionName, url } = frame
  if (url === "") {
    if (functionName === "(garbage collector)") return "(garbage collector)"
    if (functionName === "(idle)") return "(idle)"
    if (functionName === "(program)") return "(program: V8/native, unattributed)"
    return `native: ${functionName || "(anonymous)"}`
  }
  if (url.startsWith("node:")) return "node internals (http, net, streams, timers…)"
  const file = shortUrl(url)
  const scoped = /^(@[^/]+\/[^/]+)\//.exec(file)
  if (scoped !== null) return scoped[1]!
  const plain = /^([^/@][^/]*)\//.exec(file)
  if (plain !== null && url.includes("node_modules/")) return plain[1]!
  const app = /^packages\/([^/]+)\//.exec(file)
  if (app !== null) return `app: packages/${app[1]}`
  return file
}

export const summarizeProfile = (
  file: string,
  windows: ReadonlyArray<Window> = [],
  top = 30
): ProfileSummary => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  // sample i lasts until sample i + 1 (as Chrome DevTools counts it)
  const at: Array<number> = []
  let t = profile.startTime
  for (const d of profile.timeDeltas) {
    t += d
    at.push(t)
  }
  const inWindows = (ts: number) => windows.some((w) => ts >= w.from && ts < w.to)
  let wholeProfile = windows.length === 0 || !at.some(inWindows)
  const take = (i: number) => wholeProfile || inWindows(at[i]!)

  const functions = new Map<string, { name: string; where: string; ms: number }>()
  const packages = new Map<string, number>()
  const files = new Map<string, number>()
  const concerns = new Map<string, number>()
  let totalMs = 0
  let samples = 0
  for (let i = 0; i < profile.samples.length; i++) {
    if (!take(i)) continue
    const node = byId.get(profile.samples[i]!)
    if (node === undefined) continue
    const next = at[i + 1]
    const ms = (next === undefined ? 0 : next - at[i]!) / 1000
    const frame = node.callFrame
    const where = frame.url === "" ? "" : `${shortUrl(frame.url)}:${frame.lineNumber + 1}`
    const name = frame.functionName === "" ? "(anonymous)" : frame.functionName
    const key = `${name}\u0000${where}`
    const entry = functions.get(key) ?? { name, where, ms: 0 }
    entry.ms += ms
    functions.set(key, entry)
    const pkg = packageOf(frame)
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms)
    const source = frame.url === "" ? name : shortUrl(frame.url)
    files.set(source, (files.get(source) ?? 0) + ms)
    const concern = concernOf(frame)
    concerns.set(concern, (concerns.get(concern) ?? 0) + ms)
    totalMs += ms
    samples++
  }
  if (samples === 0) wholeProfile = true
  return {
    totalMs,
    samples,
    wholeProfile,
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms).slice(0, top),
    packages: [...packages].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms),
    files: [...files].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms),
    concerns: [...concerns].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms)
  }
}

export const formatSummary = (s: ProfileSummary): string => {
  const pct = (ms: number) => `${(ms / Math.max(1e-9, s.totalMs) * 100).toFixed(1).padStart(5)}%`
  const lines: Array<string> = []
  lines.push(
    `${s.samples} samples, ${(s.totalMs / 1000).toFixed(2)} s${s.wholeProfile ? " (the whole profile)" : " (the timed runs only)"}`
  )
  lines.push(
    "self time by concern (by where the code is: Effect's runtime runs every continuation, so its time shows as its own; " +
      "samples are wall time, so time descheduled on a busy machine counts where the thread was, mostly in syscalls):"
  )
  for (const c of s.concerns) lines.push(`  ${pct(c.ms)} ${(c.ms).toFixed(0).padStart(7)} ms  ${c.name}`)
  lines.push("self time by package:")
  for (const p of s.packages.slice(0, 16)) lines.push(`  ${pct(p.ms)} ${(p.ms).toFixed(0).padStart(7)} ms  ${p.name}`)
  lines.push("self time by source file:")
  for (const f of s.files.slice(0, 20)) lines.push(`  ${pct(f.ms)} ${(f.ms).toFixed(0).padStart(7)} ms  ${f.name}`)
  lines.push("top functions by self time:")
  for (const f of s.functions) lines.push(`  ${pct(f.ms)} ${(f.ms).toFixed(0).padStart(7)} ms  ${f.name}  ${f.where}`)
  return lines.join("\n")
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2]
  if (file === undefined) {
    console.error("usage: tsx bench/apiProfile.ts FILE.cpuprofile [--top N]")
    process.exit(2)
  }
  const topAt = process.argv.indexOf("--top")
  const windowsAt = process.argv.indexOf("--windows")
  const windows = windowsAt > 0 ? JSON.parse(readFileSync(process.argv[windowsAt + 1]!, "utf8")) as Array<Window> : []
  console.log(formatSummary(summarizeProfile(file, windows, topAt > 0 ? Number(process.argv[topAt + 1]) : 30)))
}
