/**
 * The one ordered set of migrations, shared by PGlite and PostgreSQL, one file each under
 * `migrations/`. The @effect/sql Migrator records only the highest applied id, so ids are unique and
 * only ever appended: a new migration is a new file with the next id, added here.
 */
import * as Migrator from "@effect/sql/Migrator"
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
  "0012_staff": m0012_staff
})

/** Applies every pending migration; returns the ids and names applied by this run. */
export const runMigrations = Migrator.make({})({ loader: migrations })
