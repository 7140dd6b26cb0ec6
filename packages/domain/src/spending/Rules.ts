/**
 * The rules of a spending and the calendar the log lives on.
 *
 * Decisions (README, "Spending log"):
 * - amountKobo: a whole number of kobo, 1 to 100,000,000,000 (₦1bn): more than anyone logs by
 *   hand, far below what int8 or a JS number could lose.
 * - category: trimmed, inner runs of spaces collapsed to one, lower-case; 1 to 40 characters.
 *   "Food", " food " and "FOOD" are one category.
 * - description: optional, trimmed, at most 280 characters; empty or spaces only is none.
 * - date: a real YYYY-MM-DD, from 1900-01-01, never after today, "today" being the calendar day in
 *   Africa/Lagos (the customers' zone; WAT, UTC+1 all year), whatever the server's zone.
 */
import { localDate } from "../plans/Schedule.js"
import { ReportDates, startOfDay } from "../transactions/Reports.js"

/** The zone of the log's calendar. */
export const SPENDING_ZONE = "Africa/Lagos"
export const MAX_AMOUNT_KOBO = 100_000_000_000n
export const CATEGORY_MAX = 40
export const DESCRIPTION_MAX = 280
export const EARLIEST_DATE = ReportDates.earliest
/** The longest report window, in days (both ends counted). */
export const MAX_REPORT_DAYS = 366

const DAY_MS = 24 * 60 * 60 * 1000

/** A real calendar date written YYYY-MM-DD (no 2024-02-30): the transaction reports' rule. */
export const isCalendarDate = (date: string): boolean => startOfDay(date) !== undefined

/** Days since 1970-01-01 of a valid YYYY-MM-DD. */
export const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS)

/** The YYYY-MM-DD of a day number. */
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days)

/** Every date from..to, both included. */
export const datesBetween = (from: string, to: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let d = dayNumber(from); d <= dayNumber(to); d++) out.push(dateOfDay(d))
  return out
}

/** The calendar day of the instant in the spending zone. */
export const todayIn = (now: Date): string => localDate(now, SPENDING_ZONE)

/** "YYYY-MM": a month between 1900-01 and 9999-12. */
export const isMonth = (month: string): boolean => /^\d{4}-(0[1-9]|1[0-2])$/.test(month) && month >= "1900-01"

export const monthOf = (date: string): string => date.slice(0, 7)

export const firstDayOf = (month: string): string => `${month}-01`

export const lastDayOf = (month: string): string => {
  const [y, m] = month.split("-").map(Number) as [number, number]
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)
}

/** The month before `month`. */
export const previousMonth = (month: string): string => monthOf(addDays(firstDayOf(month), -1))

/** Lower-case, trimmed, inner whitespace collapsed. */
export const normalizeCategory = (category: string): string => category.trim().replace(/\s+/g, " ").toLowerCase()

/** Trimmed; empty is none. */
export const normalizeDescription = (description: string | null | undefined): string | null => {
  const trimmed = description?.trim() ?? ""
  return trimmed === "" ? null : trimmed
}

type Problems = Record<string, Array<string>>

const problem = (problems: Problems, field: string, message: string) => {
  ;(problems[field] ??= []).push(message)
}

export const checkAmount = (problems: Problems, amountKobo: bigint) => {
  if (amountKobo <= 0n) problem(problems, "amountKobo", "amountKobo must be greater than 0")
  else if (amountKobo > MAX_AMOUNT_KOBO) problem(problems, "amountKobo", `amountKobo must be at most ${MAX_AMOUNT_KOBO}`)
}

/** The normalised category, or a problem. */
export const checkCategory = (problems: Problems, category: string): string => {
  const normal = normalizeCategory(category)
  if (normal.length === 0) problem(problems, "category", "category must not be empty")
  else if ([...normal].length > CATEGORY_MAX) problem(problems, "category", `category must be at most ${CATEGORY_MAX} characters`)
  return normal
}

export const checkDescription = (problems: Problems, description: string | null | undefined): string | null => {
  const normal = normalizeDescription(description)
  if (normal !== null && [...normal].length > DESCRIPTION_MAX) {
    problem(problems, "description", `description must be at most ${DESCRIPTION_MAX} characters`)
  }
  return normal
}

export const checkDate = (problems: Problems, date: string, today: string) => {
  if (!isCalendarDate(date)) problem(problems, "date", "Use a real date in the format YYYY-MM-DD")
  else if (date < EARLIEST_DATE) problem(problems, "date", `date must be ${EARLIEST_DATE} or later`)
  else if (date > today) problem(problems, "date", `date must not be in the future (today is ${today} in ${SPENDING_ZONE})`)
}

export type { Problems }
