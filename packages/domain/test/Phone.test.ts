import {describe, expect, it} from "@effect/vitest"
import {Either, FastCheck as fc, Option, ParseResult, Schema} from "effect"
import { NigerianPhone, normalizeNigerianPhone, PHONE_MESSAGE } from "../src/shared/Phone.js"

const E164 = "+2348031234567"

/** Every accepted way of writing the number whose significant part is `nsn`. */
const spellings = (nsn: string) => {
  const [a, b, c] = [nsn.slice(0, 3), nsn.slice(3, 6), nsn.slice(6)]
  return [
    `0${nsn}`,
    `+234${nsn}`,
    `234${nsn}`,
    nsn,
    `0${a} ${b} ${c}`,
    `0${a}-${b}-${c}`,
    `0${a}.${b}.${c}`,
    `(0${a}) ${b}-${c}`,
    `+234 ${a} ${b} ${c}`,
    `+234-${a}-${b}-${c}`,
    `234 ${a} ${b} ${c}`,
    `${a} ${b} ${c}`,
    `  0${nsn}  `
  ]
}

/** The four digit-only spellings, with a random separator between any two characters. */
const separated = (s: string, seps: ReadonlyArray<string>) =>
  [...s].map((ch, i) => (i === 0 ? ch : seps[i % seps.length] + ch)).join("")

const digit = (from: number, to: number) => fc.integer({ min: from, max: to }).map(String)
const digits = (n: number) => fc.array(digit(0, 9), { minLength: n, maxLength: n }).map((ds) => ds.join(""))
const validNsn = fc.tuple(digit(7, 9), digit(0, 1), digits(8)).map(([a, b, rest]) => a + b + rest)

describe("normalizeNigerianPhone", () => {
  it("normalises every accepted spelling to the same +234 form", () => {
    for (const spelling of spellings("8031234567")) {
      expect(normalizeNigerianPhone(spelling), spelling).toEqual(Option.some(E164))
    }
  })

  it.each(["7012345678", "8112345678", "9012345678", "9112345678", "8091234567"])("accepts mobile range %s", (nsn) => {
    expect(normalizeNigerianPhone(`0${nsn}`)).toEqual(Option.some(`+234${nsn}`))
  })

  it.prop(
    "for every valid mobile NSN, all spellings agree on +234<nsn>",
    [validNsn, fc.array(fc.constantFrom(" ", "-", ".", ""), { minLength: 1, maxLength: 4 })],
    ([nsn, seps]) => {
      const expected = Option.some(`+234${nsn}`)
      for (const spelling of [...spellings(nsn), ...[`0${nsn}`, `234${nsn}`, nsn].map((s) => separated(s, seps))]) {
        expect(normalizeNigerianPhone(spelling), spelling).toEqual(expected)
      }
      expect(normalizeNigerianPhone(`+${separated(`234${nsn}`, seps)}`)).toEqual(expected)
    }
  )

  it.each([
    ["empty", ""],
    ["landline Lagos", "01 234 5678"],
    ["landline-like 11 digits", "01234567890"],
    ["landline-like +234", "+2341234567890"],
    ["080 followed by too few digits", "080312345"],
    ["080 followed by 7 digits", "0803123456"],
    ["too many digits", "080312345678"],
    ["+234 with 9 digits", "+234803123456"],
    ["+234 with 11 digits", "+23480312345678"],
    ["+234 then trunk 0", "+23408031234567"],
    ["letters", "0803abc4567"],
    ["all letters", "phone number"],
    ["second digit 2", "08231234567"],
    ["first digit 6", "06031234567"],
    ["foreign country code", "+4478031234567"],
    ["plus in the middle", "0803+1234567"]
  ])("rejects %s (%s)", (_, input) => {
    expect(normalizeNigerianPhone(input)).toEqual(Option.none())
  })

  const badPrefixNsn = fc.oneof(
    fc.tuple(digit(0, 6), digit(0, 9), digits(8)),
    fc.tuple(digit(7, 9), digit(2, 9), digits(8))
  ).map(([a, b, rest]) => a + b + rest)

  it.prop("a non-mobile prefix is rejected in every spelling", [badPrefixNsn], ([nsn]) => {
    for (const spelling of spellings(nsn)) expect(normalizeNigerianPhone(spelling), spelling).toEqual(Option.none())
  })

  const wrongLengthNsn = fc.oneof(
    fc.tuple(validNsn, fc.integer({ min: 1, max: 9 })).map(([nsn, cut]) => nsn.slice(0, 10 - cut)),
    fc.tuple(validNsn, digits(1)).map(([nsn, extra]) => nsn + extra),
    fc.tuple(validNsn, digits(3)).map(([nsn, extra]) => nsn + extra)
  )

  it.prop("a valid prefix with the wrong number of digits is rejected in every spelling", [wrongLengthNsn], ([nsn]) => {
    for (const spelling of [`0${nsn}`, `+234${nsn}`, `234${nsn}`, nsn]) {
      expect(normalizeNigerianPhone(spelling), spelling).toEqual(Option.none())
    }
  })
})

describe("NigerianPhone schema", () => {
  const issuesOf = (e: ParseResult.ParseError) =>
    ParseResult.ArrayFormatter.formatErrorSync(e).map(({ message, path }) => ({ message, path }))
  const decode = Schema.decodeUnknownEither(NigerianPhone)

  it("decodes to the stored form", () => {
    expect(decode("0803 123 4567")).toEqual(Either.right(E164))
  })

  it("fails with PHONE_MESSAGE", () => {
    const result = decode("0803123")
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      const issues = issuesOf(result.left)
      expect(issues).toEqual([{ path: [], message: PHONE_MESSAGE }])
    }
  })

  it("reports the message at the field path inside a struct", () => {
    const result = Schema.decodeUnknownEither(Schema.Struct({ phone: NigerianPhone }))({ phone: "01 234 5678" })
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(issuesOf(result.left)).toEqual([
        { path: ["phone"], message: PHONE_MESSAGE }
      ])
    }
  })

  it("rejects non-strings", () => {
    expect(Either.isLeft(decode(8031234567))).toBe(true)
  })
})
