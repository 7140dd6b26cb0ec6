/** In-memory AccountRepo, OtpRepo and RefreshTokenRepo over the shared Store (see InMemory.ts). */
import { Effect, Layer, Option, Ref } from "effect"
import { type AccountWithCustomer, Account, Customer } from "../../src/account/Model.js"
import { OneTimeCode, type OtpPurpose, RefreshToken } from "../../src/auth/Model.js"
import { isLive } from "../../src/auth/Otp.js"
import { OtpRepo, RefreshTokenRepo } from "../../src/auth/Ports.js"
import { AccountRepo, type NewAccount, UniqueViolation } from "../../src/account/Ports.js"
import { type State, Store, withAccount } from "./InMemoryStore.js"
import { AccountId } from "../../src/shared/Ids.js"

export const AccountRepoLive = Layer.effect(
  AccountRepo,
  Effect.map(Store, ({ ref }) => {
    const find = (p: (a: AccountWithCustomer) => boolean) =>
      Effect.map(Ref.get(ref), (st) => Option.fromNullable([...st.accounts.values()].find(p)))
    const updateAccount = (accountId: AccountId, f: (a: Account) => Account) =>
      Ref.update(ref, (st) => {
        const found = st.accounts.get(accountId)
        return found === undefined ? st : withAccount(st, accountId, { ...found, account: f(found.account) })
      })
    const updateCustomer = (accountId: AccountId, f: (c: Customer) => Customer) =>
      Ref.update(ref, (st) => {
        const found = st.accounts.get(accountId)
        return found === undefined ? st : withAccount(st, accountId, { ...found, customer: f(found.customer) })
      })
    return {
      create: ({ account, customer }: NewAccount) =>
        Effect.flatten(Ref.modify(ref, (st): [Effect.Effect<void, UniqueViolation>, State] => {
          const all = [...st.accounts.values()]
          const clash = all.some((a) => a.account.email === account.email)
            ? "email" as const
            : account.phone !== null && all.some((a) => a.account.phone === account.phone)
            ? "phone" as const
            : all.some((a) => a.customer.referralCode === customer.referralCode)
            ? "referralCode" as const
            : undefined
          if (clash !== undefined) return [Effect.fail(new UniqueViolation({ field: clash })), st]
          if (st.accounts.has(account.id)) return [Effect.dieMessage(`duplicate account id ${account.id}`), st]
          return [Effect.void, withAccount(st, account.id, { account, customer })]
        })),
      findById: (accountId) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.accounts.get(accountId))),
      findByEmail: (email) => find((a) => a.account.email === email),
      findByPhone: (phone) => find((a) => a.account.phone === phone),
      emailExists: (email) => Effect.map(find((a) => a.account.email === email), Option.isSome),
      phoneExists: (phone) => Effect.map(find((a) => a.account.phone === phone), Option.isSome),
      markEmailVerified: (accountId, now) =>
        updateAccount(accountId, (a) => new Account({ ...a, emailVerified: true, updatedAt: now })),
      markPhoneVerified: (accountId, now) =>
        updateAccount(accountId, (a) => new Account({ ...a, phoneVerified: true, updatedAt: now })),
      transitionStatus: (accountId, from, to, now) =>
        updateCustomer(accountId, (c) => c.customerStatus === from ? new Customer({ ...c, customerStatus: to, updatedAt: now }) : c),
      setPasswordHash: (accountId, hash, now) =>
        updateAccount(accountId, (a) => new Account({ ...a, passwordHash: hash, updatedAt: now })),
      resetUnprovenSetup: (accountId, now) =>
        Effect.zipRight(
          updateAccount(accountId, (a) =>
            new Account({
              ...a,
              passwordHash: null,
              phone: null,
              phoneVerified: false,
              emailVerified: true,
              sessionVersion: a.sessionVersion + 1,
              updatedAt: now
            })),
          updateCustomer(accountId, (c) =>
            new Customer({ ...c, pinHash: null, customerStatus: c.customerStatus === "unverified" ? "verified" : c.customerStatus, updatedAt: now }))
        ),
      setFirstPasswordHash: (accountId, hash, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.account.passwordHash !== null) return [false, st]
          return [true, withAccount(st, accountId, { ...found, account: new Account({ ...found.account, passwordHash: hash, updatedAt: now }) })]
        }),
      setBvnVerified: (accountId, details, now) =>
        Effect.flatten(Ref.modify(ref, (st): [Effect.Effect<boolean, UniqueViolation>, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.customer.kycStatus !== "pending") return [Effect.succeed(false), st]
          const others = [...st.accounts.values()].filter((a) => a.account.id !== accountId)
          if (others.some((a) => a.customer.bvnHash === details.bvnHash)) {
            return [Effect.fail(new UniqueViolation({ field: "bvnHash" })), st]
          }
          if (others.some((a) => a.account.phone === details.phone)) return [Effect.fail(new UniqueViolation({ field: "phone" })), st]
          const { account, customer } = found
          return [Effect.succeed(true), withAccount(st, accountId, {
            account: new Account({
              ...account,
              firstName: details.firstName,
              lastName: details.lastName,
              phone: details.phone,
              phoneVerified: account.phone === details.phone && account.phoneVerified,
              address: details.address,
              gender: details.gender,
              dateOfBirth: details.dateOfBirth,
              updatedAt: now
            }),
            customer: new Customer({ ...customer, bvnHash: details.bvnHash, kycStatus: "bvn_verified", updatedAt: now })
          })]
        })),
      findByBvnHash: (bvnHash) => find((a) => a.customer.bvnHash === bvnHash),
      setCoreAccount: (accountId, core, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.customer.coreAccountNumber !== null) return [false, st]
          if ([...st.accounts.values()].some((a) => a.customer.coreAccountNumber === core.accountNumber)) {
            throw new Error(`account number ${core.accountNumber} is already linked to another customer`)
          }
          return [true, withAccount(st, accountId, {
            ...found,
            customer: new Customer({
              ...found.customer,
              coreAccountNumber: core.accountNumber,
              coreAccountReference: core.reference,
              updatedAt: now
            })
          })]
        }),
      findByCoreAccountNumber: (accountNumber) => find((a) => a.customer.coreAccountNumber === accountNumber),
      // the in-memory erasure keeps no digest
      findDeletedByCoreAccountDigest: () => Effect.succeed(Option.none()),
      findByCustomerId: (customerId) => find((a) => a.customer.id === customerId),
      findStanding: (customerId) =>
        Effect.map(find((a) => a.customer.id === customerId), Option.map(({ customer }) => ({
          customerStatus: customer.customerStatus,
          coreAccountNumber: customer.coreAccountNumber
        }))),
      listWithBankAccount: (afterAccountId, limit) =>
        Effect.map(Ref.get(ref), (st) =>
          [...st.accounts.values()]
            .filter((a) => a.customer.coreAccountNumber !== null && a.customer.customerStatus !== "deleted")
            .filter((a) => afterAccountId === null || a.account.id > afterAccountId)
            .sort((a, b) => (a.account.id < b.account.id ? -1 : 1))
            .slice(0, limit)
            .map((a) => ({ accountId: a.account.id, accountNumber: a.customer.coreAccountNumber! }))),
      markFirstDeposit: (accountId, at, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const found = st.accounts.get(accountId)
          if (found === undefined || found.customer.firstDepositAt !== null) return [false, st]
          return [true, withAccount(st, accountId, {
            ...found,
            customer: new Customer({ ...found.customer, firstDepositAt: at, updatedAt: now })
          })]
        }),
      setProfile: (accountId, patch, now) =>
        updateAccount(accountId, (a) =>
          new Account({
            ...a,
            displayName: patch.displayName ?? a.displayName,
            whatsappNumber: patch.whatsappNumber === undefined ? a.whatsappNumber : patch.whatsappNumber,
            updatedAt: now
          })),
      setNotificationSettings: (accountId, patch, now) =>
        updateCustomer(accountId, (c) =>
          new Customer({
            ...c,
            smsEnabled: patch.smsEnabled ?? c.smsEnabled,
            emailEnabled: patch.emailEnabled ?? c.emailEnabled,
            updatedAt: now
          }))
    }
  })
)

