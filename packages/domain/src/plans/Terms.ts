/**
 * A plan's terms: the input, its validation against the limits, and its schedule terms.
 */
import { Effect } from "effect"
import * as Settings from "../settings/Settings.js"
import { formatNaira, type Kobo } from "../shared/Money.js"
import { InvalidPlanTerms } from "./Errors.js"
import { Plan } from "./Model.js"
import * as Schedule from "./Schedule.js"

export interface PlanInput {
  readonly totalAmountKobo: Kobo
  readonly durationDays: number
  readonly frequency: Schedule.Frequency
  readonly weekDay?: Schedule.WeekDay | undefined
  readonly withdrawalAccountNumber: string
  readonly withdrawalBankCode: string
  readonly withdrawalAccountName?: string | undefined
  readonly scheduledTime?: string | undefined
  readonly scheduledTimezone?: string | undefined
}

export const termsOf = (plan: Plan): Schedule.ScheduleTerms => ({
  frequency: plan.frequency,
  durationDays: plan.durationDays,
  weekDay: plan.weekDay,
  scheduledTime: plan.scheduledTime,
  timeZone: plan.timeZone
})

const unitOf = { daily: "day", weekly: "week", monthly: "month (30 days)" } as const

/**
 * The cross-field rules of plan terms (types and enums are the HTTP schema's): a week day for weekly
 * plans, a real time and zone, at least one whole cycle, and the limits of `plans.limits`. All
 * problems at once, by field.
 */
export const validateTerms = (input: PlanInput, limits: Settings.PlanLimits) => {
  const errors: Record<string, Array<string>> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const terms: Schedule.ScheduleTerms = {
    frequency: input.frequency,
    durationDays: input.durationDays,
    weekDay: input.frequency === "weekly" ? input.weekDay ?? null : null,
    scheduledTime: input.scheduledTime ?? Schedule.DEFAULT_SCHEDULED_TIME,
    timeZone: input.scheduledTimezone ?? Schedule.DEFAULT_TIME_ZONE
  }
  if (input.frequency === "weekly" && input.weekDay === undefined) add("weekDay", "weekDay is required for a weekly plan")
  if (!Schedule.isValidScheduledTime(terms.scheduledTime)) add("scheduledTime", "Use HH:MM on a 24-hour clock")
  if (!Schedule.isValidTimeZone(terms.timeZone)) add("scheduledTimezone", "Unknown time zone; use an IANA name such as Africa/Lagos")
  const cycles = Schedule.cycleCount(input.frequency, input.durationDays)
  if (!Number.isInteger(input.durationDays) || input.durationDays < 1) add("durationDays", "Must be a whole number of days, at least 1")
  else if (input.durationDays > limits.maxDurationDays) add("durationDays", `At most ${limits.maxDurationDays} days`)
  else if (cycles === 0) add("durationDays", `${input.durationDays} days hold no whole ${unitOf[input.frequency]} cycle`)
  if (input.totalAmountKobo > limits.maxTotalKobo) add("totalAmountKobo", `At most ${formatNaira(limits.maxTotalKobo)}`)
  else if (cycles > 0 && Schedule.regularAmount(input.totalAmountKobo, cycles) < limits.minInstalmentKobo) {
    add("totalAmountKobo", `Each instalment must be at least ${formatNaira(limits.minInstalmentKobo)}`)
  }
  return Object.keys(errors).length > 0
    ? Effect.fail(new InvalidPlanTerms({ fieldErrors: errors }))
    : Effect.succeed({ terms, cycles })
}
