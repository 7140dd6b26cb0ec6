/**
 * The OpenAPI document says what the wire carries. HttpApi documents a schema decode failure as its
 * own `HttpApiDecodeError` body ({issues, message, _tag}), but ErrorMiddleware answers every decode
 * failure with the failure envelope (400, `error.code` VALIDATION_ERROR, fieldErrors/formErrors), so
 * the document's decode-error schema is replaced by that envelope.
 */
import { JSONSchema, Schema } from "effect"
import { Failures } from "./Envelope.js"

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"
const VALIDATION_FAILURE = "ValidationFailure"

const validationFailureSchema = () => {
  const { $defs: _defs, $schema: _schema, ...schema }: Record<string, unknown> = { ...JSONSchema.make(Schema.encodedSchema(Failures[400])) }
  return {
    ...schema,
    description: "Validation error: `error.code` VALIDATION_ERROR, `error.fieldErrors` by field, `error.formErrors` about the whole request"
  }
}

export const documentValidationFailures = (spec: Record<string, any>): Record<string, any> => {
  const rewritten = JSON.parse(JSON.stringify(spec).replaceAll(`"${DECODE_ERROR_REF}"`, `"#/components/schemas/${VALIDATION_FAILURE}"`))
  const schemas = { ...rewritten.components?.schemas }
  delete schemas.HttpApiDecodeError
  delete schemas.Issue
  delete schemas.PropertyKey
  return { ...rewritten, components: { ...rewritten.components, schemas: { ...schemas, [VALIDATION_FAILURE]: validationFailureSchema() } } }
}