export const OtpRepoLive = Layer.effect(
  OtpRepo,
  Effect.map(Store, ({ ref }) => {
    const latestOf = (otps: ReadonlyArray<OneTimeCode>, accountId: AccountId, purpose: OtpPurpose) => {
      let best: OneTimeCode | undefined
      for (const otp of otps) {
        // ties go to the later insert
        if (otp.accountId === accountId && otp.purpose === purpose && (best === undefined || otp.createdAt >= best.createdAt)) {
          best = otp
        }
      }
      return Option.fromNullable(best)
    }
    return {
      // one fiber at a time in memory: nothing to lock
      lockIssuing: () => Effect.void,
      issue: (otp) =>
        Ref.update(ref, (st) => ({
          ...st,
          otps: [
            ...st.otps.map((o) =>
              o.accountId === otp.accountId && o.purpose === otp.purpose && isLive(o, otp.createdAt)
                ? new OneTimeCode({ ...o, consumedAt: otp.createdAt })
                : o
            ),
            new OneTimeCode({ ...otp, attempts: 0, consumedAt: null })
          ]
        })),
      latest: (accountId, purpose) => Effect.map(Ref.get(ref), (st) => latestOf(st.otps, accountId, purpose)),
      issuedSince: (accountId, purpose, since) =>
        Effect.map(Ref.get(ref), (st) =>
          st.otps
            .filter((o) => o.accountId === accountId && o.purpose === purpose && o.createdAt.getTime() >= since.getTime())
            .map((o) => o.createdAt)
            .sort((a, b) => a.getTime() - b.getTime())),
      findById: (id) => Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.otps.find((o) => o.id === id))),
      claimAttempt: (id, now) =>
        Ref.modify(ref, (st): [Option.Option<OneTimeCode>, State] => {
          const otp = st.otps.find((o) => o.id === id)
          if (otp === undefined || !isLive(otp, now)) return [Option.none(), st]
          const claimed = new OneTimeCode({ ...otp, attempts: otp.attempts + 1 })
          return [Option.some(claimed), { ...st, otps: st.otps.map((o) => o.id === id ? claimed : o) }]
        }),
      consume: (id, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const otp = st.otps.find((o) => o.id === id)
          if (otp === undefined || otp.consumedAt !== null || otp.expiresAt.getTime() <= now.getTime()) return [false, st]
          const used = new OneTimeCode({ ...otp, consumedAt: now })
          return [true, { ...st, otps: st.otps.map((o) => o.id === id ? used : o) }]
        }),
      purgeCreatedBefore: (before) =>
        Ref.modify(ref, (st): [number, State] => {
          const kept = st.otps.filter((o) => o.createdAt.getTime() >= before.getTime())
          return [st.otps.length - kept.length, { ...st, otps: kept }]
        })
    }
  })
)

