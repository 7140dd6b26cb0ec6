import {describe, expect, it} from "@effect/vitest"
import {Either, FastCheck as fc, ParseResult, Schema} from "effect"
import { EMAIL_MESSAGE, EmailAddress, isEmail, maskContact, normalizeEmail } from "../src/shared/Email.js"

const issuesOf = (e: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(e).map(({ message, path }) => ({ message, path }))

const decode = Schema.decodeUnknownEither(EmailAddress)

describe("normalizeEmail / isEmail", () => {
  it("trims and lower-cases", () => {
    expect(normalizeEmail("  Ada.Obi@Example.COM \t")).toBe("ada.obi@example.com")
  })

  it.each(["ada@example.com", "a@b.co", "ada+bank@mail.example.com.ng", "first.last@sub-domain.example.org"])(
    "accepts %s",
    (email) => {
      expect(isEmail(email)).toBe(true)
    }
  )

  it.each([
    ["empty", ""],
    ["no at", "ada.example.com"],
    ["no domain", "ada@"],
    ["no local part", "@example.com"],
    ["no TLD", "ada@example"],
    ["two ats", "ada@@example.com"],
    ["at inside domain", "ada@exa@mple.com"],
    ["space inside", "ada obi@example.com"],
    ["empty label", "ada@example..com"],
    ["leading dot in domain", "ada@.example.com"],
    ["trailing dot", "ada@example.com."],
    ["too long", `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`]
  ])("rejects %s", (_, email) => {
    expect(isEmail(email)).toBe(false)
  })

  it("accepts exactly 254 characters and rejects 255", () => {
    const at254 = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`
    expect(at254.length).toBe(254)
    expect(isEmail(at254)).toBe(true)
    expect(isEmail(`a${at254}`)).toBe(false)
  })

  it.prop("every generated RFC address of at most 254 characters is accepted", [fc.emailAddress()], ([email]) => {
    fc.pre(email.length <= 254)
    expect(isEmail(normalizeEmail(email))).toBe(true)
  })

  it.prop(
    "normalisation is idempotent and case/whitespace-insensitive",
    [fc.emailAddress(), fc.constantFrom("", " ", "  ", "\t"), fc.constantFrom("", " ", "\n")],
    ([email, before, after]) => {
      const once = normalizeEmail(email)
      expect(normalizeEmail(once)).toBe(once)
      expect(normalizeEmail(`${before}${email.toUpperCase()}${after}`)).toBe(email.toLowerCase())
    }
  )
})

describe("EmailAddress schema", () => {
  it("decodes to the normalised form", () => {
    expect(decode(" Ada@Example.com ")).toEqual(Either.right("ada@example.com"))
  })

  it("fails with EMAIL_MESSAGE", () => {
    const result = decode("not-an-email")
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(issuesOf(result.left)).toEqual([
        { path: [], message: EMAIL_MESSAGE }
      ])
    }
  })

  it.prop("two spellings differing in case and whitespace decode to one account key", [fc.emailAddress()], ([email]) => {
    fc.pre(email.length <= 254)
    expect(decode(`  ${email.toUpperCase()}`)).toEqual(decode(email))
    expect(decode(email)).toEqual(Either.right(email.toLowerCase()))
  })
})

describe("maskContact", () => {
  it("keeps an email's first letter and domain, and a phone's last 3 digits", () => {
    expect(maskContact("ada@example.com")).toBe("a***@example.com")
    expect(maskContact("+2348031234567")).toBe("***********567")
  })
})
