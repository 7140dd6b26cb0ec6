import {describe, expect, it} from "@effect/vitest"
import {FastCheck as fc} from "effect"
import { MAX_REFERENCE_LENGTH, referenceFor } from "../src/banking/CoreBanking.js"

describe("referenceFor", () => {
  it.prop("is at most 12 characters, keeps its prefix and is the same for the same id", [fc.uuid({ version: 4 })], ([id]) => {
    const ref = referenceFor("A", id)
    expect(ref.length).toBeLessThanOrEqual(MAX_REFERENCE_LENGTH)
    expect(ref).toMatch(/^A[0-9A-Z]{11}$/)
    expect(referenceFor("A", id)).toBe(ref)
    expect(referenceFor("D", id).slice(1)).toBe(ref.slice(1))
  })

  it("distinct ids give distinct references (no collisions in 20,000 random ids)", () => {
    const ids = fc.sample(fc.uuid({ version: 4 }), 20_000)
    const refs = new Set(ids.map((id) => referenceFor("T", id)))
    expect(refs.size).toBe(new Set(ids).size)
  })

  it("uses the random bits, not the fixed version and variant nibbles", () => {
    expect(referenceFor("D", "00000000-0000-4000-8000-000000000001")).toBe("D00000000001")
    expect(referenceFor("D", "00000000-0000-4000-8000-000000000002")).not.toBe(referenceFor("D", "00000000-0000-4000-8000-000000000001"))
  })
})
