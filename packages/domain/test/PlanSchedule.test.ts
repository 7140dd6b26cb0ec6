import {describe, expect, it} from "@effect/vitest"
import {DateTime, FastCheck as fc} from "effect"
import { amountOfCycle, anchorDate, cycleCount, DEFAULT_SCHEDULED_TIME, DEFAULT_TIME_ZONE, dueAt, Frequencies, type Frequency, isValidScheduledTime, isValidTimeZone, localDate, localDayBounds, regularAmount, remainingKobo, type ScheduleTerms, type WeekDay, WeekDays } from "../src/plans/Schedule.js"

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

const terms = (
  frequency: Frequency,
  timeZone: string,
  scheduledTime: string = DEFAULT_SCHEDULED_TIME,
  weekDay: WeekDay | null = null
): ScheduleTerms => ({ frequency, durationDays: 365, weekDay, scheduledTime, timeZone })

// ---------------------------------------------------------------------------------------------
// Independent oracles: calendar arithmetic through `Date.UTC`, and the zone's view of an instant
// through effect's instant → local conversion (the module under test goes the other way).
// ---------------------------------------------------------------------------------------------

const utcDate = (date: string): Date => new Date(`${date}T00:00:00.000Z`)
const isoDate = (d: Date): string => d.toISOString().slice(0, 10)
const daysBetween = (from: string, to: string): number => Math.round((utcDate(to).getTime() - utcDate(from).getTime()) / DAY)
const plusDays = (date: string, days: number): string => isoDate(new Date(utcDate(date).getTime() + days * DAY))
const weekDayOfDate = (date: string): WeekDay => WeekDays[(utcDate(date).getUTCDay() + 6) % 7]!
const lastDayOfMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** The expected local date of cycle `index`, computed with `Date.UTC`. */
const expectedDate = (frequency: Frequency, anchor: string, index: number): string => {
  switch (frequency) {
    case "daily":
      return plusDays(anchor, index)
    case "weekly":
      return plusDays(anchor, 7 * index)
    case "monthly": {
      const a = utcDate(anchor)
      const target = new Date(Date.UTC(a.getUTCFullYear(), a.getUTCMonth() + index, 1))
      const last = lastDayOfMonth(target.getUTCFullYear(), target.getUTCMonth() + 1)
      return isoDate(new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(a.getUTCDate(), last))))
    }
  }
}

const zoned = (at: Date | number, timeZone: string) =>
  DateTime.unsafeMakeZoned(at, { timeZone: DateTime.zoneUnsafeMakeNamed(timeZone) })
const wallTime = (at: Date | number, timeZone: string): string => {
  const parts = DateTime.toParts(zoned(at, timeZone))
  return `${String(parts.hours).padStart(2, "0")}:${String(parts.minutes).padStart(2, "0")}`
}
const offsetMinutes = (at: number, timeZone: string): number => DateTime.zonedOffset(zoned(at, timeZone)) / 60_000
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/**
 * Checks the first `count` cycles of a plan anchored on `anchor` against the rules: strictly
 * increasing instants, the expected local dates, the scheduled wall time (or, in a DST gap, the
 * scheduled time moved forward by exactly the gap), the earlier instant of a repeated wall time,
 * weekly on the weekday, daily one day apart, monthly on the clamped anchor day.
 */
