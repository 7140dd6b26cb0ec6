/**
 * Sign-in and sessions: access tokens, refresh token rotation with reuse detection.
 */
import { Duration, Effect, Option, Redacted } from "effect"
import { AccountSuspended } from "../account/Errors.js"
import type { AccountWithCustomer } from "../account/Model.js"
import { AccountRepo } from "../account/Ports.js"
import { Ids, PasswordHasher, SecretHasher, SecureRandom } from "../shared/Ports.js"
import { now } from "../shared/UseCase.js"
import { InvalidCredentials, InvalidRefreshToken, Unauthenticated } from "./Errors.js"
import { RefreshToken, type TokenPair } from "./Model.js"
import { AccessTokens, RefreshTokenRepo } from "./Ports.js"
import { withSpan } from "../shared/Spans.js"

export const TokenPolicy = {
  accessTokenTtl: Duration.minutes(15),
  refreshTokenTtl: Duration.days(30),
  refreshTokenBytes: 32
} as const

/** Refuses tokens to accounts that may not sign in. */
export const ensureMaySignIn = (found: AccountWithCustomer): Effect.Effect<void, AccountSuspended | InvalidCredentials> => {
  switch (found.customer.customerStatus) {
    case "suspended":
      return Effect.fail(new AccountSuspended())
    case "deleted":
      return Effect.fail(new InvalidCredentials())
    default:
      return Effect.void
  }
}

/** Issues an access token and a refresh token; a new sign-in starts a new token family. */
export const issueTokens = (accountId: string, familyId?: string) =>
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
    const accessToken = yield* (yield* AccessTokens).issue({ accountId })
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
    yield* ensureMaySignIn(account.value).pipe(Effect.mapError((e) => e._tag === "InvalidCredentials" ? new InvalidRefreshToken() : e))
    return token
  })

/** Rotation: the presented token is used up and a new pair in the same family is returned. */
export const rotateRefreshToken = (raw: string) =>
  Effect.gen(function*() {
    const token = yield* usableRefreshToken(raw)
    const repo = yield* RefreshTokenRepo
    const at = yield* now
    if (!(yield* repo.markUsed(token.id, at))) {
      // Lost a race with another use of the same token: treat as reuse.
      yield* repo.revokeFamily(token.familyId, at)
      return yield* new InvalidRefreshToken()
    }
    return yield* issueTokens(token.accountId, token.familyId)
  }).pipe(withSpan("Auth.rotateRefreshToken"))

/** A new access token for a valid refresh token, which stays valid (no rotation). */
export const accessTokenFor = (raw: string) =>
  Effect.gen(function*() {
    const token = yield* usableRefreshToken(raw)
    return { accessToken: yield* (yield* AccessTokens).issue({ accountId: token.accountId }) }
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
          : Effect.flatMap(repo.findById(claims.value.accountId), mayUse))
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

export type LoginInput =
  | { readonly email: string; readonly password: Redacted.Redacted<string> }
  | { readonly phone: string; readonly password: Redacted.Redacted<string> }

/**
 * The same answer, and the same argon2 work, whether the account exists or not, so sign-in
 * reveals nothing about who is registered. Suspension is told only after a correct password.
 */
export const login = (input: LoginInput) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    const hasher = yield* PasswordHasher
    const found = "email" in input ? yield* repo.findByEmail(input.email) : yield* repo.findByPhone(input.phone)
    const hash = Option.flatMap(found, (f) => Option.fromNullable(f.account.passwordHash))
    if (Option.isNone(found) || Option.isNone(hash)) {
      yield* hasher.dummyVerify(input.password)
      return yield* new InvalidCredentials()
    }
    if (!(yield* hasher.verify(input.password, hash.value))) return yield* new InvalidCredentials()
    yield* ensureMaySignIn(found.value)
    const tokens = yield* issueTokens(found.value.account.id)
    // the client sends a customer without a PIN to set one first
    return { ...tokens, hasPin: found.value.customer.pinHash !== null }
  }).pipe(withSpan("Auth.login"))
