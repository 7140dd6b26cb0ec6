/**
 * One definition per failure: a class carries its status, code, message and meaning; `errors(…)`
 * makes one schema per code that encodes the envelope and decodes it back (what a client derived
 * from the Api does); and a handler cannot fail with a code its endpoint does not declare (checked
 * by `npx tsc -b`: the `@ts-expect-error` below fails the build if that ever compiles).
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { InsufficientBalance, MovementInFlight, OtpRejected, PlanNotFound, TooManyAttempts, ValidationKind } from "@app/domain"
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { mapDomainErrors } from "../src/DomainErrors.js"
import { errorCatalogue } from "../src/ErrorCatalogue.js"
import { errors, failureBody, failureSchema, HttpFailure, toHttpFailure } from "../src/shared/Envelope.js"

const TestApi = HttpApi.make("test").add(
  HttpApiGroup.make("money").add(HttpApiEndpoint.post("move", "/move").addSuccess(Schema.String).addError(errors(InsufficientBalance)))
)
const insufficient = new InsufficientBalance({ requiredKobo: 150n, availableKobo: 100n })

// a handler failing with the code its endpoint declares compiles…
export const declared = HttpApiBuilder.group(TestApi, "money", (h) => h.handle("move", () => Effect.fail(insufficient).pipe(mapDomainErrors("Transaction"))))
// …and one failing with a code it does not declare does not
// @ts-expect-error MOVEMENT_IN_FLIGHT is not among the move endpoint's errors
export const undeclared = HttpApiBuilder.group(TestApi, "money", (h) => h.handle("move", () => Effect.fail(new MovementInFlight()).pipe(mapDomainErrors("Transaction"))))

describe("a failure class", () => {
  it("answers with its status, code, message and detail", () => {
    const failure = toHttpFailure("Transaction")(insufficient)
    expect(failure).toBeInstanceOf(HttpFailure)
    expect({ ...failure }).toMatchObject({
      status: 400,
      code: "INSUFFICIENT_BALANCE",
      apiObject: "Transaction",
      detail: { requiredKobo: "150", availableKobo: "100" }
    })
    expect(failure.message).toBe("Insufficient balance")
    expect(InsufficientBalance.kinds[0]).toMatchObject({ status: 400, code: "INSUFFICIENT_BALANCE" })
  })

  it("with two codes answers the one its fields pick, at that code's status", () => {
    expect(toHttpFailure("Auth")(new OtpRejected({ reason: "incorrect" }))).toMatchObject({ code: "OTP_INCORRECT", message: "Incorrect OTP" })
    expect(toHttpFailure("Auth")(new OtpRejected({ reason: "invalid" }))).toMatchObject({ code: "OTP_EXPIRED", status: 400 })
    const lookups = new TooManyAttempts({ kind: "name_enquiry", max: 1, windowMs: 1, retryAfterSeconds: 7 })
    expect(toHttpFailure("Beneficiary")(lookups)).toMatchObject({ status: 429, code: "LOOKUP_THROTTLED", detail: { retryAfterSeconds: 7 } })
  })

  it("is in the catalogue with its status and meaning", () => {
    expect(errorCatalogue.PLAN_NOT_FOUND).toEqual({ status: 404, meaning: PlanNotFound.kinds[0].meaning })
    expect(errorCatalogue.VALIDATION_ERROR).toEqual({ status: 400, meaning: ValidationKind.meaning })
    expect(errorCatalogue.INTERNAL_ERROR?.status).toBe(500)
  })
})

describe("errors(…)", () => {
  it("makes one schema per code, the same one wherever it is declared", () => {
    expect(failureSchema(InsufficientBalance.kinds[0])).toBe(failureSchema(InsufficientBalance.kinds[0]))
    expect(errors(InsufficientBalance)).toBe(failureSchema(InsufficientBalance.kinds[0]))
  })

  it("encodes the envelope and decodes it back, choosing the schema by error.code", () => {
    const schema = errors(InsufficientBalance, MovementInFlight)
    const failure = toHttpFailure("Transaction")(insufficient)
    const wire = Schema.encodeSync(schema)(failure)
    expect(wire).toEqual(failureBody(failure))
    expect(wire).toMatchObject({ code: 400, status: "failure", error: { code: "INSUFFICIENT_BALANCE" }, data: { code: "INSUFFICIENT_BALANCE" } })
    const decoded = Schema.decodeUnknownSync(schema)(wire)
    expect({ ...decoded }).toEqual({ ...failure })
    expect(decoded.message).toBe(failure.message)
    const other = Schema.decodeUnknownSync(schema)(failureBody(toHttpFailure("Transaction")(new MovementInFlight())))
    expect(other.code).toBe("MOVEMENT_IN_FLIGHT")
    // a code the schemas do not declare is refused, as a client would refuse it
    expect(() => Schema.decodeUnknownSync(schema)(failureBody(toHttpFailure("Disbursement")(new PlanNotFound())))).toThrow()
  })
})
