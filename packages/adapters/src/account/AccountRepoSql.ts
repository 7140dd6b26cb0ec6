import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { Account, AccountId, AccountRepo, Customer, CustomerId, UniqueViolation, type AccountWithCustomer } from "@app/domain"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { decodeRows, instanceOf, orDieDb, uniqueViolation } from "../sql/SqlSupport.js"

/**
 * One row of accounts JOIN customers: every account column, then the customer's columns, with the
 * customer's id and timestamps renamed so they do not collide with the account's. It decodes every
 * field with the schema of the class's own field, so the Account and Customer are made without
 * validating again (`instanceOf`, SqlSupport.ts).
 */
const JoinedRow = Schema.Struct({
  ...Account.fields,
  ...Struct.omit(Customer.fields, "id", "accountId", "createdAt", "updatedAt"),
  customerId: CustomerId,
  customerCreatedAt: Schema.DateFromSelf,
  customerUpdatedAt: Schema.DateFromSelf
})

const accountKeys = Object.keys(Account.fields) as Array<keyof typeof Account.fields>
const customerKeys = Object.keys(Customer.fields) as Array<keyof typeof Customer.fields>

const toDomain = (r: typeof JoinedRow.Type): AccountWithCustomer => ({
  account: instanceOf(Account, Struct.pick(r, ...accountKeys)),
  customer: instanceOf(
    Customer,
    Struct.pick(
      { ...r, id: r.customerId, accountId: r.id, createdAt: r.customerCreatedAt, updatedAt: r.customerUpdatedAt },
      ...customerKeys
    )
  )
})

/**
 * A unique violation as the port's UniqueViolation, on the field of the first `[word, field]` whose
 * word the violated constraint's name contains; any other failure is a defect.
 */
const uniqueOn = (fields: ReadonlyArray<readonly [string, UniqueViolation["field"]]>) => (error: SqlError) => {
  const constraint = uniqueViolation(error)
  const field = constraint === undefined ? undefined : fields.find(([word]) => constraint.includes(word))?.[1]
  return field === undefined ? Effect.die(error) : Effect.fail(new UniqueViolation({ field }))
}

