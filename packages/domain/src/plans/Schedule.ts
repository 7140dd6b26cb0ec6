/**
 * The schedule of a disbursement plan, as values: a customer commits a pot (`totalKobo`) that is
 * paid back in equal instalments over `durationDays`, daily, weekly (on a chosen weekday) or
 * monthly, at a local wall-clock time `scheduledTime` ("HH:MM", 24h) in an IANA `timeZone`.
 *
 * Cycles. A plan has `cycleCount` whole cycles: one per day (daily), per 7 days (weekly) or per
 * 30 days (monthly) of the duration, rounded down. A duration shorter than one cycle gives 0
 * cycles, which the caller refuses (400).
 *
 * Money. Everything is integer kobo (`bigint`). Each cycle pays `floor(total / cycles)`; the
 * remainder (fewer than `cycles` kobo) is paid with the LAST instalment, so the instalments always
 * add up to the total exactly and no rounding ever happens.
 *
 * Dates. A plan is pinned to local calendar dates: the anchor (the local date of cycle 0, see
 * `anchorDate`) and from it, cycle `i` falls on anchor + i days (daily), + 7·i days (weekly), or
 * anchor + i months with the anchor's day of month clamped to the length of that month (monthly,
 * always from the anchor: Jan 31 → Feb 28 → Mar 31 → Apr 30). The due instant is that local date at
 * `scheduledTime` in the zone. Around daylight-saving changes:
 *   - a local time that does not exist (clocks jump forward over it) moves forward by the size of
 *     the jump (New York, 02:30 on the spring-forward day → 03:30 EDT), the "compatible" rule of
 *     Temporal and JavaScript `Date`;
 *   - a local time that happens twice (clocks fall back) is the earlier of the two (New York,
 *     01:30 on the fall-back day → 01:30 EDT).
 * Calendar dates are "YYYY-MM-DD" strings (proleptic Gregorian), and calendar arithmetic on them is
 * plain integer arithmetic on day numbers; only the conversions between local wall-clock time and
 * instants need the zone's rules, which come from effect's `DateTime`.
 *
 * Misuse (an invalid zone, time, date or index, a weekly plan without a weekday, a negative total)
 * is a programming error and throws a `RangeError`; callers validate input first with
 * `isValidTimeZone`, `isValidScheduledTime` and `cycleCount`.
 */
import { DateTime, Option } from "effect"
import type { Kobo } from "../shared/Money.js"

export type Frequency = "daily" | "weekly" | "monthly"

export const Frequencies: readonly Frequency[] = ["daily", "weekly", "monthly"]

export type WeekDay = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"

