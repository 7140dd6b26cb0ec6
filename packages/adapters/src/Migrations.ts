/**
 * The one ordered set of migrations, shared by PGlite and PostgreSQL, one file each under
 * `migrations/`. The @effect/sql Migrator records only the highest applied id, so ids are unique and
 * only ever appended: a new migration is a new file with the next id, added here.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import m0001_accounts from "./migrations/0001_accounts.js"
import m0002_banking from "./migrations/0002_banking.js"
import m0003_transfers from "./migrations/0003_transfers.js"
import m0004_app_settings from "./migrations/0004_app_settings.js"
import m0005_plans from "./migrations/0005_plans.js"
import m0006_staff_alerts from "./migrations/0006_staff_alerts.js"
import m0007_saga_fencing from "./migrations/0007_saga_fencing.js"
import m0008_transaction_pin from "./migrations/0008_transaction_pin.js"
import m0009_referrals from "./migrations/0009_referrals.js"
import m0010_social_identities from "./migrations/0010_social_identities.js"
import m0011_user_profile from "./migrations/0011_user_profile.js"
import m0012_staff from "./migrations/0012_staff.js"
import m0013_spendings from "./migrations/0013_spendings.js"
import m0014_support_tickets from "./migrations/0014_support_tickets.js"
import m0015_account_lifecycle from "./migrations/0015_account_lifecycle.js"
import m0016_notification_outbox from "./migrations/0016_notification_outbox.js"
import m0017_staff_access from "./migrations/0017_staff_access.js"
import m0018_audit_log from "./migrations/0018_audit_log.js"
import m0019_customer_directory from "./migrations/0019_customer_directory.js"
import m0020_deletion_review from "./migrations/0020_deletion_review.js"
import m0021_freezes_and_approvals from "./migrations/0021_freezes_and_approvals.js"
import m0022_movement_audit_feed from "./migrations/0022_movement_audit_feed.js"
import m0023_movement_feed_trigger_cost from "./migrations/0023_movement_feed_trigger_cost.js"
import m0024_transactions_room_for_updates from "./migrations/0024_transactions_room_for_updates.js"
import m0027_movement_resolutions from "./migrations/0027_movement_resolutions.js"
import m0029_plan_whole_pot_and_fee_caps from "./migrations/0029_plan_whole_pot_and_fee_caps.js"
import m0030_auth_hardening from "./migrations/0030_auth_hardening.js"
import m0033_customer_attempts from "./migrations/0033_customer_attempts.js"
import m0035_lease_holders from "./migrations/0035_lease_holders.js"
import m0036_payout_holds from "./migrations/0036_payout_holds.js"
import m0037_bankone_requests from "./migrations/0037_bankone_requests.js"
import m0040_one_throttle_table from "./migrations/0040_one_throttle_table.js"
import m0041_erased_core_account_digest from "./migrations/0041_erased_core_account_digest.js"
import m0042_staff_last_sign_in from "./migrations/0042_staff_last_sign_in.js"
import m0044_outbox_by_recipient from "./migrations/0044_outbox_by_recipient.js"

export const migrations = Migrator.fromRecord({
  "0001_accounts": m0001_accounts,
  "0002_banking": m0002_banking,
  "0003_transfers": m0003_transfers,
  "0004_app_settings": m0004_app_settings,
  "0005_plans": m0005_plans,
  "0006_staff_alerts": m0006_staff_alerts,
  "0007_saga_fencing": m0007_saga_fencing,
  "0008_transaction_pin": m0008_transaction_pin,
  "0009_referrals": m0009_referrals,
  "0010_social_identities": m0010_social_identities,
  "0011_user_profile": m0011_user_profile,
  "0012_staff": m0012_staff,
  "0013_spendings": m0013_spendings,
  "0014_support_tickets": m0014_support_tickets,
  "0015_account_lifecycle": m0015_account_lifecycle,
  "0016_notification_outbox": m0016_notification_outbox,
  "0017_staff_access": m0017_staff_access,
  "0018_audit_log": m0018_audit_log,
  "0019_customer_directory": m0019_customer_directory,
  "0020_deletion_review": m0020_deletion_review,
  "0021_freezes_and_approvals": m0021_freezes_and_approvals,
  "0022_movement_audit_feed": m0022_movement_audit_feed,
  "0023_movement_feed_trigger_cost": m0023_movement_feed_trigger_cost,
  "0024_transactions_room_for_updates": m0024_transactions_room_for_updates,
  "0027_movement_resolutions": m0027_movement_resolutions,
  "0029_plan_whole_pot_and_fee_caps": m0029_plan_whole_pot_and_fee_caps,
  "0030_auth_hardening": m0030_auth_hardening,
  "0033_customer_attempts": m0033_customer_attempts,
  "0035_lease_holders": m0035_lease_holders,
  "0036_payout_holds": m0036_payout_holds,
  "0037_bankone_requests": m0037_bankone_requests,
  "0040_one_throttle_table": m0040_one_throttle_table,
  "0041_erased_core_account_digest": m0041_erased_core_account_digest,
  "0042_staff_last_sign_in": m0042_staff_last_sign_in,
  "0044_outbox_by_recipient": m0044_outbox_by_recipient
})

/** A fixed key for PostgreSQL's advisory lock around creating the migrations table ("kobo" in ASCII). */
const MIGRATION_LOCK = 0x6b6f626f

/**
 * Applies every pending migration; returns the ids and names applied by this run. Several processes
 * may start at once on one fresh database (two APIs and a scheduler). The Migrator serialises its
 * runs by locking its table, but creates that table first, unlocked: it looks the table up and, not
 * finding it, creates it, so two processes that both look before either creates it both create it,
 * and the second fails. The table is therefore created here first, in a transaction holding an
 * advisory lock (same definition as the Migrator's); the Migrator then finds it and takes its lock.
 */
export const runMigrations = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.withTransaction(
    sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.pipe(
      Effect.zipRight(sql`
        CREATE TABLE IF NOT EXISTS effect_sql_migrations (
          migration_id integer primary key,
          created_at timestamp with time zone not null default now(),
          name text not null
        )`)
    )
  ).pipe(Effect.zipRight(Migrator.make({})({ loader: migrations }))))
