/**
 * Registration, one-time-code verification, sign-in, token rotation and password management.
 */
import { Duration, Effect, Option, Redacted } from "effect"
import {
  AccountNotFound,
  AccountSuspended,
  EmailTaken,
  InvalidCredentials,
  InvalidRefreshToken,
  NoEmailOnFile,
  NoPasswordSet,
  NoPhoneOnFile,
  OtpGateRejected,
  OtpRejected,
  PasswordReused,
  PhoneTaken,
  Unauthenticated
} from "./Errors.js"
import { Account, type AccountWithCustomer, Customer, RefreshToken, type TokenPair } from "./Models.js"
import { consumeOtp, guessOtp, issueOtp } from "./Otp.js"
import {
  AccessTokens,
  AccountRepo,
  Ids,
  OtpRepo,
  PasswordHasher,
  RefreshTokenRepo,
  SecretHasher,
  SecureRandom
} from "./Ports.js"
import { atomically, now, requireAccount } from "./UseCase.js"

export const TokenPolicy = {
  accessTokenTtl: Duration.minutes(15),
  refreshTokenTtl: Duration.days(30),
  refreshTokenBytes: 32
} as const

/** Unambiguous characters only (no 0/O, 1/I/L), so codes survive being read aloud. */
export const REFERRAL_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
export const REFERRAL_CODE_LENGTH = 8


// ---------------------------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------------------------

export interface RegisterInput {
  readonly email: string
  readonly password: Redacted.Redacted<string>
  readonly phone?: string | undefined
  readonly firstName?: string | undefined
  readonly lastName?: string | undefined
  readonly otherNames?: string | undefined
  readonly dateOfBirth?: string | undefined
  readonly gender?: "male" | "female" | undefined
  readonly address?: string | undefined
}

export const register = (input: RegisterInput) =>
  Effect.gen(function*() {
    const repo = yield* AccountRepo
    if (yield* repo.emailExists(input.email)) return yield* new EmailTaken()
    if (input.phone !== undefined && (yield* repo.phoneExists(input.phone))) return yield* new PhoneTaken()
    const passwordHash = yield* (yield* PasswordHasher).hash(input.password)
    const ids = yield* Ids
    const random = yield* SecureRandom
    const at = yield* now
    const accountId = yield* ids.next
    const account = new Account({
      id: accountId,
      email: input.email,
      phone: input.phone ?? null,
      passwordHash,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      otherNames: input.otherNames ?? null,
      dateOfBirth: input.dateOfBirth ?? null,
      gender: input.gender ?? null,
      address: input.address ?? null,
      emailVerified: false,
      phoneVerified: false,
      createdAt: at,
      updatedAt: at
    })
    const customerId = yield* ids.next
    // A referral-code collision (31^8 codes) is retried with a fresh code; a raced duplicate
    // email or phone is reported exactly like the pre-check above.
    const create = Effect.gen(function*() {
      const customer = new Customer({
        id: customerId,
        accountId,
        customerStatus: "unverified",
        kycStatus: "pending",
        referralCode: yield* random.fromAlphabet(REFERRAL_CODE_LENGTH, REFERRAL_ALPHABET),
        referredBy: null,
        pinHash: null,
        smsEnabled: true,
        emailEnabled: true,
        createdAt: at,
        updatedAt: at
      })
      yield* repo.create({ account, customer })
      return { account, customer } satisfies AccountWithCustomer
    })
    return yield* create.pipe(
      Effect.retry({ times: 3, while: (e) => e.field === "referralCode" }),
      Effect.catchTag("UniqueViolation", (e): Effect.Effect<never, EmailTaken | PhoneTaken> =>
        e.field === "email"
          ? Effect.fail(new EmailTaken())
          : e.field === "phone"
          ? Effect.fail(new PhoneTaken())
          : Effect.die(new Error("could not allocate a unique referral code")))
    )
  }).pipe(Effect.withSpan("Auth.register"))

export const checkEmailAvailable = (email: string) =>
  Effect.flatMap(AccountRepo, (repo) => repo.emailExists(email)).pipe(
    Effect.flatMap((taken) => (taken ? Effect.fail(new EmailTaken()) : Effect.void))
  )

// ---------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------

