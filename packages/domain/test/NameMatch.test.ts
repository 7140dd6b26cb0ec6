/** The BVN name rule (docs/decisions/bvn-name-match.md): what is forgiven, and what is not. */
import { describe, expect, it } from "@effect/vitest"
import { namesMatch } from "../src/banking/NameMatch.js"

const registry = { firstName: "Chidi", lastName: "Okeke" }

describe("namesMatch", () => {
  it("forgives case, spacing, diacritics, apostrophes and dots, and the order of the names", () => {
    for (const [firstName, lastName] of [
      ["Chidi", "Okeke"],
      ["CHIDI", "okeke"],
      ["  chidi ", " Okeke  "],
      ["Chídí", "Òkèké"],
      ["Okeke", "Chidi"],
      ["Chi.di", "O'keke"]
    ] as const) {
      expect(namesMatch({ firstName, lastName }, registry), `${firstName} / ${lastName}`).toBe(true)
    }
    expect(namesMatch({ firstName: "Mary Jane", lastName: "Doe" }, { firstName: "MaryJane", lastName: "Doe" })).toBe(true)
    expect(namesMatch({ firstName: "Jane", lastName: "Mary Doe" }, { firstName: "Mary Jane", lastName: "Doe" })).toBe(true)
    expect(namesMatch({ firstName: "Ngozi-Ada", lastName: "Eze" }, { firstName: "Ngozi Ada", lastName: "Eze" })).toBe(true)
  })

  it("refuses another person, one name right, an initial, a missing or an extra word", () => {
    for (const [firstName, lastName] of [
      ["Mallory", "Impostor"],
      ["Chidi", "Impostor"],
      ["Mallory", "Okeke"],
      ["C", "Okeke"],
      ["Chidi", "Okeke Jr"],
      ["Chidi", ""],
      ["Chidinma", "Okeke"],
      ["", ""]
    ] as const) {
      expect(namesMatch({ firstName, lastName }, registry), `${firstName} / ${lastName}`).toBe(false)
    }
  })
})