const checkSchedule = (t: ScheduleTerms, anchor: string, count: number): { gaps: number; overlaps: number } => {
  const anchorDay = Number(anchor.slice(8, 10))
  let gaps = 0
  let overlaps = 0
  let previous: { readonly due: Date; readonly date: string } | null = null
  for (let i = 0; i < count; i++) {
    const due = dueAt(t, anchor, i)
    const date = localDate(due, t.timeZone)
    expect(date).toBe(expectedDate(t.frequency, anchor, i))
    const wall = wallTime(due, t.timeZone)
    const offsetNow = offsetMinutes(due.getTime(), t.timeZone)
    const offsetBefore = offsetMinutes(due.getTime() - 12 * HOUR, t.timeZone)
    if (wall !== t.scheduledTime) {
      // a DST gap: the clocks jumped forward over the scheduled time, which moved forward by the jump
      expect(offsetNow).toBeGreaterThan(offsetBefore)
      expect(minutesOf(wall) - minutesOf(t.scheduledTime)).toBe(offsetNow - offsetBefore)
      gaps++
    } else if (offsetBefore > offsetNow) {
      // the clocks fell back within the last 12 hours: the same wall time, one jump earlier, must
      // not be the same local moment (else that earlier instant should have been chosen)
      const earlier = due.getTime() - (offsetBefore - offsetNow) * 60_000
      expect(localDate(new Date(earlier), t.timeZone) === date && wallTime(earlier, t.timeZone) === wall).toBe(false)
    }
    const offsetAfter = offsetMinutes(due.getTime() + 12 * HOUR, t.timeZone)
    if (wall === t.scheduledTime && offsetAfter < offsetNow) {
      // the clocks fall back within the next 12 hours: count the slots whose wall time comes again
      const later = due.getTime() + (offsetNow - offsetAfter) * 60_000
      if (localDate(new Date(later), t.timeZone) === date && wallTime(later, t.timeZone) === wall) overlaps++
    }
    if (t.frequency === "weekly") expect(weekDayOfDate(date)).toBe(t.weekDay)
    if (t.frequency === "monthly") {
      const [year, month, day] = date.split("-").map(Number) as [number, number, number]
      expect(day).toBe(Math.min(anchorDay, lastDayOfMonth(year, month)))
    }
    if (previous !== null) {
      expect(due.getTime()).toBeGreaterThan(previous.due.getTime())
      if (t.frequency === "daily") expect(daysBetween(previous.date, date)).toBe(1)
      if (t.frequency === "weekly") expect(daysBetween(previous.date, date)).toBe(7)
    }
    previous = { due, date }
  }
  return { gaps, overlaps }
}

const Zones = [
  "UTC",
  "Africa/Lagos",
  "America/New_York",
  "Europe/London",
  "Australia/Lord_Howe", // 30-minute DST
  "Asia/Kolkata", // +05:30
  "Pacific/Chatham", // +12:45 / +13:45
  "America/Sao_Paulo" // DST at midnight until 2019
] as const

