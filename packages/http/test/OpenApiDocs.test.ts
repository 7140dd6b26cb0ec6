/**
 * The docs page (/docs renders /api/v1/openapi.json): every operation has a summary and a
 * description, and every example in the document is one its schema accepts. The document is the
 * one the server serves (OpenApi.fromApi of the Api, with its transform); the examples are read
 * from the schemas' `examples` annotations, which hold decoded values that the document shows
 * encoded.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { Either, Option, Schema, SchemaAST as AST } from "effect"
import { describe, expect, it } from "vitest"
import { Api } from "../src/Api.js"
import { apiReference } from "../src/ApiReference.js"
import { parseReference } from "../src/shared/Reference.js"
import { ERROR_CODES_TAG } from "../src/shared/OpenApiDoc.js"

const doc: any = OpenApi.fromApi(Api)

const operations = (): Array<{ where: string; operation: any }> =>
  Object.entries<any>(doc.paths).flatMap(([path, methods]) =>
    Object.entries<any>(methods).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation }))
  )

type Endpoint = { readonly where: string; readonly payload: Option.Option<AST.AST>; readonly others: ReadonlyArray<AST.AST> }

/** Each endpoint's request body schema, and its other schemas: path, query, headers, successes. */
const endpoints = (): Array<Endpoint> => {
  const found: Array<Endpoint> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, successes }) => {
      const schemas = [endpoint.pathSchema, endpoint.urlParamsSchema, endpoint.headersSchema].flatMap((s) =>
        Option.isSome(s) ? [s.value.ast] : []
      )
      for (const { ast } of successes.values()) if (Option.isSome(ast)) schemas.push(ast.value)
      found.push({
        where: `${group.identifier}.${endpoint.name}`,
        payload: Option.map(endpoint.payloadSchema, (s) => s.ast),
        others: schemas
      })
    }
  })
  return found
}

/** Every node of `ast` (each once) with the examples it is annotated with. */
const annotatedNodes = (ast: AST.AST, seen = new Set<AST.AST>()): Array<{ node: AST.AST; examples: ReadonlyArray<unknown> }> => {
  if (seen.has(ast)) return []
  seen.add(ast)
  const children: Array<AST.AST> = (() => {
    switch (ast._tag) {
      case "TypeLiteral":
        return [...ast.propertySignatures.map((p) => p.type), ...ast.indexSignatures.map((i) => i.type)]
      case "Union":
        return [...ast.types]
      case "TupleType":
        return [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)]
      case "Refinement":
        return [ast.from]
      case "Transformation":
        return [ast.from, ast.to]
      case "Suspend":
        return [ast.f()]
      case "Declaration":
        return [...ast.typeParameters]
      default:
        return []
    }
  })()
  const own = AST.getExamplesAnnotation(ast)
  return [
    ...(Option.isSome(own) ? [{ node: ast, examples: own.value }] : []),
    ...children.flatMap((child) => annotatedNodes(child, seen))
  ]
}

/** The examples on the request body itself (through `NullOr` and whole-body filters), not on its fields. */
const bodyExamples = (ast: AST.AST): ReadonlyArray<unknown> => {
  const own = AST.getExamplesAnnotation(ast)
  if (Option.isSome(own)) return own.value
  if (AST.isRefinement(ast)) return bodyExamples(ast.from)
  if (AST.isUnion(ast)) return ast.types.flatMap(bodyExamples)
  return []
}

/** What is wrong with the example of `schema`, or undefined: it must encode, and the encoded value decode back. */
const problemOf = (schema: Schema.Schema<any, any, never>, example: unknown): string | undefined => {
  const encoded = Schema.encodeEither(schema)(example)
  if (Either.isLeft(encoded)) return `does not encode: ${encoded.left.message}`
  const decoded = Schema.decodeUnknownEither(schema)(encoded.right)
  return Either.isLeft(decoded) ? `${JSON.stringify(encoded.right)} does not decode: ${decoded.left.message}` : undefined
}