export const AccountRepoSql = Layer.effect(
  AccountRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decode = decodeRows(JoinedRow)
    const decodeStanding = decodeRows(Schema.Struct(Struct.pick(Customer.fields, "customerStatus", "coreAccountNumber")))

    const selectJoined = (where: Statement.Fragment) =>
      sql`
        SELECT a.*, c.id AS customer_id, c.customer_status, c.kyc_status, c.referral_code, c.referred_by,
               c.pin_hash, c.sms_enabled, c.email_enabled,
               c.bvn_hash, c.core_account_number, c.core_account_reference, c.first_deposit_at,
               c.created_at AS customer_created_at, c.updated_at AS customer_updated_at
        FROM accounts a JOIN customers c ON c.account_id = a.id
        WHERE ${where}`.pipe(
        Effect.flatMap(decode),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toDomain)),
        orDieDb
      )

    const exists = (where: Statement.Fragment) =>
      sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM accounts WHERE ${where}) AS found`.pipe(
        Effect.map((rows) => rows[0]?.found === true),
        orDieDb
      )

    return AccountRepo.of({
      create: ({ account, customer }) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO accounts ${
            sql.insert({
              id: account.id,
              email: account.email,
              phone: account.phone,
              passwordHash: account.passwordHash,
              firstName: account.firstName,
              lastName: account.lastName,
              otherNames: account.otherNames,
              dateOfBirth: account.dateOfBirth,
              gender: account.gender,
              address: account.address,
              emailVerified: account.emailVerified,
              phoneVerified: account.phoneVerified,
              createdAt: account.createdAt,
              updatedAt: account.updatedAt
            })
          }`
          yield* sql`INSERT INTO customers ${
            sql.insert({
              id: customer.id,
              accountId: customer.accountId,
              customerStatus: customer.customerStatus,
              kycStatus: customer.kycStatus,
              referralCode: customer.referralCode,
              referredBy: customer.referredBy,
              pinHash: customer.pinHash,
              smsEnabled: customer.smsEnabled,
              emailEnabled: customer.emailEnabled,
              bvnHash: customer.bvnHash,
              coreAccountNumber: customer.coreAccountNumber,
              coreAccountReference: customer.coreAccountReference,
              firstDepositAt: customer.firstDepositAt,
              createdAt: customer.createdAt,
              updatedAt: customer.updatedAt
            })
          }`
        })).pipe(
          Effect.catchTag("SqlError", uniqueOn([["email", "email"], ["phone", "phone"], ["referral", "referralCode"]]))
        ),
      findById: (accountId) => selectJoined(sql`a.id = ${accountId}`),
      findByEmail: (email) => selectJoined(sql`a.email = ${email}`),
      findByPhone: (phone) => selectJoined(sql`a.phone = ${phone}`),
      emailExists: (email) => exists(sql`email = ${email}`),
      phoneExists: (phone) => exists(sql`phone = ${phone}`),
      markEmailVerified: (accountId, now) =>
        orDieDb(sql`UPDATE accounts SET email_verified = true, updated_at = ${now} WHERE id = ${accountId}`),
      markPhoneVerified: (accountId, now) =>
        orDieDb(sql`UPDATE accounts SET phone_verified = true, updated_at = ${now} WHERE id = ${accountId}`),
      transitionStatus: (accountId, from, to, now) =>
        orDieDb(sql`
          UPDATE customers SET customer_status = ${to}, updated_at = ${now}
          WHERE account_id = ${accountId} AND customer_status = ${from}`),
      setPasswordHash: (accountId, hash, now) =>
        orDieDb(sql`UPDATE accounts SET password_hash = ${hash}, updated_at = ${now} WHERE id = ${accountId}`),
      resetUnprovenSetup: (accountId, now) =>
        Effect.zipRight(
          sql`
            UPDATE accounts SET password_hash = NULL, phone = NULL, phone_verified = false, email_verified = true,
              session_version = session_version + 1, updated_at = ${now}
            WHERE id = ${accountId}`,
          sql`
            UPDATE customers SET pin_hash = NULL,
              customer_status = CASE WHEN customer_status = 'unverified' THEN 'verified' ELSE customer_status END,
              updated_at = ${now}
            WHERE account_id = ${accountId}`
        ).pipe(Effect.asVoid, orDieDb),
      setFirstPasswordHash: (accountId, hash, now) =>
        sql`
          UPDATE accounts SET password_hash = ${hash}, updated_at = ${now}
          WHERE id = ${accountId} AND password_hash IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      setBvnVerified: (accountId, details, now) =>
        sql.withTransaction(Effect.gen(function*() {
          const updated = yield* sql`
            UPDATE customers SET bvn_hash = ${details.bvnHash}, kyc_status = 'bvn_verified', updated_at = ${now}
            WHERE account_id = ${accountId} AND kyc_status = 'pending'
            RETURNING id`
          if (updated.length === 0) return false
          // a changed phone number has not been verified
          yield* sql`
            UPDATE accounts SET
              first_name = ${details.firstName},
              last_name = ${details.lastName},
              phone_verified = (phone_verified AND phone IS NOT DISTINCT FROM ${details.phone}),
              phone = ${details.phone},
              address = ${details.address},
              gender = ${details.gender},
              date_of_birth = ${details.dateOfBirth},
              updated_at = ${now}
            WHERE id = ${accountId}`
          return true
        })).pipe(
          Effect.catchTag("SqlError", uniqueOn([["bvn_hash", "bvnHash"], ["phone", "phone"]]))
        ),
      findByBvnHash: (bvnHash) => selectJoined(sql`c.bvn_hash = ${bvnHash}`),
      setCoreAccount: (accountId, core, now) =>
        sql`
          UPDATE customers
          SET core_account_number = ${core.accountNumber}, core_account_reference = ${core.reference}, updated_at = ${now}
          WHERE account_id = ${accountId} AND core_account_number IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      findByCoreAccountNumber: (accountNumber) => selectJoined(sql`c.core_account_number = ${accountNumber}`),
      findDeletedByCoreAccountDigest: (digest) =>
        selectJoined(sql`c.erased_core_account_digest = ${digest} AND c.customer_status = 'deleted'`),
      findByCustomerId: (customerId) => selectJoined(sql`c.id = ${customerId}`),
      findStanding: (customerId) =>
        sql`SELECT customer_status, core_account_number FROM customers WHERE id = ${customerId}`.pipe(
          Effect.flatMap(decodeStanding),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          orDieDb
        ),
      listWithBankAccount: (afterAccountId, limit) =>
        sql<{ accountId: AccountId; accountNumber: string }>`
          SELECT account_id, core_account_number AS account_number FROM customers
          WHERE core_account_number IS NOT NULL
            AND customer_status <> 'deleted'
            ${afterAccountId === null ? sql`` : sql`AND account_id > ${afterAccountId}`}
          ORDER BY account_id
          LIMIT ${limit}`.pipe(orDieDb),
      markFirstDeposit: (accountId, at, now) =>
        sql`
          UPDATE customers SET first_deposit_at = ${at}, updated_at = ${now}
          WHERE account_id = ${accountId} AND first_deposit_at IS NULL
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), orDieDb),
      setProfile: (accountId, patch, now) =>
        sql`
          UPDATE accounts
          SET display_name = COALESCE(${patch.displayName ?? null}::text, display_name),
              whatsapp_number = ${patch.whatsappNumber === undefined ? sql`whatsapp_number` : sql`${patch.whatsappNumber}::text`},
              updated_at = ${now}
          WHERE id = ${accountId}`.pipe(Effect.asVoid, orDieDb),
      setNotificationSettings: (accountId, patch, now) =>
        sql`
          UPDATE customers
          SET sms_enabled = COALESCE(${patch.smsEnabled ?? null}::boolean, sms_enabled),
              email_enabled = COALESCE(${patch.emailEnabled ?? null}::boolean, email_enabled),
              updated_at = ${now}
          WHERE account_id = ${accountId}`.pipe(Effect.asVoid, orDieDb)
    })
  })
)
