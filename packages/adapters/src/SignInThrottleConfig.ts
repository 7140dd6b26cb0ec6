/**
 * The customer sign-in throttle's settings (read with the rest in AppConfig.ts, validated at
 * start-up): SIGN_IN_MAX_FAILURES_PER_ACCOUNT (default 5), SIGN_IN_MAX_FAILURES_PER_CLIENT (default
 * 50: many customers share a mobile carrier's address) and SIGN_IN_THROTTLE_WINDOW_MINUTES (15).
 */
import { Config } from "effect"

export interface SignInThrottleConfig {
  readonly maxFailuresPerAccount: number
  readonly maxFailuresPerClient: number
  readonly windowMinutes: number
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleConfig = { maxFailuresPerAccount: 5, maxFailuresPerClient: 50, windowMinutes: 15 }

const bounded = (name: string, fallback: number, min: number, max: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name}: must be a whole number between ${min} and ${max}`, validation: (n) => n >= min && n <= max })
  )

export const signInThrottleConfig: Config.Config<SignInThrottleConfig> = Config.all({
  maxFailuresPerAccount: bounded("SIGN_IN_MAX_FAILURES_PER_ACCOUNT", DEFAULT_SIGN_IN_THROTTLE.maxFailuresPerAccount, 1, 100),
  maxFailuresPerClient: bounded("SIGN_IN_MAX_FAILURES_PER_CLIENT", DEFAULT_SIGN_IN_THROTTLE.maxFailuresPerClient, 1, 100_000),
  windowMinutes: bounded("SIGN_IN_THROTTLE_WINDOW_MINUTES", DEFAULT_SIGN_IN_THROTTLE.windowMinutes, 1, 1440)
}).pipe(
  Config.validate({
    message: "SIGN_IN_MAX_FAILURES_PER_CLIENT: must be at least SIGN_IN_MAX_FAILURES_PER_ACCOUNT (one address serves many customers)",
    validation: (c) => c.maxFailuresPerClient >= c.maxFailuresPerAccount
  })
)
