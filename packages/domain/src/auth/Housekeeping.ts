/**
 * Housekeeping of short-lived secrets: one-time codes and refresh tokens are only hashes, but
 * there is no reason to keep them once they can no longer be used. Codes are kept a day after
 * issue (support can see recent attempts), refresh tokens a week after expiry (reuse detection
 * of a just-expired family still answers the same way: an unknown token is a 401 too).
 */
import { Clock, Duration, Effect } from "effect"
import { OtpRepo, RefreshTokenRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"

export const RetentionPolicy = {
  otpRetention: Duration.days(1),
  refreshTokenRetentionAfterExpiry: Duration.days(7)
} as const

export const purgeExpiredSecrets = Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  const otps = yield* (yield* OtpRepo).purgeCreatedBefore(new Date(now - Duration.toMillis(RetentionPolicy.otpRetention)))
  const tokens = yield* (yield* RefreshTokenRepo).purgeExpiredBefore(
    new Date(now - Duration.toMillis(RetentionPolicy.refreshTokenRetentionAfterExpiry))
  )
  return { otps, refreshTokens: tokens }
}).pipe(withSpan("Housekeeping.purgeExpiredSecrets"))
