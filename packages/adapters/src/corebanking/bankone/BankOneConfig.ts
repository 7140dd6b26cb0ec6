/**
 * The settings of the BankOne adapter (`BANKONE_*`, docs/bankone.md section 2), read with Effect
 * `Config` and validated at start-up with the rest of AppConfig. Outside production every value has a
 * development default (the embedded sandbox accepts them); in production with
 * CORE_BANKING_PROVIDER=bankone every required one must be set and the token must be a real secret.
 */
import { Config, Option, Redacted } from "effect"

export type CoreBankingProvider = "generic" | "bankone"

export interface BankOneSettings {
  /** BankOne's API token: `AuthenticationCode`, `Token` or `authtoken` depending on the call */
  readonly token: Redacted.Redacted<string>
  /** the 6-digit BankOne institution code (`NibssCode` of postings) */
  readonly institutionCode: string
  /** the Customer-to-GL e-channels service code of debits (4 digits) */
  readonly settlementGlCode: string
  /** the GL-to-Customer service code of credits (default: the settlement GL code) */
  readonly creditGlCode: string
  /** the savings product of new accounts */
  readonly productCode: string
  /** the account officer of new accounts */
  readonly accountOfficerCode: string
  /** the pool account NIP transfers are paid from (`PayerAccountNumber`), and its name (`Payer`) */
  readonly payoutAccountNumber: string
  readonly payoutAccountName: string
  /** AppZone's fee account, when the bank was given one (`AppzoneAccount`); none = not sent */
  readonly appzoneAccount: Option.Option<string>
  /** least time between two status queries of one reference, and after its posting (documented: 60 s) */
  readonly tsqIntervalMs: number
}

/** The development token of the embedded sandbox's BankOne dialect (refused in production). */
export const DEVELOPMENT_BANKONE_TOKEN = "development-bankone-token-not-for-production"

export const BankOneDevelopmentDefaults = {
  institutionCode: "100000",
  settlementGlCode: "1000",
  productCode: "101",
  accountOfficerCode: "001",
  payoutAccountNumber: "1100000001",
  payoutAccountName: "KOBO PLANS PAYOUTS"
} as const

/** docs/bankone.md B26 */
export const DOCUMENTED_TSQ_INTERVAL_MS = 60_000

const required = (name: string, production: boolean, fallback: string, pattern: RegExp, what: string) =>
  Config.string(name).pipe(
    Config.map((s) => s.trim()),
    production ? (c) => c : Config.withDefault(fallback),
    Config.validate({ message: `${name}: must be ${what}`, validation: (s) => pattern.test(s) })
  )

/**
 * CORE_BANKING_PROVIDER: `generic` or `bankone`. Unset, it follows SANDBOX_DIALECT (so
 * `SANDBOX_DIALECT=bankone npm start` runs the embedded sandbox AND the adapter in BankOne's dialect);
 * both unset: generic.
 */
export const coreBankingProviderConfig: Config.Config<CoreBankingProvider> = Config.literal("generic", "bankone")(
  "CORE_BANKING_PROVIDER"
).pipe(
  Config.orElse(() => Config.literal("generic", "bankone")("SANDBOX_DIALECT")),
  Config.withDefault("generic" as const)
)

/** The BANKONE_* settings; `production` = APP_ENV=production AND the provider is bankone. */
export const bankOneConfig = (production: boolean): Config.Config<BankOneSettings> =>
  Config.all({
    token: Config.redacted("BANKONE_TOKEN").pipe(
      production ? (c) => c : Config.withDefault(Redacted.make(DEVELOPMENT_BANKONE_TOKEN)),
      Config.validate({
        message: production
          ? "BANKONE_TOKEN: must be the institution's real API token (at least 32 characters, not the development value)"
          : "BANKONE_TOKEN: must be at least 32 characters",
        validation: (value) =>
          Redacted.value(value).length >= 32 && (!production || Redacted.value(value) !== DEVELOPMENT_BANKONE_TOKEN)
      })
    ),
    institutionCode: required(
      "BANKONE_INSTITUTION_CODE",
      production,
      BankOneDevelopmentDefaults.institutionCode,
      /^\d{6}$/,
      "the 6-digit BankOne institution code"
    ),
    settlementGlCode: required(
      "BANKONE_SETTLEMENT_GL_CODE",
      production,
      BankOneDevelopmentDefaults.settlementGlCode,
      /^\d{4}$/,
      "the 4-digit Customer-to-GL service code (E-channels Operations)"
    ),
    creditGlCode: Config.option(Config.string("BANKONE_CREDIT_GL_CODE").pipe(
      Config.map((s) => s.trim()),
      Config.validate({
        message: "BANKONE_CREDIT_GL_CODE: must be the 4-digit GL-to-Customer service code",
        validation: (s) => /^\d{4}$/.test(s)
      })
    )),
    productCode: required(
      "BANKONE_PRODUCT_CODE",
      production,
      BankOneDevelopmentDefaults.productCode,
      /^[A-Za-z0-9]{1,20}$/,
      "the savings product code of new accounts (letters and digits)"
    ),
    accountOfficerCode: required(
      "BANKONE_ACCOUNT_OFFICER_CODE",
      production,
      BankOneDevelopmentDefaults.accountOfficerCode,
      /^[A-Za-z0-9]{1,20}$/,
      "the account officer code of new accounts (letters and digits)"
    ),
    payoutAccountNumber: required(
      "BANKONE_PAYOUT_ACCOUNT_NUMBER",
      production,
      BankOneDevelopmentDefaults.payoutAccountNumber,
      /^\d{10}$/,
      "the 10-digit account NIP transfers are paid from"
    ),
    payoutAccountName: Config.string("BANKONE_PAYOUT_ACCOUNT_NAME").pipe(
      Config.withDefault(BankOneDevelopmentDefaults.payoutAccountName),
      Config.map((s) => s.trim()),
      Config.validate({ message: "BANKONE_PAYOUT_ACCOUNT_NAME: must not be blank", validation: (s) => s.length > 0 })
    ),
    appzoneAccount: Config.option(Config.string("BANKONE_APPZONE_ACCOUNT").pipe(
      Config.map((s) => s.trim()),
      Config.validate({ message: "BANKONE_APPZONE_ACCOUNT: must be a 10-digit account number", validation: (s) => /^\d{10}$/.test(s) })
    )),
    tsqIntervalMs: Config.integer("BANKONE_TSQ_INTERVAL_MS").pipe(
      Config.withDefault(DOCUMENTED_TSQ_INTERVAL_MS),
      Config.validate({
        message: `BANKONE_TSQ_INTERVAL_MS: must be between 0 and 3600000 (at least ${DOCUMENTED_TSQ_INTERVAL_MS} in production)`,
        validation: (n) => n >= 0 && n <= 3_600_000 && (!production || n >= DOCUMENTED_TSQ_INTERVAL_MS)
      })
    )
  }).pipe(
    Config.map(({ creditGlCode, ...rest }) => ({
      ...rest,
      creditGlCode: Option.getOrElse(creditGlCode, () => rest.settlementGlCode)
    }))
  )

/** The development settings (tests, and the embedded sandbox when nothing is set). */
export const developmentBankOneSettings = (overrides: Partial<BankOneSettings> = {}): BankOneSettings => ({
  token: Redacted.make(DEVELOPMENT_BANKONE_TOKEN),
  ...BankOneDevelopmentDefaults,
  creditGlCode: BankOneDevelopmentDefaults.settlementGlCode,
  appzoneAccount: Option.none(),
  tsqIntervalMs: DOCUMENTED_TSQ_INTERVAL_MS,
  ...overrides
})
