/**
 * The API reference's prose. Each feature keeps the summary and description of its operations as
 * Markdown in a `Reference.ts` beside its `Api.ts` (ApiReference.ts gathers them), so that an
 * endpoint's declaration shows its contract (method, path, payload, answers, errors) and the prose
 * reads as one document. The Api's OpenAPI transform puts each text on its operation.
 *
 * A section is `## <operationId>` (the id /docs shows: `<group>.<endpoint>`); its first line is the
 * summary, then a blank line, then the description: paragraphs only (lines of a paragraph are
 * joined with a space; paragraphs keep their blank line). What the parser would garble is refused:
 * text before the first section, a summary that runs onto a second line, and Markdown it would
 * flatten (a list, a heading, a code fence).
 */
export interface OperationText {
  readonly summary: string
  readonly description: string
}

const paragraphs = (lines: ReadonlyArray<string>): string =>
  lines.join("\n").trim().split(/\n\s*\n/).map((p) => p.split("\n").map((l) => l.trim()).join(" ")).join("\n\n")

/** The sections of one reference, by operationId; a slip in the text (see above, or a heading seen twice) throws. */
export const parseReference = (markdown: string): ReadonlyMap<string, OperationText> => {
  const texts = new Map<string, OperationText>()
  const [before, ...sections] = markdown.split(/^## /m)
  if (before!.trim() !== "") throw new Error(`the API reference has text before its first section: ${before!.trim().slice(0, 40)}`)
  for (const section of sections) {
    const [heading, summary = "", gap = "", ...rest] = section.split("\n")
    const id = heading!.trim()
    if (texts.has(id)) throw new Error(`the API reference has two sections for ${id}`)
    if (gap.trim() !== "") throw new Error(`the API reference's summary of ${id} runs onto a second line`)
    const flattened = rest.find((line) => /^\s*([-*+] |\d+\. |#|```)/.test(line))
    if (flattened !== undefined) throw new Error(`the API reference's ${id} has Markdown it would flatten: ${flattened.trim()}`)
    texts.set(id, { summary: summary.trim(), description: paragraphs(rest) })
  }
  return texts
}

/** The OpenAPI transform: every operation gets the summary and description of its section. */
export const describeOperations =
  (texts: ReadonlyMap<string, OperationText>) => (spec: Record<string, any>): Record<string, any> => {
    const paths: Record<string, any> = {}
    for (const [path, methods] of Object.entries<any>(spec.paths ?? {})) {
      paths[path] = {}
      for (const [method, operation] of Object.entries<any>(methods)) {
        const text = texts.get(operation?.operationId)
        paths[path][method] = text === undefined ? operation : { ...operation, ...text }
      }
    }
    return { ...spec, paths }
  }