/** The schema a JSON body or parameter refers to, and the members of a union. */
const resolved = (schema: any): Array<any> => {
  if (schema?.$ref !== undefined) return resolved(doc.components.schemas[schema.$ref.split("/").pop()])
  if (schema?.examples !== undefined) return [schema]
  if (Array.isArray(schema?.anyOf)) return schema.anyOf.flatMap(resolved)
  return [schema]
}

describe("the docs page", () => {
  it("gives every operation a summary and a description", () => {
    const all = operations()
    expect(all.length).toBeGreaterThan(100)
    const lacking = all.filter(({ operation }) =>
      typeof operation.summary !== "string" || operation.summary.trim() === "" ||
      typeof operation.description !== "string" || operation.description.trim() === ""
    ).map(({ where }) => where)
    expect(lacking).toEqual([])
    // a summary is a short line, not the description again
    const long = all.filter(({ operation }) => operation.summary.length > 80 || operation.summary === operation.description)
    expect(long.map(({ where }) => where)).toEqual([])
  })

  it("has one section of the API reference for each operation, and none for an operation that does not exist", () => {
    const ids = operations().map(({ operation }) => operation.operationId).sort()
    expect([...apiReference.keys()].sort()).toEqual(ids)
    // and each operation carries its own section's text
    const misplaced = operations().filter(({ operation }) => {
      const text = apiReference.get(operation.operationId)
      return operation.summary !== text?.summary || operation.description !== text?.description
    })
    expect(misplaced.map(({ where }) => where)).toEqual([])
  })

  it("reads a reference section: the heading names the operation, the first line is the summary, paragraphs are kept", () => {
    const texts = parseReference(`
## plans.create
Create a disbursement plan

Customer (bearer). One plan
at a time.

409 PLAN_EXISTS.
`)
    expect([...texts]).toEqual([["plans.create", {
      summary: "Create a disbursement plan",
      description: "Customer (bearer). One plan at a time.\n\n409 PLAN_EXISTS."
    }]])
    expect(() => parseReference("## a.b\nOne\n\n## a.b\nTwo\n")).toThrow(/two sections for a.b/)
    // what it would garble is refused, not lost
    expect(() => parseReference("Intro\n## a.b\nOne\n")).toThrow(/text before its first section/)
    expect(() => parseReference("## a.b\nSend money to a\nbank account\n\nText.\n")).toThrow(/runs onto a second line/)
    expect(() => parseReference("## a.b\nOne\n\nAnswers:\n- 400 X\n- 404 Y\n")).toThrow(/flatten: - 400 X/)
    expect(() => parseReference("## a.b\nOne\n\n### More\n")).toThrow(/flatten: ### More/)
  })

  it("keeps the error catalogue as the last section", () => {
    expect(doc.tags[doc.tags.length - 1].name).toBe(ERROR_CODES_TAG)
  })

  it("every example of a request or response schema decodes against that schema", () => {
    const problems: Array<string> = []
    let checked = 0
    for (const { where, payload, others } of endpoints()) {
      for (const ast of [...Option.toArray(payload), ...others]) {
        for (const { node, examples } of annotatedNodes(ast)) {
          for (const example of examples) {
            checked++
            const problem = problemOf(Schema.make(node), example)
            if (problem !== undefined) problems.push(`${where}: ${String(node)} ${problem}`)
          }
        }
      }
    }
    expect(problems).toEqual([])
    expect(checked).toBeGreaterThan(100)
  })

  it("every request body example decodes with the whole request body schema (its filters included)", () => {
    const problems: Array<string> = []
    let checked = 0
    for (const { where, payload } of endpoints()) {
      if (Option.isNone(payload)) continue
      const schema = Schema.make(payload.value)
      for (const example of bodyExamples(payload.value)) {
        checked++
        const problem = problemOf(schema, example)
        if (problem !== undefined) problems.push(`${where}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
    expect(checked).toBeGreaterThan(40)
  })

  it("shows an example of every JSON request body, encoded as the wire carries it", () => {
    const without: Array<string> = []
    for (const { where, operation } of operations()) {
      const schema = operation.requestBody?.content?.["application/json"]?.schema
      // a body of any shape (the provider's webhook) has no example of ours
      if (schema === undefined || Object.keys(schema).length === 0 || schema.$id === "/schemas/unknown") continue
      if (!resolved(schema).some((s) => Array.isArray(s?.examples) && s.examples.length > 0)) without.push(where)
    }
    expect(without).toEqual([])
    const register = resolved(doc.paths["/api/v1/auth/register"].post.requestBody.content["application/json"].schema)[0]
    expect(register.examples[0]).toMatchObject({ phone: "08031234567", password: expect.any(String), dateOfBirth: expect.any(String) })
    const transfer = resolved(doc.paths["/api/v1/transactions/transfer"].post.requestBody.content["application/json"].schema)[0]
    // kobo in a request body is a JSON integer; in an answer, a decimal string
    expect(transfer.examples[0]).toMatchObject({ amountKobo: expect.any(Number), destinationAccountNumber: expect.stringMatching(/^\d{10}$/) })
  })

  it("shows an example of every success answer with a JSON body, and of every parameter", () => {
    const hasExamples = (schema: any) => resolved(schema).some((s) => Array.isArray(s?.examples) && s.examples.length > 0)
    const without: Array<string> = []
    let answers = 0
    for (const { where, operation } of operations()) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        const schema = response.content?.["application/json"]?.schema
        if (!status.startsWith("2") || schema === undefined) continue
        answers++
        const result = resolved(schema)[0].properties.result
        // Exception: a success that carries no data (NoData, `result: {}`: OTP sent, signed out, alert
        // acknowledged, the webhook's receipt…); the envelope's message is the whole answer.
        const named = result.$ref === undefined ? result : doc.components.schemas[result.$ref.split("/").pop()]
        if (named?.$id === "/schemas/%7B%7D") continue
        // a bare list shows its item's example (a page has one of its own, see shared/Paging.ts)
        const shown = hasExamples(result) || resolved(result).some((r) => r?.type === "array" && hasExamples(r.items)) ||
          resolved(result).some((r) => r?.properties?.items?.type === "array" && hasExamples(r.properties.items.items))
        if (!shown) without.push(`${where} ${status}`)
      }
      for (const parameter of operation.parameters ?? []) {
        if (!hasExamples(parameter.schema)) without.push(`${where} ${parameter.in} ${parameter.name}`)
      }
    }
    expect(without).toEqual([])
    expect(answers).toBeGreaterThan(100)
    // a page's example is a first page of its item's
    const page = resolved(resolved(doc.paths["/api/v1/admin/audit"].get.responses["200"].content["application/json"].schema)[0].properties.result)[0]
    expect(page.examples[0]).toMatchObject({ items: [expect.objectContaining({ action: "customer.freeze" })], page: 1, totalPages: 1 })
  })

  it("shows answers as the wire carries them: kobo as decimal strings, the profile's balance as a number", () => {
    const resultOf = (path: string, method: string, status = "200") =>
      resolved(resolved(doc.paths[path][method].responses[status].content["application/json"].schema)[0].properties.result)[0]
    const profile = resultOf("/api/v1/customers/me", "get").examples[0]
    expect(profile).toMatchObject({ balanceKobo: expect.any(Number), phone: expect.stringMatching(/^\+234\d{10}$/) })
    expect(profile.disbursementPlan).toMatchObject({ amount: expect.stringMatching(/^\d+$/), totalAmountKobo: expect.stringMatching(/^\d+$/) })
    expect(resultOf("/api/v1/transactions/transfer", "post").examples[0]).toMatchObject({
      amountKobo: expect.stringMatching(/^\d+$/),
      feeKobo: expect.stringMatching(/^\d+$/)
    })
    // every instant of an example is an ISO string of 2026, its days too
    const instants = JSON.stringify(doc).match(/"(createdAt|updatedAt|postedAt|nextDueAt|date)":"[^"]*"/g) ?? []
    expect(instants.length).toBeGreaterThan(10)
    for (const instant of instants) expect(instant).toMatch(/"20\d\d-\d\d-\d\d(T\d\d:\d\d:\d\d\.\d{3}Z)?"$/)
    expect(instants.every((i) => i.includes("\"2026-"))).toBe(true)
  })
})
