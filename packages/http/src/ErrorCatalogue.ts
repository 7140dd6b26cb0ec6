/**
 * The catalogue of every failure code the API answers, generated from the failure classes
 * themselves (the domain's, and the handler-only ones of http): published in docs/errors.md
 * (`npm run docs:errors`) and on /docs (the OpenAPI document's last tag).
 */
import * as Domain from "@app/domain"
import type { FailureClass } from "@app/domain"
import * as Banking from "./banking/Errors.js"
import * as Edge from "./edge/Errors.js"
import * as Lifecycle from "./lifecycle/Errors.js"
import * as Ops from "./ops/Errors.js"
import * as Profile from "./profile/Errors.js"
import * as ApiErrors from "./shared/ApiErrors.js"

export interface CodeInfo {
  readonly status: number
  /** what happened and what the client can do */
  readonly meaning: string
}

const isFailureClass = (u: unknown): u is FailureClass =>
  typeof u === "function" && Array.isArray((u as Partial<FailureClass>).kinds)

const isModule = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && Object.prototype.toString.call(u) === "[object Module]"

/** The failure classes exported by these modules and the modules they re-export as namespaces. */
const failureClasses = (modules: ReadonlyArray<unknown>): ReadonlyArray<FailureClass> => {
  const found = new Set<FailureClass>()
  const seen = new Set<unknown>()
  const walk = (module: Record<string, unknown>) => {
    if (seen.has(module)) return
    seen.add(module)
    for (const value of Object.values(module)) {
      if (isFailureClass(value)) found.add(value)
      else if (isModule(value)) walk(value)
    }
  }
  modules.filter(isModule).forEach(walk)
  return [...found]
}

/** One entry per code; two classes that share a code share its kind, or this throws. */
const catalogueOf = (classes: ReadonlyArray<FailureClass>): Readonly<Record<string, CodeInfo>> => {
  const catalogue: Record<string, CodeInfo> = {}
  for (const { code, meaning, status } of classes.flatMap((c) => c.kinds)) {
    const known = catalogue[code]
    if (known !== undefined && (known.status !== status || known.meaning !== meaning)) {
      throw new Error(`failure code ${code} is defined twice, differently`)
    }
    catalogue[code] = { status, meaning }
  }
  return catalogue
}

/** Every failure code the API answers, with its status and meaning. */
export const errorCatalogue = catalogueOf(failureClasses([Domain, ApiErrors, Edge, Banking, Lifecycle, Ops, Profile]))

/** The catalogue as a Markdown table (code, status, meaning), sorted by status then code. */
export const errorCatalogueMarkdown = [
  "| code | status | meaning |",
  "|---|---|---|",
  ...Object.entries(errorCatalogue)
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([code, { meaning, status }]) => `| \`${code}\` | ${status} | ${meaning} |`)
].join("\n")
