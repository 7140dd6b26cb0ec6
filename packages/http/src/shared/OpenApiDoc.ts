/**
 * The OpenAPI document says what the wire carries, and which codes each operation can answer.
 * - HttpApi documents a schema decode failure as its own `HttpApiDecodeError` body ({issues,
 *   message, _tag}), but ErrorMiddleware answers every decode failure with the failure envelope
 *   (400 VALIDATION_ERROR, fieldErrors/formErrors), which the API declares for every operation:
 *   the decode-error schema is replaced by that one.
 * - Each failure response's description lists its codes with their meaning (one schema per code,
 *   named by the code, see shared/Envelope.ts `errors`).
 * - The whole catalogue closes the document, as its last tag ("Error codes"), after the endpoints.
 */
import { errorCatalogueMarkdown } from "../ErrorCatalogue.js"

const SCHEMAS = "#/components/schemas/"
const DECODE_ERROR_REF = `${SCHEMAS}HttpApiDecodeError`
const VALIDATION_REF = `${SCHEMAS}VALIDATION_ERROR`

export const ERROR_CODES_TAG = "Error codes"

const errorCodesDescription = "Every failure envelope carries `error`, an object with a stable machine-readable `code` (branch " +
  "on it, never on the message) and any detail, and `data`, which repeats the `code`. Each operation lists the codes it " +
  "can answer under its responses; this is every code.\n\n" + errorCatalogueMarkdown

/** The codes of a failure response's schema: the names of the per-code schemas it refers to. */
const codesOf = (schema: any): Array<string> =>
  (schema?.anyOf ?? schema?.oneOf ?? [schema]).flatMap((s: any) =>
    typeof s?.$ref === "string" && s.$ref.startsWith(SCHEMAS) ? [s.$ref.slice(SCHEMAS.length)] : s?.anyOf ? codesOf(s) : []
  )

const withoutDuplicates = (schema: any): any => {
  if (!Array.isArray(schema?.anyOf)) return schema
  const seen = new Set<string>()
  const anyOf = schema.anyOf.filter((s: any) => {
    const key = JSON.stringify(s)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return anyOf.length === 1 ? anyOf[0] : { ...schema, anyOf }
}

export const documentFailures = (spec: Record<string, any>): Record<string, any> => {
  const rewritten = JSON.parse(JSON.stringify(spec).replaceAll(`"${DECODE_ERROR_REF}"`, `"${VALIDATION_REF}"`))
  const schemas = { ...rewritten.components?.schemas }
  delete schemas.HttpApiDecodeError
  delete schemas.Issue
  delete schemas.PropertyKey
  for (const methods of Object.values<any>(rewritten.paths ?? {})) {
    for (const operation of Object.values<any>(methods)) {
      for (const [status, response] of Object.entries<any>(operation?.responses ?? {})) {
        const content = response.content?.["application/json"]
        if (Number(status) < 400 || content === undefined) continue
        content.schema = withoutDuplicates(content.schema)
        const codes = codesOf(content.schema).filter((code) => schemas[code]?.description !== undefined)
        if (codes.length > 0) {
          response.description = codes.map((code) => `- \`${code}\`: ${schemas[code].description}`).join("\n")
        }
      }
    }
  }
  return {
    ...rewritten,
    tags: [...(rewritten.tags ?? []), { name: ERROR_CODES_TAG, description: errorCodesDescription }],
    components: { ...rewritten.components, schemas }
  }
}