/** Monday first (ISO 8601 order). */
export const WeekDays: readonly WeekDay[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

export const DEFAULT_SCHEDULED_TIME = "09:00"

export const DEFAULT_TIME_ZONE = "UTC"

export interface ScheduleTerms {
  readonly frequency: Frequency
  readonly durationDays: number
  /** used (and required) when weekly; ignored otherwise */
  readonly weekDay: WeekDay | null
  /** local wall-clock time "HH:MM" (24h) */
  readonly scheduledTime: string
  /** IANA time zone, e.g. "Africa/Lagos" */
  readonly timeZone: string
}

/** Days per cycle of each frequency (a "month" of the duration is 30 days). */
const CYCLE_DAYS: Record<Frequency, number> = { daily: 1, weekly: 7, monthly: 30 }

/**
 * Whole cycles in the duration: daily → durationDays, weekly → floor(durationDays / 7), monthly →
 * floor(durationDays / 30). 0 means no whole cycle (the caller answers 400). Durations that are not
 * integers, or are < 1, give 0.
 */
export const cycleCount = (frequency: Frequency, durationDays: number): number =>
  Number.isSafeInteger(durationDays) && durationDays >= 1 ? Math.floor(durationDays / CYCLE_DAYS[frequency]) : 0

const requireCycles = (totalKobo: Kobo, cycles: number): void => {
  if (!Number.isSafeInteger(cycles) || cycles < 1) throw new RangeError(`cycles must be a positive integer, got ${cycles}`)
  if (totalKobo < 0n) throw new RangeError("totalKobo must be non-negative")
}

/**
 * The amount of every cycle but the last: floor(total / cycles). The remainder (< cycles kobo) is
 * added to the LAST instalment (see `amountOfCycle`). A total smaller than the number of cycles
 * gives 0 here and the whole total on the last cycle; callers are expected to refuse such plans.
 */
export const regularAmount = (totalKobo: Kobo, cycles: number): Kobo => {
  requireCycles(totalKobo, cycles)
  return totalKobo / BigInt(cycles)
}

/** The amount of cycle `index` (0-based, 0..cycles-1): `regularAmount`, plus the remainder on the last. */
export const amountOfCycle = (totalKobo: Kobo, cycles: number, index: number): Kobo => {
  requireCycles(totalKobo, cycles)
  if (!Number.isSafeInteger(index) || index < 0 || index >= cycles) {
    throw new RangeError(`cycle index must be an integer in 0..${cycles - 1}, got ${index}`)
  }
  const regular = totalKobo / BigInt(cycles)
  return index === cycles - 1 ? totalKobo - regular * BigInt(cycles - 1) : regular
}

/**
 * What is still to be paid from cycle `fromIndex` on: the sum of the amounts of cycles
 * fromIndex..cycles-1 (so `remainingKobo(total, cycles, 0) === total`), 0 when fromIndex ≥ cycles.
 */
export const remainingKobo = (totalKobo: Kobo, cycles: number, fromIndex: number): Kobo => {
  requireCycles(totalKobo, cycles)
  if (!Number.isSafeInteger(fromIndex) || fromIndex < 0) {
    throw new RangeError(`fromIndex must be a non-negative integer, got ${fromIndex}`)
  }
  if (fromIndex >= cycles) return 0n
  // every cycle before fromIndex paid the regular amount (the last one is not among them)
  return totalKobo - (totalKobo / BigInt(cycles)) * BigInt(fromIndex)
}

/** The characters of IANA zone names ("America/Port-au-Prince", "Etc/GMT+1"); no offsets like "+01:00". */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/

/** A time zone this module can use: an IANA zone name known to the runtime's time-zone data. */
export const isValidTimeZone = (zone: string): boolean =>
  ZONE_NAME.test(zone) && Option.isSome(DateTime.zoneMakeNamed(zone))

const SCHEDULED_TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/

/** "HH:MM" with 00 ≤ HH ≤ 23 and 00 ≤ MM ≤ 59, exactly two digits each. */
export const isValidScheduledTime = (time: string): boolean => SCHEDULED_TIME.test(time)

interface CivilDate {
  readonly year: number
  readonly month: number // 1..12
  readonly day: number // 1..31
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

/** The number of days of a month (1..12) of a year. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Days since 1970-01-01 of a (proleptic Gregorian) date (H. Hinnant's days_from_civil). */
const toDayNumber = ({ day, month, year }: CivilDate): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** The date of a day number (H. Hinnant's civil_from_days). */
const fromDayNumber = (dayNumber: number): CivilDate => {
  const z = dayNumber + 719468
  const era = Math.floor(z / 146097)
  const dayOfEra = z - era * 146097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

/** The weekday of a day number (1970-01-01 was a Thursday). */
const weekDayOf = (dayNumber: number): WeekDay => WeekDays[(((dayNumber + 3) % 7) + 7) % 7]!

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

const formatDate = ({ day, month, year }: CivilDate): string => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date written "YYYY-MM-DD"; a RangeError otherwise. */
const parseDate = (date: string): CivilDate => {
  const match = ISO_DATE.exec(date)
  if (match !== null) {
    const year = Number(match[1])
    const month = Number(match[2])
    const day = Number(match[3])
    if (year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) {
      return { year, month, day }
    }
  }
  throw new RangeError(`not a calendar date "YYYY-MM-DD": ${JSON.stringify(date)}`)
}

/** `date` plus `months` months, the day of month clamped to the last day of the resulting month. */
const addMonthsClamped = ({ day, month, year }: CivilDate, months: number): CivilDate => {
  const monthNumber = year * 12 + (month - 1) + months
  const y = Math.floor(monthNumber / 12)
  const m = monthNumber - y * 12 + 1
  return { year: y, month: m, day: Math.min(day, daysInMonth(y, m)) }
}

/**
 * The named zone, built directly (not from a string via `DateTime.makeZoned`, which would read
 * "GMT…" as an offset).
 */
const zoneOf = (timeZone: string): DateTime.TimeZone.Named => {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`not a valid IANA time zone: ${JSON.stringify(timeZone)}`)
  return DateTime.zoneUnsafeMakeNamed(timeZone)
}

interface WallTime {
  readonly hours: number
  readonly minutes: number
}

const parseTime = (time: string): WallTime => {
  const match = SCHEDULED_TIME.exec(time)
  if (match === null) throw new RangeError(`not a time "HH:MM": ${JSON.stringify(time)}`)
  return { hours: Number(match[1]), minutes: Number(match[2]) }
}

const requireInstant = (at: Date): void => {
  if (Number.isNaN(at.getTime())) throw new RangeError("an invalid Date")
}

/**
 * The instant (epoch millis) of a local date and wall time in the zone. A time in a DST gap moves
 * forward by the gap and a time that occurs twice takes the earlier instant: both are the
 * "compatible" disambiguation.
 */
const localToEpochMillis = (zone: DateTime.TimeZone.Named, date: CivilDate, time: WallTime): number => {
  const key = `${zone.id} ${date.year}-${date.month}-${date.day} ${time.hours}:${time.minutes}`
  const known = instants.get(key)
  if (known !== undefined) return known
  const millis = DateTime.toEpochMillis(
    DateTime.unsafeMakeZoned(
      { year: date.year, month: date.month, day: date.day, hours: time.hours, minutes: time.minutes, seconds: 0, millis: 0 },
      { timeZone: zone, adjustForTimeZone: true, disambiguation: "compatible" }
    )
  )
  if (instants.size >= MAX_INSTANTS) instants.clear()
  instants.set(key, millis)
  return millis
}

/**
 * Instants already computed by `localToEpochMillis`, by zone, local date and time. The zone's rules
 * do not change while the process runs, so an entry never goes stale; plans share a few
 * scheduled times, and each conversion asks Intl for the zone's offset (~20 µs per conversion
 * measured, ~1.3 µs once kept). Bounded: emptied when full.
 */
const instants = new Map<string, number>()
const MAX_INSTANTS = 10_000

const localCivilDate = (at: Date, zone: DateTime.TimeZone.Named): CivilDate => {
  requireInstant(at)
  const parts = DateTime.toParts(DateTime.unsafeMakeZoned(at, { timeZone: zone }))
  return { year: parts.year, month: parts.month, day: parts.day }
}

/** The local calendar date ("YYYY-MM-DD") of the instant `at` in the zone. */
export const localDate = (at: Date, timeZone: string): string => formatDate(localCivilDate(at, zoneOf(timeZone)))

const MIDNIGHT: WallTime = { hours: 0, minutes: 0 }

/**
 * Start (inclusive) and end (exclusive) instants of the local calendar day that contains `at`, in
 * the zone. A day is not always 24 hours: 23 or 25 around a DST change (23½ or 24½ on Lord Howe
 * Island), and where clocks jump forward at midnight the day starts at the end of the gap (01:00).
 */
export const localDayBounds = (at: Date, timeZone: string): { readonly start: Date; readonly end: Date } => {
  const zone = zoneOf(timeZone)
  const day = toDayNumber(localCivilDate(at, zone))
  return {
    start: new Date(localToEpochMillis(zone, fromDayNumber(day), MIDNIGHT)),
    end: new Date(localToEpochMillis(zone, fromDayNumber(day + 1), MIDNIGHT))
  }
}

const requireWeekDay = (terms: ScheduleTerms): WeekDay | null => {
  if (terms.frequency !== "weekly") return null
  if (terms.weekDay === null || !WeekDays.includes(terms.weekDay)) {
    throw new RangeError("a weekly plan needs a weekDay")
  }
  return terms.weekDay
}

/**
 * The anchor: the local date of cycle 0 for a plan that starts at `after`. It is the first local
 * date D, on or after localDate(after), whose slot (D at scheduledTime in the zone) is strictly
 * after `after`; for weekly plans D must also fall on weekDay. So daily and monthly plans start
 * today if the time is still ahead, else tomorrow; weekly plans on the next weekDay whose slot is
 * ahead (today if it is that weekday and the time is still ahead, else up to 7 days later).
 */
export const anchorDate = (terms: ScheduleTerms, after: Date): string => {
  const zone = zoneOf(terms.timeZone)
  const time = parseTime(terms.scheduledTime)
  const weekDay = requireWeekDay(terms)
  const today = toDayNumber(localCivilDate(after, zone))
  // The slot of tomorrow is always ahead (it is on a later local date), so 8 days always suffice.
  for (let day = today; day <= today + 8; day++) {
    if (weekDay !== null && weekDayOf(day) !== weekDay) continue
    if (localToEpochMillis(zone, fromDayNumber(day), time) > after.getTime()) return formatDate(fromDayNumber(day))
  }
  throw new RangeError(`no slot after ${after.toISOString()} in ${terms.timeZone}`)
}

/** The local calendar date of cycle `index` of a plan anchored on `anchor`. */
const cycleDate = (frequency: Frequency, anchor: CivilDate, index: number): CivilDate => {
  switch (frequency) {
    case "daily":
      return fromDayNumber(toDayNumber(anchor) + index)
    case "weekly":
      return fromDayNumber(toDayNumber(anchor) + 7 * index)
    case "monthly":
      return addMonthsClamped(anchor, index)
  }
}

/**
 * The instant cycle `index` (0-based) is due: local date = anchor + index days (daily),
 * + 7·index days (weekly), or anchor + index months with the anchor's day of month clamped to the
 * month's last day (31st → 30th in April, 28th/29th in February; always computed from the anchor,
 * so Jan 31 → Feb 28 → Mar 31); at scheduledTime in the zone. A local time that does not exist
 * (DST gap) resolves the "compatible" way (moved forward by the gap); an ambiguous one (DST
 * overlap) takes the earlier instant.
 *
 * The index is not bounded by the plan's cycle count (that is the caller's business), but must be a
 * non-negative integer. A weekly anchor must fall on the plan's weekDay (as `anchorDate` gives);
 * anything else is a RangeError, since it means the stored plan is inconsistent.
 */
export const dueAt = (terms: ScheduleTerms, anchor: string, index: number): Date => {
  const zone = zoneOf(terms.timeZone)
  const time = parseTime(terms.scheduledTime)
  const anchorDay = parseDate(anchor)
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`cycle index must be a non-negative integer, got ${index}`)
  const weekDay = requireWeekDay(terms)
  if (weekDay !== null && weekDayOf(toDayNumber(anchorDay)) !== weekDay) {
    throw new RangeError(`the anchor ${anchor} of a weekly plan is not a ${weekDay}`)
  }
  return new Date(localToEpochMillis(zone, cycleDate(terms.frequency, anchorDay, index), time))
}
