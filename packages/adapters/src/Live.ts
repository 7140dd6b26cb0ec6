/**
 * Composition of the adapters: one place that says which implementation serves each port.
 * `databaseLayer` picks PostgreSQL when DATABASE_URL is set and embedded PGlite otherwise, and runs
 * the migrations before anything else can use the database.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { Auth, StaffAccess, Throttle } from "@app/domain"
import { Duration, Effect, Layer, Option } from "effect"
import * as path from "node:path"
import { AppConfig } from "./AppConfig.js"
import { PasswordHasherLive } from "./crypto/Argon2PasswordHasher.js"
import { AccessTokensLive } from "./crypto/Hs256AccessTokens.js"
import { StaffTokensLive } from "./crypto/Hs256StaffTokens.js"
import { IdsLive, SecretHasherLive, SecureRandomLive } from "./crypto/NodeCrypto.js"
import { runMigrations } from "./Migrations.js"
import { NotificationTransportsLive, NotifierLive } from "./notifications/NotifierLive.js"
import { OutboxQueueSql } from "./notifications/OutboxQueueSql.js"
import { AccountRepoSql } from "./account/AccountRepoSql.js"
import { AlertRepoSql } from "./admin/AlertRepoSql.js"
import { ApprovalRepoSql } from "./admin/ApprovalRepoSql.js"
import { FreezeRepoSql } from "./admin/FreezeRepoSql.js"
import { MovementResolutionSql } from "./admin/MovementResolutionSql.js"
import { MovementChangeFeedSql } from "./admin/MovementChangeFeedSql.js"
import { StaffDirectorySql } from "./admin/StaffDirectorySql.js"
import { SignInFailuresSql, StaffLinkRepoSql, StaffRepoSql } from "./admin/StaffRepoSql.js"
import { AuditRepoSql, ContentHashLive } from "./admin/AuditRepoSql.js"
import { LedgerSearchSql } from "./admin/LedgerSearchSql.js"
import { DisplayNamesSql } from "./admin/DisplayNamesSql.js"
import { DeletionDeskSql } from "./admin/DeletionDeskSql.js"
import { BalanceMemoSql, CustomerDirectorySql } from "./admin/CustomerDirectorySql.js"
import { CustomerMessageLogSql } from "./admin/CustomerMessageLogSql.js"
import { OverviewStatsSql } from "./admin/OverviewStatsSql.js"
import { SupportRepoSql } from "./support/SupportRepoSql.js"
import { SupportStaffSql } from "./support/SupportStaffSql.js"
import { SettingsStoreSql } from "./settings/SettingsStoreSql.js"
import { OtpRepoSql, RefreshTokenRepoSql } from "./auth/AuthRepoSql.js"
import { PinRepoSql } from "./auth/PinRepoSql.js"
import { SocialIdentityRepoSql } from "./auth/SocialIdentityRepoSql.js"
import { IdentityProviderLive } from "./auth/JoseIdentityProvider.js"
import { ReferralRepoSql } from "./referrals/ReferralRepoSql.js"
import { BeneficiaryRepoSql } from "./beneficiaries/BeneficiaryRepoSql.js"
import { NoticeRepoSql } from "./notifications/NoticeRepoSql.js"
import { PlanRepoSql } from "./plans/PlanRepoSql.js"
import { SpendingRepoSql } from "./spending/SpendingRepoSql.js"
import { AccountErasureSql } from "./lifecycle/AccountErasureSql.js"
import { ClosureRepoSql } from "./lifecycle/ClosureRepoSql.js"
import { TransactionRepoSql } from "./transactions/TransactionRepoSql.js"
import { TransferRepoSql } from "./transfers/TransferRepoSql.js"
import { pgLayer, pgliteLayer } from "./sql/Database.js"
import { UnitOfWorkSql } from "./sql/UnitOfWorkSql.js"
import { LeaseHolderLive } from "./concurrency/LeaseHolder.js"
import { ThrottleStoreSql } from "./shared/ThrottleStoreSql.js"

export const SqlClientLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onNone: () => pgliteLayer(path.join(config.dataDir, "pglite"), { durable: config.durableWrites }),
      onSome: pgLayer
    }))
)

export const MigrationsLive = Layer.effectDiscard(
  runMigrations.pipe(
    Effect.tap((applied) =>
      applied.length === 0
        ? Effect.logDebug("database schema up to date")
        : Effect.logInfo("migrations applied").pipe(Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`)))
    )
  )
)

/** A migrated database on the given client. */
export const databaseLayer = <E, R>(sql: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  MigrationsLive.pipe(Layer.provideMerge(sql))

const RepositoriesLive = Layer.mergeAll(
  SettingsStoreSql,
  AccountRepoSql,
  OtpRepoSql,
  RefreshTokenRepoSql,
  PinRepoSql,
  ReferralRepoSql,
  SocialIdentityRepoSql,
  UnitOfWorkSql,
  TransactionRepoSql,
  BeneficiaryRepoSql,
  TransferRepoSql,
  PlanRepoSql,
  NoticeRepoSql,
  AlertRepoSql,
  StaffDirectorySql,
  StaffRepoSql,
  StaffLinkRepoSql,
  SignInFailuresSql,
  AuditRepoSql,
  FreezeRepoSql,
  ApprovalRepoSql,
  MovementResolutionSql,
  MovementChangeFeedSql,
  LedgerSearchSql,
  DisplayNamesSql,
  DeletionDeskSql,
  CustomerDirectorySql,
  CustomerMessageLogSql,
  BalanceMemoSql,
  OverviewStatsSql,
  SpendingRepoSql,
  SupportRepoSql,
  SupportStaffSql,
  ClosureRepoSql,
  AccountErasureSql,
  OutboxQueueSql,
  ThrottleStoreSql
)

/** ADMIN_FOUR_EYES: whether settings changes and unfreezes wait for a second member of staff. */
const FourEyesLive = Layer.effect(
  StaffAccess.Approvals.FourEyes,
  Effect.map(AppConfig, (config) => ({ enabled: config.adminFourEyes }))
)

/** SIGN_IN_*: the customer sign-in throttle's limits. */
const SignInThrottlePolicyLive = Layer.effect(
  Auth.SignInThrottlePolicy,
  Effect.map(AppConfig, ({ signInThrottle: c }) => ({
    maxFailuresPerAccount: c.maxFailuresPerAccount,
    maxFailuresPerClient: c.maxFailuresPerClient,
    window: Duration.minutes(c.windowMinutes)
  }))
)

/** The per-customer throttles: BVN failures fixed (3 a day), name enquiries NAME_ENQUIRY_MAX_PER_HOUR. */
const ThrottlePolicyLive = Layer.effect(
  Throttle.ThrottlePolicy,
  Effect.map(AppConfig, (config) => ({
    bvn_verification_failure: { max: 3, windowMs: 24 * 60 * 60 * 1000 },
    name_enquiry: { max: config.nameEnquiryMaxPerHour, windowMs: 60 * 60 * 1000 }
  }))
)

const ServicesLive = Layer.mergeAll(
  FourEyesLive,
  SignInThrottlePolicyLive,
  ThrottlePolicyLive,
  IdsLive,
  SecureRandomLive,
  SecretHasherLive,
  PasswordHasherLive,
  AccessTokensLive,
  StaffTokensLive,
  ContentHashLive,
  // messages without a code are queued in notification_outbox; an undelivered one becomes a staff alert
  NotifierLive.pipe(Layer.provideMerge(NotificationTransportsLive), Layer.provide([AlertRepoSql, IdsLive, OutboxQueueSql])),
  IdentityProviderLive
)

/** Every domain port, on the given database client; needs AppConfig. */
export const adaptersLayer = <E, R>(sql: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  Layer.mergeAll(RepositoriesLive, ServicesLive).pipe(
    // the process as a holder of leases (movements, plans): registered, heartbeating
    Layer.provideMerge(LeaseHolderLive),
    Layer.provideMerge(databaseLayer(sql))
  )

export const AdaptersLive = adaptersLayer(SqlClientLive)
