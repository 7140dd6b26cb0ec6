/**
 * The documentation a clone stands on: docs/errors.md is what `npm run docs:errors` writes from the
 * catalogue in code, and every relative link in README.md and docs/ points at a file that exists.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { errorCatalogueDocument } from "../src/ErrorCatalogueDoc.js"

const root = path.resolve(import.meta.dirname, "../../..")

/** README.md and every Markdown file under docs/, as paths relative to the root. */
const documents = (): Array<string> => {
  const found = ["README.md"]
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(rel)
      else if (entry.name.endsWith(".md")) found.push(rel)
    }
  }
  walk("docs")
  return found
}

/** The targets of the Markdown links and images of `text` (inline `[..](target)`), code spans and blocks left out. */
const linkTargets = (text: string): Array<string> => {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "")
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!)
}

/** A link to another site, a mail address or an anchor of the same page: not a file of ours. */
const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")

/** The relative links of `file` whose file does not exist, as "file → target". */
const brokenLinks = (file: string): Array<string> =>
  linkTargets(fs.readFileSync(path.join(root, file), "utf8"))
    .filter((target) => !external(target))
    .filter((target) => {
      const relative = decodeURIComponent(target.replace(/#.*$/, ""))
      const resolved = relative.startsWith("/") ? path.join(root, relative) : path.resolve(root, path.dirname(file), relative)
      return !fs.existsSync(resolved)
    })
    .map((target) => `${file} → ${target}`)

describe("docs/errors.md", () => {
  it("is exactly what npm run docs:errors writes (run it after changing an error code)", () => {
    const committed = fs.readFileSync(path.join(root, "docs/errors.md"), "utf8")
    expect(committed).toBe(errorCatalogueDocument)
  })
})

describe("links in README.md and docs/", () => {
  it("finds the documents and their links", () => {
    const files = documents()
    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/operations.md", "docs/decisions/README.md"]))
    expect(files.flatMap((f) => linkTargets(fs.readFileSync(path.join(root, f), "utf8"))).length).toBeGreaterThan(50)
  })

  it("every relative link points at a file that exists", () => {
    expect(documents().flatMap(brokenLinks)).toEqual([])
  })

  it("a broken link is caught, a link to another site or an anchor is not a file", () => {
    const text = "see [a](docs/nope.md), [b](https://example.com/x), [c](#top), `[d](nope.md)`, ![e](docs/console-dashboard.png)"
    expect(linkTargets(text)).toEqual(["docs/nope.md", "https://example.com/x", "#top", "docs/console-dashboard.png"])
    expect(linkTargets(text).filter((t) => !external(t))).toEqual(["docs/nope.md", "docs/console-dashboard.png"])
    expect(fs.existsSync(path.join(root, "docs/nope.md"))).toBe(false)
    expect(fs.existsSync(path.join(root, "docs/console-dashboard.png"))).toBe(true)
  })

  it("the README sends a newcomer to nothing a clone lacks (the contract is served: /docs)", () => {
    expect(fs.readFileSync(path.join(root, "README.md"), "utf8")).not.toMatch(/shared\/spec|\.\.\/shared/)
  })
})
