/** POST /api/v1/auth/register: the Account result, duplicates and input validation. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  expectFailure,
  expectSuccess,
  expectValidation,
  me,
  post,
  register,
  UUID_PATTERN,
  uniqueEmail,
  uniquePhone
} from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"

const REGISTER = "/api/v1/auth/register"

const full = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail("full"),
  password: "correct horse 1",
  firstName: "Ada",
  lastName: "Obi",
  otherNames: "Nkem",
  phone: uniquePhone().national,
  dateOfBirth: "1990-01-31",
  gender: "female",
  address: "12 Marina Road, Lagos",
  ...overrides
})

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("register", (it) => {
  describe("success", () => {
    it.effect("201 with the account: phone in +234 form, email lower-cased, unverified", () =>
      Effect.gen(function*() {
        const phone = uniquePhone()
        const email = uniqueEmail("MixedCase")
        const reply = yield* post(REGISTER, full({ email: `  ${email.toUpperCase()} `, phone: phone.national }))
        const result = expectSuccess(reply, { status: 201 })
        expect(result).toMatchObject({
          firstName: "Ada",
          lastName: "Obi",
          phone: phone.e164,
          email: email.toLowerCase(),
          emailVerified: false,
          phoneVerified: false,
          customer: { customerStatus: "unverified" }
        })
        expect(result.id).toMatch(UUID_PATTERN)
        expect(result.customer.id).toMatch(UUID_PATTERN)
        expect(result.customer.id).not.toBe(result.id)
        expect(Object.keys(result.customer).sort()).toEqual(["customerStatus", "id"])
      }))

    it.effect("never returns the password or its hash", () =>
      Effect.gen(function*() {
        const password = "Sup3r-Secret-Value"
        const reply = yield* post(REGISTER, full({ password }))
        const result = expectSuccess(reply, { status: 201 })
        expect(reply.text).not.toContain(password)
        expect(reply.text).not.toMatch(/password/i)
        expect(result).not.toHaveProperty("password")
        expect(result).not.toHaveProperty("passwordHash")
      }))

    it.effect("only email and password are required; the optional fields come back null", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("minimal")
        const result = expectSuccess(yield* post(REGISTER, { email, password: "12345678" }), { status: 201 })
        expect(result).toMatchObject({
          email,
          phone: null,
          firstName: null,
          lastName: null,
          emailVerified: false,
          phoneVerified: false,
          customer: { customerStatus: "unverified" }
        })
      }))

    it.effect("accepts each spelling of a Nigerian number and stores +234", () =>
      Effect.gen(function*() {
        for (const spelling of ["national", "e164", "international"] as const) {
          const phone = uniquePhone()
          const result = expectSuccess(
            yield* post(REGISTER, { email: uniqueEmail("spelling"), password: "12345678", phone: phone[spelling] }),
            { status: 201 }
          )
          expect(result.phone).toBe(phone.e164)
        }
      }))

    it.effect("the registered details are what the customer later sees", () =>
      Effect.gen(function*() {
        const account = yield* register("details")
        const login = expectSuccess(
          yield* post("/api/v1/auth/login", { email: account.email, password: account.password })
        )
        const profile = expectSuccess(yield* me(login.accessToken), { apiObject: "Customer" })
        expect(profile).toMatchObject({ id: account.id, customerId: account.customerId, email: account.email })
      }))
  })

  describe("duplicates", () => {
    it.effect("a taken email is 400 'Email already registered', whatever its case", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("taken")
        expectSuccess(yield* post(REGISTER, { email, password: "12345678" }), { status: 201 })
        expectFailure(yield* post(REGISTER, { email, password: "abcdefgh" }), 400, "Email already registered")
        expectFailure(
          yield* post(REGISTER, { email: email.toUpperCase(), password: "abcdefgh" }),
          400,
          "Email already registered"
        )
      }))

    it.effect("a taken phone is 400 'Phone number already registered', in either spelling", () =>
      Effect.gen(function*() {
        const phone = uniquePhone()
        expectSuccess(
          yield* post(REGISTER, { email: uniqueEmail("phone1"), password: "12345678", phone: phone.national }),
          { status: 201 }
        )
        expectFailure(
          yield* post(REGISTER, { email: uniqueEmail("phone2"), password: "12345678", phone: phone.national }),
          400,
          "Phone number already registered"
        )
        expectFailure(
          yield* post(REGISTER, { email: uniqueEmail("phone3"), password: "12345678", phone: phone.e164 }),
          400,
          "Phone number already registered"
        )
        expectFailure(
          yield* post(REGISTER, { email: uniqueEmail("phone4"), password: "12345678", phone: phone.international }),
          400,
          "Phone number already registered"
        )
      }))

    it.effect("a refused duplicate creates nothing: the email of the refused attempt stays free", () =>
      Effect.gen(function*() {
        const phone = uniquePhone()
        expectSuccess(
          yield* post(REGISTER, { email: uniqueEmail("dup-a"), password: "12345678", phone: phone.national }),
          { status: 201 }
        )
        const refusedEmail = uniqueEmail("dup-b")
        expectFailure(
          yield* post(REGISTER, { email: refusedEmail, password: "12345678", phone: phone.e164 }),
          400,
          "Phone number already registered"
        )
        expectSuccess(yield* post("/api/v1/auth/check-email", { email: refusedEmail }))
      }))
  })

  describe("validation: 400 'Validation error' naming the field", () => {
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
      ["missing email", { email: undefined }, "email"],
      ["missing password", { password: undefined }, "password"],
      ["email is a number", { email: 12345 }, "email"],
      ["invalid email", { email: "ada.example.com" }, "email"],
      ["email with a space", { email: "ada obi@example.com" }, "email"],
      ["password shorter than 8", { password: "short7!" }, "password"],
      ["password is a number", { password: 12345678 }, "password"],
      ["invalid Nigerian phone (too short)", { phone: "0803123" }, "phone"],
      ["invalid Nigerian phone (not a mobile range)", { phone: "0123 456 7890" }, "phone"],
      ["invalid Nigerian phone (foreign)", { phone: "+14155552671" }, "phone"],
      ["impossible date 2023-02-30", { dateOfBirth: "2023-02-30" }, "dateOfBirth"],
      ["date in the wrong format", { dateOfBirth: "31/01/1990" }, "dateOfBirth"],
      ["bad gender", { gender: "other" }, "gender"],
      ["address shorter than 5", { address: "Abc" }, "address"],
      ["empty first name", { firstName: "   " }, "firstName"],
      ["last name is a number", { lastName: 7 }, "lastName"]
    ]
    for (const [name, overrides, field] of cases) {
      it.effect(name, () =>
        Effect.gen(function*() {
          const body = JSON.parse(JSON.stringify(full(overrides)))
          const error = expectValidation(yield* post(REGISTER, body), { fields: [field] })
          expect(Object.keys(error.fieldErrors)).toEqual([field])
        }))
    }

    it.effect("an invalid body creates no account", () =>
      Effect.gen(function*() {
        const email = uniqueEmail("invalid")
        expectValidation(yield* post(REGISTER, full({ email, address: "x" })), { fields: ["address"] })
        expectSuccess(yield* post("/api/v1/auth/check-email", { email }))
      }))

    it.effect("every invalid field is reported at once", () =>
      Effect.gen(function*() {
        const reply = yield* post(REGISTER, full({ email: "nope", password: "short", gender: "x" }))
        expectValidation(reply, { fields: ["email", "password", "gender"] })
      }))
  })
})
