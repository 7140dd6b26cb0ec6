/**
 * Sign-in and sessions: access tokens, refresh token rotation with reuse detection.
 */
import { Context, Duration, Effect, Option, Redacted } from "effect"
import { AccountSuspended } from "../account/Errors.js"
import type { AccountWithCustomer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { ensureUsable } from "../account/Accounts.js"
import { Ids, PasswordHasher, SecretHasher, SecureRandom } from "../shared/Ports.js"
import { now } from "../shared/UseCase.js"
import { InvalidCredentials, InvalidRefreshToken, SignInThrottled, Unauthenticated } from "./Errors.js"
import { raiseAlert } from "../admin/Alerts.js"
import { countTrip, guarded } from "./Throttle.js"
import { secondsUntil, type ThrottleKey } from "../shared/Throttle.js"
import { RefreshToken, type TokenPair } from "./Model.js"
import { AccessTokens, RefreshTokenRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"
import { AccountId } from "../shared/Ids.js"

export const TokenPolicy = {
  accessTokenTtl: Duration.minutes(15),
  refreshTokenTtl: Duration.days(30),
  refreshTokenBytes: 32
} as const

/** Refuses tokens to accounts that may not sign in (a deleted one as wrong credentials). */
export const ensureMaySignIn = (found: AccountWithCustomer): Effect.Effect<void, AccountSuspended | InvalidCredentials> =>
  ensureUsable(found, () => new InvalidCredentials())

/**
 * Issues an access token and a refresh token; a new sign-in starts a new token family. The access
 * token carries the account's session version (`Account.sessionVersion`, as just read).
 */
export const issueTokens = (accountId: AccountId, sessionVersion: number, familyId?: string) =>
  Effect.gen(function*() {
    const ids = yield* Ids
    const at = yield* now
    const raw = yield* (yield* SecureRandom).token(TokenPolicy.refreshTokenBytes)
    const tokenHash = yield* (yield* SecretHasher).digest("refresh", raw)
    const id = yield* ids.next
    yield* (yield* RefreshTokenRepo).insert(
      new RefreshToken({
        id,
        accountId,
        familyId: familyId ?? id,
        tokenHash,
        expiresAt: new Date(at.getTime() + Duration.toMillis(TokenPolicy.refreshTokenTtl)),
        usedAt: null,
        revokedAt: null,
        createdAt: at
      })
    )
    const accessToken = yield* (yield* AccessTokens).issue({ accountId, sessionVersion })
    return { accessToken, refreshToken: raw } satisfies TokenPair
  })

/**
 * Finds a presented refresh token that may still be used. A token that was already used is a
 * sign of theft (the thief or the owner replays a rotated token): the whole family is revoked,
 * so both must sign in again.
 */
const usableRefreshToken = (raw: string) =>
  Effect.gen(function*() {
    const repo = yield* RefreshTokenRepo
    const hash = yield* (yield* SecretHasher).digest("refresh", raw)
    const found = yield* repo.findByHash(hash)
    if (Option.isNone(found)) return yield* new InvalidRefreshToken()
    const token = found.value
    const at = yield* now
    if (token.usedAt !== null) {
      yield* repo.revokeFamily(token.familyId, at)
      yield* Effect.logWarning("refresh token reuse detected; token family revoked").pipe(
        Effect.annotateLogs({ accountId: token.accountId, familyId: token.familyId })
      )
      return yield* new InvalidRefreshToken()
    }
    if (token.revokedAt !== null || token.expiresAt.getTime() <= at.getTime()) return yield* new InvalidRefreshToken()
    const account = yield* (yield* AccountRepo).findById(token.accountId)
    if (Option.isNone(account)) return yield* new InvalidRefreshToken()
    yield* ensureUsable(account.value, () => new InvalidRefreshToken())
    return { token, sessionVersion: account.value.account.sessionVersion }
  })

/** Rotation: the presented token is used up and a new pair in the same family is returned. */
export const rotateRefreshToken = (raw: string) =>
  Effect.gen(function*() {
    const { sessionVersion, token } = yield* usableRefreshToken(raw)
    const repo = yield* RefreshTokenRepo
    const at = yield* now
    if (!(yield* repo.markUsed(token.id, at))) {
      // Lost a race with another use of the same token: treat as reuse.
      yield* repo.revokeFamily(token.familyId, at)
      return yield* new InvalidRefreshToken()
    }
    return yield* issueTokens(token.accountId, sessionVersion, token.familyId)
  }).pipe(withSpan("Auth.rotateRefreshToken"))

/** A new access token for a valid refresh token, which stays valid (no rotation). */
export const accessTokenFor = (raw: string) =>
  Effect.gen(function*() {
    const { sessionVersion, token } = yield* usableRefreshToken(raw)
    return { accessToken: yield* (yield* AccessTokens).issue({ accountId: token.accountId, sessionVersion }) }
  })

/** Resolves bearer access tokens to their signed-in accounts. */
export type Authenticator<E = Unauthenticated | AccountSuspended> = (accessToken: string) => Effect.Effect<AccountWithCustomer, E>

/** A deleted customer is unknown (401). */
const notDeleted = (found: Option.Option<AccountWithCustomer>): Effect.Effect<AccountWithCustomer, Unauthenticated> =>
  Option.isNone(found) || found.value.customer.customerStatus === "deleted"
    ? Effect.fail(new Unauthenticated())
    : Effect.succeed(found.value)

/** Who may use a signed-in account: a deleted customer is unknown (401), a suspended one refused (403). */
const standing = (found: Option.Option<AccountWithCustomer>): Effect.Effect<AccountWithCustomer, Unauthenticated | AccountSuspended> =>
  Effect.flatMap(
    notDeleted(found),
    (account) => account.customer.customerStatus === "suspended" ? Effect.fail(new AccountSuspended()) : Effect.succeed(account)
  )

/**
 * A token check with its two services read once, for a caller that checks a token on every
 * request: the HTTP authentication builds it with its layer, so a request does not provide the
 * services again (an Effect.provide is ~20 steps of Effect's runtime).
 */
const authenticatorWith = <E>(
  mayUse: (found: Option.Option<AccountWithCustomer>) => Effect.Effect<AccountWithCustomer, E>
): Effect.Effect<Authenticator<Unauthenticated | E>, never, AccessTokens | AccountRepo> =>
  Effect.map(
    Effect.all([AccessTokens, AccountRepo]),
    ([tokens, repo]) => (accessToken) =>
      Effect.flatMap(tokens.verify(accessToken), (claims): Effect.Effect<AccountWithCustomer, Unauthenticated | E> =>
        Option.isNone(claims)
          ? Effect.fail(new Unauthenticated())
          : Effect.flatMap(repo.findById(claims.value.accountId), (found): Effect.Effect<AccountWithCustomer, Unauthenticated | E> =>
            // a token of an older session version was revoked with every other session of the account
            Option.isSome(found) && found.value.account.sessionVersion !== claims.value.sessionVersion
              ? Effect.fail(new Unauthenticated())
              : mayUse(found)))
  )

/** `authenticate`, built once (see authenticatorWith). */
export const authenticator = authenticatorWith(standing)

/**
 * Every check of `authenticator` but suspension: for the one door a suspended customer may use
 * (delete-account, whose use case answers a frozen customer itself).
 */
export const authenticatorAllowingSuspended = authenticatorWith(notDeleted)

/** Resolves a bearer access token to its signed-in account. */
export const authenticate = (accessToken: string) => Effect.flatMap(authenticator, (authenticate) => authenticate(accessToken))

export type LoginInput = (
  | { readonly email: string; readonly password: Redacted.Redacted<string> }
  | { readonly phone: string; readonly password: Redacted.Redacted<string> }
) & {
  /** where the request came from (the client address, TRUSTED_PROXIES honoured), for the per-client throttle; "unknown" when not told */
  readonly client?: string | undefined
}

/**
 * The customer sign-in throttle (SIGN_IN_* settings, validated at start-up): at most
 * `maxFailuresPerAccount` wrong passwords per account (or per email or phone with no account) and
 * `maxFailuresPerClient` per client address within `window`; past either, 429 with Retry-After
 * until the block (one window from the failure that started it) ends, with no password hashed.
 * The client limit is looser: many customers share a mobile carrier's address.
 */
export class SignInThrottlePolicy extends Context.Reference<SignInThrottlePolicy>()("domain/SignInThrottlePolicy", {
  defaultValue: () => ({ maxFailuresPerAccount: 5, maxFailuresPerClient: 50, window: Duration.minutes(15) })
}) {}

/** The throttle keys of a sign-in: its client address, then its account (by id; by identifier when there is none). */
const signInKeys = (input: LoginInput, found: Option.Option<AccountWithCustomer>) =>
  Effect.gen(function*() {
    const policy = yield* SignInThrottlePolicy
    const hasher = yield* SecretHasher
    const identifier = "email" in input ? `e:${input.email}` : `p:${input.phone}`
    const account = Option.isSome(found) ? `sa:${found.value.account.id}` : `si:${yield* hasher.digest("sign-in", identifier)}`
    return [
      { key: `sc:${yield* hasher.digest("sign-in-client", input.client ?? "unknown")}`, limit: policy.maxFailuresPerClient, window: policy.window },
      { key: account, limit: policy.maxFailuresPerAccount, window: policy.window }
    ] satisfies ReadonlyArray<ThrottleKey>
  })

/** A wrong password that started a block: counted on the metric; a client address's also raises a staff alert. */
const reportTrips = (input: LoginInput, keys: ReadonlyArray<ThrottleKey>, started: ReadonlyArray<Date | null>) =>
  Effect.gen(function*() {
    if (started[1] != null) yield* countTrip("sign_in_account")
    if (started[0] != null) {
      yield* countTrip("sign_in_client")
      const policy = yield* SignInThrottlePolicy
      yield* raiseAlert({
        kind: "sign_in_throttled",
        dedupKey: `sign_in_throttled:${keys[0]!.key}`,
        message: `Customer sign-in from the client address ${input.client ?? "unknown"} failed ${keys[0]!.limit} times within ` +
          `${Duration.format(policy.window)}: its sign-ins are refused (429) until ${started[0]!.toISOString()}. Many ` +
          "accounts from one address suggests credential stuffing: check the request logs for the address, and block " +
          "it at the edge if it goes on."
      })
    }
  })

/**
 * The same answer, and the same argon2 work, whether the account exists or not, so sign-in
 * reveals nothing about who is registered. Suspension is told only after a correct password.
 * Throttled (SignInThrottlePolicy) per account and per client address, before any hash.
 */
export const login = (input: LoginInput) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    const hasher = yield* PasswordHasher
    const found = "email" in input ? yield* repo.findByEmail(input.email) : yield* repo.findByPhone(input.phone)
    const hash = Option.flatMap(found, (f) => Option.fromNullable(f.account.passwordHash))
    // the try is counted before any hash, for a known account and an unknown one alike (SignInThrottlePolicy)
    const keys = yield* signInKeys(input, found)
    const at = yield* now
    const checked = yield* guarded(
      keys,
      at,
      Option.isNone(found) || Option.isNone(hash)
        ? Effect.as(hasher.dummyVerify(input.password), false)
        : hasher.verify(input.password, hash.value)
    )
    if (checked._tag === "Blocked") return yield* new SignInThrottled({ retryAfterSeconds: yield* secondsUntil(checked.until) })
    if (!checked.right || Option.isNone(found)) {
      yield* reportTrips(input, keys, checked.started)
      return yield* new InvalidCredentials()
    }
    yield* ensureMaySignIn(found.value)
    const tokens = yield* issueTokens(found.value.account.id, found.value.account.sessionVersion)
    // the client sends a customer without a PIN to set one first
    return { ...tokens, hasPin: found.value.customer.pinHash !== null }
  }).pipe(withSpan("Auth.login"))
