/** The settings forms' conversions: exact to the kobo and the basis point, whatever the size; no float. */
import { describe, expect, it } from "vitest"
import {
  basisPointsToPercent,
  changesInWords,
  flatSettings,
  fromInput,
  koboToNaira,
  nairaToKobo,
  percentToBasisPoints,
  tierProblems,
  tiersInWords
} from "../src/settingsForm.js"

describe("naira ↔ kobo", () => {
  it("parses naira exactly, grouped or not, with the sign; refuses a third decimal or anything else", () => {
    expect(nairaToKobo("1250.5")).toBe("125050")
    expect(nairaToKobo("₦1,250.50")).toBe("125050")
    expect(nairaToKobo("0.01")).toBe("1")
    expect(nairaToKobo("0.1")).toBe("10")
    // beyond a double's exact integers: 2^53 kobo and more stay exact
    expect(nairaToKobo("90071992547409.93")).toBe("9007199254740993")
    for (const bad of ["", "1.005", "-5", "1e3", "abc", "1.2.3", "."]) expect(nairaToKobo(bad)).toBeNull()
  })

  it("shows kobo as naira for an input, and round-trips", () => {
    expect(koboToNaira("100")).toBe("1.00")
    expect(koboToNaira("5")).toBe("0.05")
    expect(koboToNaira("9007199254740993")).toBe("90071992547409.93")
    for (const k of ["0", "1", "99", "100", "123456789", "10000000000"]) expect(nairaToKobo(koboToNaira(k))).toBe(k)
  })
})

describe("percent ↔ basis points", () => {
  it("is exact to two decimals", () => {
    expect(percentToBasisPoints("4")).toBe("400")
    expect(percentToBasisPoints("7.5")).toBe("750")
    expect(percentToBasisPoints("4.25 %")).toBe("425")
    expect(percentToBasisPoints("0.01")).toBe("1")
    expect(percentToBasisPoints("4.255")).toBeNull()
    expect(percentToBasisPoints("-1")).toBeNull()
    expect(basisPointsToPercent("750")).toBe("7.5")
    expect(basisPointsToPercent("400")).toBe("4")
    expect(basisPointsToPercent("1")).toBe("0.01")
  })
})

describe("the form's checks, as the server makes them", () => {
  it("counts are whole and at least their minimum", () => {
    const [, perDay] = flatSettings["plans.extraCash"]!.fields
    const maxAttempts = flatSettings["plans.payoutRetry"]!.fields[0]!
    expect(fromInput(perDay!, "0")).toEqual({ value: 0 })
    expect(fromInput(perDay!, "1.5")).toHaveProperty("error")
    expect(fromInput(maxAttempts, "0")).toEqual({ error: "Must be at least 1" })
  })

  it("a fee schedule: ascending bounds, only the last unbounded, fees never going down", () => {
    expect(tierProblems([{ upToKobo: "500000", feeKobo: "1000" }, { upToKobo: null, feeKobo: "2500" }])).toEqual({})
    expect(tierProblems([])).toHaveProperty("tiers")
    expect(tierProblems([{ upToKobo: null, feeKobo: "1000" }, { upToKobo: null, feeKobo: "2500" }])).toHaveProperty(["tiers.0.upToKobo"])
    expect(tierProblems([{ upToKobo: "500000", feeKobo: "1000" }, { upToKobo: "500000", feeKobo: "2500" }, { upToKobo: null, feeKobo: "2500" }]))
      .toHaveProperty(["tiers.1.upToKobo"])
    expect(tierProblems([{ upToKobo: "500000", feeKobo: "1000" }, { upToKobo: null, feeKobo: "999" }])).toHaveProperty(["tiers.1.feeKobo"])
  })

  it("says a change in words, before → after", () => {
    const fields = flatSettings["plans.limits"]!.fields
    expect(changesInWords(fields, { minInstalmentKobo: "100", maxTotalKobo: "10000000000", maxDurationDays: 3650 }, {
      minInstalmentKobo: "50000",
      maxTotalKobo: "10000000000",
      maxDurationDays: 365
    })).toEqual(["Smallest instalment: ₦1.00 → ₦500.00", "Longest plan (days): 3650 → 365"])
    expect(tiersInWords([{ upToKobo: "500000", feeKobo: "1000" }, { upToKobo: null, feeKobo: "5000" }]))
      .toEqual(["up to ₦5,000.00: ₦10.00", "above ₦5,000.00: ₦50.00"])
  })
})