/** Refuses tokens to accounts that may not sign in. */
const ensureMaySignIn = (found: AccountWithCustomer): Effect.Effect<void, AccountSuspended | InvalidCredentials> => {
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
const issueTokens = (accountId: string, familyId?: string) =>
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
  }).pipe(Effect.withSpan("Auth.rotateRefreshToken"))

/** A new access token for a valid refresh token, which stays valid (no rotation). */
export const accessTokenFor = (raw: string) =>
  Effect.gen(function*() {
    const token = yield* usableRefreshToken(raw)
    return { accessToken: yield* (yield* AccessTokens).issue({ accountId: token.accountId }) }
  })

/** Resolves a bearer access token to its signed-in account. */
export const authenticate = (accessToken: string) =>
  Effect.gen(function*() {
    const claims = yield* (yield* AccessTokens).verify(accessToken)
    if (Option.isNone(claims)) return yield* new Unauthenticated()
    const found = yield* (yield* AccountRepo).findById(claims.value.accountId)
    if (Option.isNone(found) || found.value.customer.customerStatus === "deleted") return yield* new Unauthenticated()
    if (found.value.customer.customerStatus === "suspended") return yield* new AccountSuspended()
    return found.value
  })

// ---------------------------------------------------------------------------------------------
// Email and phone verification
// ---------------------------------------------------------------------------------------------

export const sendEmailOtp = (accountId: string) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.email === "") return yield* new NoEmailOnFile()
    yield* issueOtp({
      accountId,
      channel: "email",
      purpose: "email_verification",
      destination: account.email,
      kind: "email_verification",
      subject: "Confirm your email address",
      text: (code) => `Your verification code is ${code}. It expires in 10 minutes. Never share it with anyone.`
    })
  })

export const sendPhoneOtp = (accountId: string) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.phone === null) return yield* new NoPhoneOnFile()
    yield* issueOtp({
      accountId,
      channel: "sms",
      purpose: "phone_verification",
      destination: account.phone,
      kind: "phone_verification",
      subject: "Phone verification",
      text: (code) => `Your verification code is ${code}. It expires in 10 minutes. Never share it.`
    })
  })

const verifyChannel = (accountId: string, pin: string, channel: "email" | "phone") =>
  Effect.gen(function*() {
    const found = yield* requireAccount(accountId)
    yield* ensureMaySignIn(found)
    const otps = yield* OtpRepo
    const purpose = channel === "email" ? "email_verification" as const : "phone_verification" as const
    const otp = yield* otps.latest(accountId, purpose)
    const guess = yield* guessOtp(otp, { accountId, purpose }, pin)
    if (guess !== "correct") return yield* new OtpRejected({ reason: guess })
    const repo = yield* AccountRepo
    yield* atomically(Effect.gen(function*() {
      if (!(yield* consumeOtp(Option.getOrThrow(otp).id))) return yield* new OtpRejected({ reason: "invalid" })
      const at = yield* now
      if (channel === "email") {
        yield* repo.markEmailVerified(accountId, at)
        yield* repo.transitionStatus(accountId, "unverified", "verified", at)
      } else {
        yield* repo.markPhoneVerified(accountId, at)
        // Phone alone does not verify a customer: the email must be confirmed too.
        if (found.account.emailVerified) yield* repo.transitionStatus(accountId, "unverified", "verified", at)
      }
    }))
    return yield* issueTokens(accountId)
  })

export const verifyEmailOtp = (accountId: string, pin: string) =>
  verifyChannel(accountId, pin, "email").pipe(Effect.withSpan("Auth.verifyEmailOtp"))

export const verifyPhoneOtp = (accountId: string, pin: string) =>
  verifyChannel(accountId, pin, "phone").pipe(Effect.withSpan("Auth.verifyPhoneOtp"))

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

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
    return yield* issueTokens(found.value.account.id)
  }).pipe(Effect.withSpan("Auth.login"))

// ---------------------------------------------------------------------------------------------
// Passwords and OTP-gated actions
// ---------------------------------------------------------------------------------------------

