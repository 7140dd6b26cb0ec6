/** POST /api/v1/auth/login: by email or phone, uniform refusals, suspension and validation. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  expectFailure,
  expectSuccess,
  expectValidation,
  login,
  me,
  register,
  suspend,
  uniqueEmail,
  uniquePhone
} from "./support/Fixtures.js"
import { TestServer } from "./support/TestServer.js"

const expectTokens = (result: any) => {
  expect(Object.keys(result).sort()).toEqual(["accessToken", "hasPin", "refreshToken"])
  expect(result.hasPin).toBe(false)
  expect(result.accessToken).toBeTypeOf("string")
  expect(result.refreshToken).toBeTypeOf("string")
  expect(result.accessToken.length).toBeGreaterThan(20)
  expect(result.refreshToken.length).toBeGreaterThan(20)
}

layer(TestServer, { excludeTestServices: true, timeout: "60 seconds" })("login", (it) => {
  describe("success", () => {
    it.effect("by email → 200 {accessToken, refreshToken}; the access token opens /customers/me", () =>
      Effect.gen(function*() {
        const account = yield* register("byemail")
        const tokens = expectSuccess(yield* login({ email: account.email, password: account.password }))
        expectTokens(tokens)
        const profile = expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" })
        expect(profile.id).toBe(account.id)
      }))

    it.effect("the email is matched case-insensitively", () =>
      Effect.gen(function*() {
        const account = yield* register("emailcase")
        expectTokens(expectSuccess(yield* login({ email: account.email.toUpperCase(), password: account.password })))
      }))

    it.effect("by phone, in the 0803… spelling and in the +234803… spelling", () =>
      Effect.gen(function*() {
        const account = yield* register("byphone", { withPhone: true })
        for (const phone of [account.phone!.national, account.phone!.e164, account.phone!.international]) {
          const tokens = expectSuccess(yield* login({ phone, password: account.password }))
          expectTokens(tokens)
          expect(expectSuccess(yield* me(tokens.accessToken), { apiObject: "Customer" }).id).toBe(account.id)
        }
      }))

    it.effect("each sign-in issues a different refresh token", () =>
      Effect.gen(function*() {
        const account = yield* register("twice")
        const first = expectSuccess(yield* login({ email: account.email, password: account.password }))
        const second = expectSuccess(yield* login({ email: account.email, password: account.password }))
        expect(second.refreshToken).not.toBe(first.refreshToken)
      }))
  })

  describe("refusals are uniform: 401 'Invalid credentials'", () => {
    it.effect("unknown email and wrong password give byte-identical bodies", () =>
      Effect.gen(function*() {
        const account = yield* register("uniform")
        const wrongPassword = yield* login({ email: account.email, password: "wrong-password" })
        const unknownEmail = yield* login({ email: uniqueEmail("ghost"), password: "wrong-password" })
        expectFailure(wrongPassword, 401, "Invalid credentials")
        expectFailure(unknownEmail, 401, "Invalid credentials")
        expect(unknownEmail.text).toBe(wrongPassword.text)
      }))

    it.effect("unknown phone and wrong password by phone give the same body", () =>
      Effect.gen(function*() {
        const account = yield* register("uniformphone", { withPhone: true })
        const wrongPassword = yield* login({ phone: account.phone!.national, password: "wrong-password" })
        const unknownPhone = yield* login({ phone: uniquePhone().national, password: "wrong-password" })
        expectFailure(wrongPassword, 401, "Invalid credentials")
        expect(unknownPhone.text).toBe(wrongPassword.text)
      }))

    it.effect("a phone login for an account registered without a phone is refused", () =>
      Effect.gen(function*() {
        const account = yield* register("nophone")
        expectFailure(yield* login({ phone: uniquePhone().e164, password: account.password }), 401, "Invalid credentials")
      }))

    it.effect("the password is case-sensitive", () =>
      Effect.gen(function*() {
        const account = yield* register("case", { password: "CaseSensitive1" })
        expectFailure(yield* login({ email: account.email, password: "casesensitive1" }), 401, "Invalid credentials")
      }))
  })

  describe("suspended customers", () => {
    it.effect("403 'Account suspended' with the right password, 401 with a wrong one", () =>
      Effect.gen(function*() {
        const account = yield* register("suspended")
        yield* suspend(account.id)
        expectFailure(yield* login({ email: account.email, password: account.password }), 403, "Account suspended")
        expectFailure(yield* login({ email: account.email, password: "not-the-password" }), 401, "Invalid credentials")
      }))
  })

  describe("validation", () => {
    it.effect("neither email nor phone → 400 with a form error", () =>
      Effect.gen(function*() {
        const error = expectValidation(yield* login({ password: "whatever1" }), { form: true })
        expect(error.fieldErrors).toEqual({})
      }))

    it.effect("missing password → fieldErrors.password", () =>
      Effect.gen(function*() {
        expectValidation(yield* login({ email: uniqueEmail("nopw") }), { fields: ["password"] })
      }))

    it.effect("empty password → fieldErrors.password", () =>
      Effect.gen(function*() {
        expectValidation(yield* login({ email: uniqueEmail("emptypw"), password: "" }), { fields: ["password"] })
      }))

    it.effect("invalid email → fieldErrors.email", () =>
      Effect.gen(function*() {
        expectValidation(yield* login({ email: "not-an-email", password: "whatever1" }), { fields: ["email"] })
      }))

    it.effect("invalid Nigerian phone → fieldErrors.phone", () =>
      Effect.gen(function*() {
        expectValidation(yield* login({ phone: "12345", password: "whatever1" }), { fields: ["phone"] })
      }))

    it.effect("password as a number → fieldErrors.password", () =>
      Effect.gen(function*() {
        expectValidation(yield* login({ email: uniqueEmail("numpw"), password: 12345678 }), { fields: ["password"] })
      }))
  })
})