export const RefreshTokenRepoLive = Layer.effect(
  RefreshTokenRepo,
  Effect.map(Store, ({ ref }) => {
    const revokeWhere = (p: (t: RefreshToken) => boolean, now: Date) =>
      Ref.update(ref, (st) => ({
        ...st,
        refreshTokens: st.refreshTokens.map((t) => p(t) && t.revokedAt === null ? new RefreshToken({ ...t, revokedAt: now }) : t)
      }))
    return {
      insert: (token) =>
        Effect.flatten(Ref.modify(ref, (st): [Effect.Effect<void>, State] =>
          st.refreshTokens.some((t) => t.id === token.id || t.tokenHash === token.tokenHash)
            ? [Effect.dieMessage(`duplicate refresh token ${token.id}`), st]
            : [Effect.void, { ...st, refreshTokens: [...st.refreshTokens, token] }])),
      findByHash: (tokenHash) =>
        Effect.map(Ref.get(ref), (st) => Option.fromNullable(st.refreshTokens.find((t) => t.tokenHash === tokenHash))),
      markUsed: (id, now) =>
        Ref.modify(ref, (st): [boolean, State] => {
          const token = st.refreshTokens.find((t) => t.id === id)
          if (token === undefined || token.usedAt !== null || token.revokedAt !== null) return [false, st]
          const used = new RefreshToken({ ...token, usedAt: now })
          return [true, { ...st, refreshTokens: st.refreshTokens.map((t) => t.id === id ? used : t) }]
        }),
      revokeFamily: (familyId, now) => revokeWhere((t) => t.familyId === familyId, now),
      revokeAllForAccount: (accountId, now) => revokeWhere((t) => t.accountId === accountId, now),
      purgeExpiredBefore: (before) =>
        Ref.modify(ref, (st): [number, State] => {
          const kept = st.refreshTokens.filter((t) => t.expiresAt.getTime() >= before.getTime())
          return [st.refreshTokens.length - kept.length, { ...st, refreshTokens: kept }]
        })
    }
  })
)