const zone = fc.constantFrom(...Zones)
const instant = fc.date({ min: new Date("2015-01-01T00:00:00.000Z"), max: new Date("2032-12-31T23:59:59.999Z"), noInvalidDate: true })
const anyTime = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) =>
  `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
)
/** random times, with extra weight on the hours where zones change their clocks */
const scheduledTime = fc.oneof(anyTime, fc.constantFrom("00:00", "00:30", "01:30", "02:00", "02:15", "02:30", "02:45", "03:00", "03:15", "23:30"))
const plan = fc.record({
  frequency: fc.constantFrom(...Frequencies),
  weekDay: fc.constantFrom(...WeekDays),
  scheduledTime,
  timeZone: zone,
  after: instant,
  count: fc.integer({ min: 1, max: 200 })
})
const termsOf = (p: { frequency: Frequency; weekDay: WeekDay; scheduledTime: string; timeZone: string }): ScheduleTerms =>
  terms(p.frequency, p.timeZone, p.scheduledTime, p.frequency === "weekly" ? p.weekDay : null)

describe("plan cycles and amounts", () => {
  it("cycleCount: whole days, weeks (7 days) or months (30 days) of the duration", () => {
    const table: ReadonlyArray<readonly [Frequency, number, number]> = [
      ["daily", 1, 1],
      ["daily", 365, 365],
      ["weekly", 6, 0],
      ["weekly", 7, 1],
      ["weekly", 13, 1],
      ["weekly", 14, 2],
      ["monthly", 29, 0],
      ["monthly", 30, 1],
      ["monthly", 59, 1],
      ["monthly", 365, 12],
      ["daily", 0, 0],
      ["weekly", 0, 0],
      ["daily", -1, 0],
      ["monthly", -30, 0],
      ["daily", 1.5, 0],
      ["weekly", 7.5, 0],
      ["daily", Number.NaN, 0],
      ["daily", Number.POSITIVE_INFINITY, 0]
    ]
    for (const [frequency, days, cycles] of table) expect([frequency, days, cycleCount(frequency, days)]).toEqual([frequency, days, cycles])
  })

  it("the remainder goes on the last instalment", () => {
    expect(regularAmount(1_000n, 3)).toBe(333n)
    expect([0, 1, 2].map((i) => amountOfCycle(1_000n, 3, i))).toEqual([333n, 333n, 334n])
    expect([0, 1, 2, 3, 4].map((i) => remainingKobo(1_000n, 3, i))).toEqual([1_000n, 667n, 334n, 0n, 0n])
    expect(amountOfCycle(700n, 7, 6)).toBe(100n)
    expect(amountOfCycle(5n, 1, 0)).toBe(5n)
    expect(() => regularAmount(100n, 0)).toThrow(RangeError)
    expect(() => regularAmount(-1n, 1)).toThrow(RangeError)
    expect(() => amountOfCycle(100n, 3, 3)).toThrow(RangeError)
    expect(() => amountOfCycle(100n, 3, -1)).toThrow(RangeError)
    expect(() => remainingKobo(100n, 3, -1)).toThrow(RangeError)
  })

  it.prop(
    "instalments add up to the total exactly; only the last carries the remainder",
    [fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 1, max: 400 })],
    ([total, cycles]) => {
      fc.pre(total >= BigInt(cycles))
      const regular = regularAmount(total, cycles)
      const amounts = Array.from({ length: cycles }, (_, i) => amountOfCycle(total, cycles, i))
      expect(amounts.reduce((a, b) => a + b, 0n)).toBe(total)
      expect(amounts.slice(0, -1).every((a) => a === regular)).toBe(true)
      const last = amounts[cycles - 1]!
      expect(last >= regular && last - regular < BigInt(cycles)).toBe(true)
      let suffix = 0n
      for (let i = cycles; i >= 0; i--) {
        expect(remainingKobo(total, cycles, i)).toBe(suffix)
        if (i > 0) suffix += amounts[i - 1]!
      }
      expect(remainingKobo(total, cycles, cycles + 5)).toBe(0n)
    },
    { fastCheck: { numRuns: 200 } }
  )
})

describe("validation", () => {
  it("time zones are IANA names known to the runtime", () => {
    expect(DEFAULT_TIME_ZONE).toBe("UTC")
    for (const z of [...Zones, "Etc/GMT+1", "GMT", "America/Port-au-Prince"]) expect([z, isValidTimeZone(z)]).toEqual([z, true])
    for (const z of ["Mars/Olympus", "", " UTC", "+01:00", "-05:00", "GMT+1", "Africa/Lagos/", "Local"]) {
      expect([z, isValidTimeZone(z)]).toEqual([z, false])
    }
  })

  it("scheduled times are HH:MM, 24h, two digits each", () => {
    expect(DEFAULT_SCHEDULED_TIME).toBe("09:00")
    for (const time of ["00:00", "09:00", "12:30", "19:59", "23:59"]) expect([time, isValidScheduledTime(time)]).toEqual([time, true])
    for (
      const time of ["24:00", "23:60", "9:00", "09:5", "0900", "09:00:00", " 09:00", "09:00 ", "", "ab:cd", "-1:00", "09.00", "１２:００", "09:0a"]
    ) expect([time, isValidScheduledTime(time)]).toEqual([time, false])
  })

  it("misuse is a RangeError", () => {
    const lagos = terms("daily", "Africa/Lagos")
    expect(() => dueAt({ ...lagos, timeZone: "Mars/Olympus" }, "2026-11-21", 0)).toThrow(RangeError)
    expect(() => dueAt({ ...lagos, scheduledTime: "9:00" }, "2026-11-21", 0)).toThrow(RangeError)
    expect(() => dueAt(lagos, "2026-02-29", 0)).toThrow(RangeError)
    expect(() => dueAt(lagos, "2026-11-21", -1)).toThrow(RangeError)
    expect(() => dueAt(lagos, "2026-11-21", 0.5)).toThrow(RangeError)
    expect(() => dueAt(terms("weekly", "Africa/Lagos"), "2026-11-21", 0)).toThrow(RangeError) // no weekDay
    expect(() => dueAt(terms("weekly", "Africa/Lagos", "09:00", "friday"), "2026-11-21", 0)).toThrow(RangeError) // a Saturday
    expect(() => anchorDate(terms("weekly", "Africa/Lagos"), new Date())).toThrow(RangeError)
    expect(() => localDate(new Date(Number.NaN), "UTC")).toThrow(RangeError)
  })
})

describe("local dates and days", () => {
  it("localDate is the calendar date in the zone", () => {
    const at = new Date("2026-11-21T23:30:00.000Z")
    expect(localDate(at, "UTC")).toBe("2026-11-21")
    expect(localDate(at, "Africa/Lagos")).toBe("2026-11-22")
    expect(localDate(at, "America/New_York")).toBe("2026-11-21")
    expect(localDate(new Date("2026-11-21T10:00:00.000Z"), "Pacific/Chatham")).toBe("2026-11-21") // 23:45 +13:45
    expect(localDate(new Date("2026-11-21T10:15:00.000Z"), "Pacific/Chatham")).toBe("2026-11-22")
  })

  it("localDayBounds: a 24-hour day, a 23-hour day and a 25-hour day in New York", () => {
    expect(localDayBounds(new Date("2027-01-10T12:00:00.000Z"), "America/New_York")).toEqual({
      start: new Date("2027-01-10T05:00:00.000Z"),
      end: new Date("2027-01-11T05:00:00.000Z")
    })
    // spring forward: 2027-03-14 02:00 EST → 03:00 EDT
    const spring = localDayBounds(new Date("2027-03-14T04:59:59.999Z"), "America/New_York") // 23:59:59.999 EST on the 13th
    expect(spring.end).toEqual(new Date("2027-03-14T05:00:00.000Z"))
    const short = localDayBounds(new Date("2027-03-14T05:00:00.000Z"), "America/New_York")
    expect(short).toEqual({ start: new Date("2027-03-14T05:00:00.000Z"), end: new Date("2027-03-15T04:00:00.000Z") })
    expect(short.end.getTime() - short.start.getTime()).toBe(23 * HOUR)
    // fall back: 2027-11-07 02:00 EDT → 01:00 EST
    const long = localDayBounds(new Date("2027-11-07T12:00:00.000Z"), "America/New_York")
    expect(long).toEqual({ start: new Date("2027-11-07T04:00:00.000Z"), end: new Date("2027-11-08T05:00:00.000Z") })
    expect(long.end.getTime() - long.start.getTime()).toBe(25 * HOUR)
  })

  it("localDayBounds: where the clocks jump forward at midnight, the day starts at 01:00", () => {
    // São Paulo, 2016-10-16 00:00 -03 → 01:00 -02
    expect(localDayBounds(new Date("2016-10-16T12:00:00.000Z"), "America/Sao_Paulo")).toEqual({
      start: new Date("2016-10-16T03:00:00.000Z"),
      end: new Date("2016-10-17T02:00:00.000Z")
    })
  })

  it.prop(
    "localDayBounds brackets the instant and is exactly the local day",
    [instant, zone],
    ([at, timeZone]) => {
      const date = localDate(at, timeZone)
      const { end, start } = localDayBounds(at, timeZone)
      expect(start.getTime() <= at.getTime() && at.getTime() < end.getTime()).toBe(true)
      expect(localDate(start, timeZone)).toBe(date)
      expect(localDate(new Date(start.getTime() - 1), timeZone)).toBe(plusDays(date, -1))
      expect(localDate(new Date(end.getTime() - 1), timeZone)).toBe(date)
      expect(localDate(end, timeZone)).toBe(plusDays(date, 1))
      const length = end.getTime() - start.getTime()
      expect(length >= 23 * HOUR && length <= 25 * HOUR).toBe(true)
    },
    { fastCheck: { numRuns: 200 } }
  )
})

describe("plan schedule", () => {
  it("daily in Lagos (UTC+1) at 09:00 is due at 08:00Z", () => {
    const lagos = terms("daily", "Africa/Lagos")
    expect(dueAt(lagos, "2026-11-21", 0)).toEqual(new Date("2026-11-21T08:00:00.000Z"))
    expect(dueAt(lagos, "2026-11-21", 1)).toEqual(new Date("2026-11-22T08:00:00.000Z"))
    expect(dueAt(lagos, "2026-11-21", 41)).toEqual(new Date("2027-01-01T08:00:00.000Z"))
    expect(dueAt(terms("daily", "UTC"), "2026-11-21", 0)).toEqual(new Date("2026-11-21T09:00:00.000Z"))
  })

  it("monthly clamps the anchor's day to each month, always from the anchor", () => {
    const lagos = terms("monthly", "Africa/Lagos")
    expect([0, 1, 2, 3, 4].map((i) => dueAt(lagos, "2027-01-31", i))).toEqual([
      new Date("2027-01-31T08:00:00.000Z"),
      new Date("2027-02-28T08:00:00.000Z"),
      new Date("2027-03-31T08:00:00.000Z"),
      new Date("2027-04-30T08:00:00.000Z"),
      new Date("2027-05-31T08:00:00.000Z")
    ])
    expect(dueAt(lagos, "2028-01-31", 1)).toEqual(new Date("2028-02-29T08:00:00.000Z")) // leap year
    expect(dueAt(lagos, "2027-12-15", 2)).toEqual(new Date("2028-02-15T08:00:00.000Z")) // across a year
    expect(dueAt(lagos, "2027-01-31", 13)).toEqual(new Date("2028-02-29T08:00:00.000Z"))
  })

  it("weekly falls on the weekday, seven days apart", () => {
    const friday = terms("weekly", "Africa/Lagos", "09:00", "friday")
    const saturday = new Date("2026-11-21T10:00:00.000Z") // a Saturday, 11:00 in Lagos
    expect(weekDayOfDate("2026-11-21")).toBe("saturday")
    const anchor = anchorDate(friday, saturday)
    expect(anchor).toBe("2026-11-27")
    expect(dueAt(friday, anchor, 0)).toEqual(new Date("2026-11-27T08:00:00.000Z"))
    expect(dueAt(friday, anchor, 1)).toEqual(new Date("2026-12-04T08:00:00.000Z"))
    // on the weekday itself: today if the time is still ahead, else a week later
    const saturdays = terms("weekly", "Africa/Lagos", "09:00", "saturday")
    expect(anchorDate(saturdays, new Date("2026-11-21T07:00:00.000Z"))).toBe("2026-11-21")
    expect(anchorDate(saturdays, saturday)).toBe("2026-11-28")
  })

  it("anchorDate: today when the slot is still ahead, tomorrow when it is past", () => {
    const lagos = terms("daily", "Africa/Lagos")
    expect(anchorDate(lagos, new Date("2026-11-21T07:59:59.999Z"))).toBe("2026-11-21") // 08:59:59.999 local
    expect(anchorDate(lagos, new Date("2026-11-21T08:00:00.000Z"))).toBe("2026-11-22") // exactly the slot: not after it
    expect(anchorDate(lagos, new Date("2026-11-21T12:00:00.000Z"))).toBe("2026-11-22")
    expect(anchorDate(lagos, new Date("2026-11-21T23:30:00.000Z"))).toBe("2026-11-22") // already the 22nd in Lagos
    expect(anchorDate(terms("monthly", "Africa/Lagos"), new Date("2027-01-31T07:00:00.000Z"))).toBe("2027-01-31")
    expect(anchorDate(terms("monthly", "Africa/Lagos"), new Date("2027-01-31T09:00:00.000Z"))).toBe("2027-02-01")
  })

  it("New York: a time in the spring-forward gap moves forward; a repeated time takes the earlier instant", () => {
    // 2027-03-14: 02:00 EST → 03:00 EDT, so 02:30 does not exist: 03:30 EDT = 07:30Z
    const gap = terms("daily", "America/New_York", "02:30")
    expect(dueAt(gap, "2027-03-13", 0)).toEqual(new Date("2027-03-13T07:30:00.000Z")) // 02:30 EST
    expect(dueAt(gap, "2027-03-13", 1)).toEqual(new Date("2027-03-14T07:30:00.000Z")) // 03:30 EDT
    expect(dueAt(gap, "2027-03-13", 2)).toEqual(new Date("2027-03-15T06:30:00.000Z")) // 02:30 EDT
    expect(wallTime(dueAt(gap, "2027-03-13", 1), "America/New_York")).toBe("03:30")
    // 2027-11-07: 02:00 EDT → 01:00 EST, so 01:30 happens twice: the first, 01:30 EDT = 05:30Z
    const overlap = terms("daily", "America/New_York", "01:30")
    expect(dueAt(overlap, "2027-11-06", 1)).toEqual(new Date("2027-11-07T05:30:00.000Z"))
    expect(dueAt(overlap, "2027-11-06", 2)).toEqual(new Date("2027-11-08T06:30:00.000Z")) // 01:30 EST
    // the anchor after the first 01:30 of the 7th is the 8th, not the repeated 01:30
    expect(anchorDate(overlap, new Date("2027-11-07T05:30:00.000Z"))).toBe("2027-11-08")
  })

  it("every day for two years, at times inside each zone's DST gaps and overlaps", () => {
    // [zone, a time skipped when the clocks go forward, a time repeated when they go back]
    const changes: ReadonlyArray<readonly [string, string, string]> = [
      ["America/New_York", "02:30", "01:30"], // 02:00 → 03:00, 02:00 → 01:00
      ["Europe/London", "01:30", "01:30"], // 01:00 → 02:00, 02:00 → 01:00
      ["Australia/Lord_Howe", "02:15", "01:45"], // 02:00 → 02:30, 02:00 → 01:30
      ["Pacific/Chatham", "03:00", "03:00"], // 02:45 → 03:45, 03:45 → 02:45
      ["America/Sao_Paulo", "00:30", "23:30"] // 00:00 → 01:00, 00:00 → 23:00 (until 2019)
    ]
    for (const [timeZone, skipped, repeated] of changes) {
      const gap = checkSchedule(terms("daily", timeZone, skipped), "2016-01-01", 2 * 365)
      expect([timeZone, gap.gaps]).toEqual([timeZone, 2])
      const overlap = checkSchedule(terms("daily", timeZone, repeated), "2016-01-01", 2 * 365)
      expect([timeZone, overlap.overlaps]).toEqual([timeZone, 2])
    }
    for (const timeZone of ["UTC", "Africa/Lagos", "Asia/Kolkata"]) {
      expect(checkSchedule(terms("daily", timeZone, "00:00"), "2016-01-01", 2 * 365)).toEqual({ gaps: 0, overlaps: 0 })
    }
  })

  it.prop(
    "a plan's cycles fall on the expected local dates at the scheduled time, strictly increasing",
    [plan],
    ([p]) => {
      const t = termsOf(p)
      const anchor = anchorDate(t, p.after)
      const today = localDate(p.after, p.timeZone)
      expect(anchor >= today).toBe(true)
      expect(daysBetween(today, anchor)).toBeLessThanOrEqual(t.frequency === "weekly" ? 7 : 1)
      expect(dueAt(t, anchor, 0).getTime()).toBeGreaterThan(p.after.getTime())
      // the anchor is the FIRST such date: every earlier eligible date's slot is not after `after`
      for (let date = today; date < anchor; date = plusDays(date, 1)) {
        if (t.frequency === "weekly" && weekDayOfDate(date) !== t.weekDay) continue
        expect(dueAt(t, date, 0).getTime()).toBeLessThanOrEqual(p.after.getTime())
      }
      checkSchedule(t, anchor, t.frequency === "daily" ? p.count : t.frequency === "weekly" ? Math.ceil(p.count / 3) : Math.ceil(p.count / 8))
    },
    { fastCheck: { numRuns: 200 } }
  )
})