/** `POST /auth/otp/request`: a code for an OTP-gated action; returns its id (`pinId`). */
export const requestActionOtp = (accountId: string) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(accountId)
    if (account.email === "") return yield* new NoEmailOnFile()
    const pinId = yield* issueOtp({
      accountId,
      channel: "email",
      purpose: "sensitive_action",
      destination: account.email,
      kind: "action_confirmation",
      subject: "Your confirmation code",
      text: (code) =>
        `Your confirmation code is ${code}. It expires in 10 minutes. We will never ask you for it; do not share it.`
    })
    return { pinId }
  })

/**
 * The gate of OTP-protected operations: the code `otpPinId` must belong to this account, have been
 * issued by the OTP request endpoint, and match. Returns the code's id, to be consumed in the same
 * unit of work as the protected change.
 */
export const passOtpGate = (accountId: string, otpPinId: string, otpCode: string) =>
  Effect.gen(function*() {
    const otp = yield* (yield* OtpRepo).findById(otpPinId)
    const guess = yield* guessOtp(otp, { accountId, purpose: "sensitive_action" }, otpCode)
    if (guess !== "correct") return yield* new OtpGateRejected()
    return otpPinId
  })

/** Runs `change` with the code consumed in the same transaction: both happen or neither. */
export const withConsumedOtp = <A, E, R>(otpId: string, change: Effect.Effect<A, E, R>) =>
  atomically(Effect.gen(function*() {
    if (!(yield* consumeOtp(otpId))) return yield* new OtpGateRejected()
    return yield* change
  }))

const replacePassword = (accountId: string, newPassword: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const hash = yield* (yield* PasswordHasher).hash(newPassword)
    const at = yield* now
    yield* (yield* AccountRepo).setPasswordHash(accountId, hash, at)
    // A new password signs the account out of every other session.
    yield* (yield* RefreshTokenRepo).revokeAllForAccount(accountId, at)
  })

const isCurrentPassword = (account: Account, candidate: Redacted.Redacted<string>) =>
  account.passwordHash === null
    ? Effect.succeed(false)
    : Effect.flatMap(PasswordHasher, (h) => h.verify(candidate, account.passwordHash!))

export const forgotPassword = (email: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByEmail(email)
    if (Option.isNone(found) || found.value.customer.customerStatus === "deleted") return yield* new AccountNotFound()
    yield* issueOtp({
      accountId: found.value.account.id,
      channel: "email",
      purpose: "password_reset",
      destination: found.value.account.email,
      kind: "password_reset",
      subject: "Reset your password",
      text: (code) => `Your password reset code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this email.`
    })
  })

export const resetPassword = (input: { email: string; code: string; password: Redacted.Redacted<string> }) =>
  Effect.gen(function*() {
    const found = yield* (yield* AccountRepo).findByEmail(input.email)
    if (Option.isNone(found) || found.value.customer.customerStatus === "deleted") return yield* new OtpGateRejected()
    const accountId = found.value.account.id
    const otp = yield* (yield* OtpRepo).latest(accountId, "password_reset")
    if ((yield* guessOtp(otp, { accountId, purpose: "password_reset" }, input.code)) !== "correct") {
      return yield* new OtpGateRejected()
    }
    // Checked only after the code is proven, so this cannot be used to test password guesses.
    if (yield* isCurrentPassword(found.value.account, input.password)) return yield* new PasswordReused()
    yield* withConsumedOtp(Option.getOrThrow(otp).id, replacePassword(accountId, input.password))
  }).pipe(Effect.withSpan("Auth.resetPassword"))

export const changePassword = (input: {
  accountId: string
  currentPassword: Redacted.Redacted<string>
  newPassword: Redacted.Redacted<string>
  otpPinId: string
  otpCode: string
}) =>
  Effect.gen(function*() {
    const { account } = yield* requireAccount(input.accountId)
    if (account.passwordHash === null) return yield* new NoPasswordSet()
    if (!(yield* isCurrentPassword(account, input.currentPassword))) return yield* new InvalidCredentials()
    const otpId = yield* passOtpGate(input.accountId, input.otpPinId, input.otpCode)
    if (Redacted.value(input.currentPassword) === Redacted.value(input.newPassword)) return yield* new PasswordReused()
    yield* withConsumedOtp(otpId, replacePassword(input.accountId, input.newPassword))
  }).pipe(Effect.withSpan("Auth.changePassword"))

export const getProfile = (accountId: string) => requireAccount(accountId)
