/**
 * The sandbox's fixed data: the bank list (NIP institution codes), account numbering, the BVN
 * registry and the behaviour of transfer destinations (operations.md, "Sandbox core banking
 * provider", test-data table).
 */
import { randomInt } from "node:crypto"

export interface SandboxBankEntry {
  readonly code: string
  readonly name: string
}

/** The sandbox's own microfinance bank: the bank that holds the accounts it opens. */
export const SANDBOX_BANK: SandboxBankEntry = { code: "999001", name: "Kobo Sandbox Microfinance Bank" }

/** Real names and NIP institution codes; commercial banks first, then microfinance and mobile-money banks. */
export const BANKS: ReadonlyArray<SandboxBankEntry> = [
  { code: "000014", name: "Access Bank" },
  { code: "000009", name: "Citibank Nigeria" },
  { code: "000010", name: "Ecobank Nigeria" },
  { code: "000007", name: "Fidelity Bank" },
  { code: "000016", name: "First Bank of Nigeria" },
  { code: "000003", name: "First City Monument Bank (FCMB)" },
  { code: "000027", name: "Globus Bank" },
  { code: "000013", name: "Guaranty Trust Bank (GTBank)" },
  { code: "000006", name: "Jaiz Bank" },
  { code: "000002", name: "Keystone Bank" },
  { code: "000008", name: "Polaris Bank" },
  { code: "000023", name: "Providus Bank" },
  { code: "000012", name: "Stanbic IBTC Bank" },
  { code: "000021", name: "Standard Chartered Bank" },
  { code: "000001", name: "Sterling Bank" },
  { code: "000022", name: "SunTrust Bank" },
  { code: "000026", name: "TAJ Bank" },
  { code: "000025", name: "Titan Trust Bank" },
  { code: "000018", name: "Union Bank of Nigeria" },
  { code: "000004", name: "United Bank for Africa (UBA)" },
  { code: "000011", name: "Unity Bank" },
  { code: "000017", name: "Wema Bank" },
  { code: "000015", name: "Zenith Bank" },
  { code: "090134", name: "Accion Microfinance Bank" },
  { code: "090267", name: "Kuda Microfinance Bank" },
  { code: "090177", name: "LAPO Microfinance Bank" },
  { code: "090405", name: "Moniepoint Microfinance Bank" },
  { code: "090175", name: "Rubies Microfinance Bank" },
  { code: "090110", name: "VFD Microfinance Bank" },
  { code: "100004", name: "OPay Digital Services (OPay)" },
  { code: "100033", name: "PalmPay" },
  SANDBOX_BANK
]

const bankCodes = new Set(BANKS.map((b) => b.code))

export const isListedBank = (code: string): boolean => bankCodes.has(code)

export const isTenDigits = (s: string): boolean => /^[0-9]{10}$/.test(s)

/**
 * NUBAN check digit (CBN standard, as revised for 6-digit institution codes): weights 3,7,3
 * repeated over the institution code followed by the 9-digit serial; check = (10 − sum mod 10) mod 10.
 */
export const nubanCheckDigit = (institutionCode: string, serial: string): number => {
  const digits = `${institutionCode}${serial}`
  let sum = 0
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * [3, 7, 3][i % 3]!
  return (10 - (sum % 10)) % 10
}

export const isValidNuban = (accountNumber: string, institutionCode = SANDBOX_BANK.code): boolean =>
  isTenDigits(accountNumber) &&
  nubanCheckDigit(institutionCode, accountNumber.slice(0, 9)) === Number(accountNumber[9])

/** The sandbox bank's account number for the n-th account (n ≥ 1): serial 100000000 + n, plus check digit. */
export const accountNumberFor = (n: bigint): string => {
  const serial = String(100_000_000n + n)
  if (serial.length !== 9) throw new Error("sandbox account serials exhausted")
  return `${serial}${nubanCheckDigit(SANDBOX_BANK.code, serial)}`
}

// -------------------------------------------------------------------------------------------------
// BVN registry
// -------------------------------------------------------------------------------------------------

export interface BvnEntry {
  readonly bvn: string
  readonly firstName: string
  readonly lastName: string
  readonly phone: string
  readonly dateOfBirth: string
}

export const isBvnShaped = (bvn: string): boolean => /^[0-9]{11}$/.test(bvn)

/** `undefined` = not found. Call with an 11-digit BVN. */
export const lookupBvn = (bvn: string): BvnEntry | undefined => {
  if (bvn === "00000000000") return undefined
  if (bvn === "11111111111") {
    return { bvn, firstName: "Chidi", lastName: "Okeke", phone: "08031111111", dateOfBirth: "1985-05-15" }
  }
  return { bvn, firstName: "Ada", lastName: "Obi", phone: "08030000000", dateOfBirth: "1990-01-01" }
}

// -------------------------------------------------------------------------------------------------
// Name enquiry and transfer destinations
// -------------------------------------------------------------------------------------------------

/** A name enquiry answers "found" for any 10-digit number at a listed bank, except numbers starting 999. */
export const isReachableDestination = (accountNumber: string, bankCode: string): boolean =>
  isListedBank(bankCode) && isTenDigits(accountNumber) && !accountNumber.startsWith("999")

export const genericAccountName = (accountNumber: string): string => `SANDBOX ACCOUNT ${accountNumber.slice(-4)}`

/**
 * How a transfer to a destination behaves, by its last four digits:
 * - `pendingThenSuccessful` (0002): answers "09"; the 2nd requery and later answer Successful;
 * - `failsAtOnce` (0003): answers "57", nothing leaves the settlement account;
 * - `failsAndRefusesReversal` (0007): fails as 0003 does, and the bank then refuses ("57") to credit
 *   the customer back: a credit whose reference is this transfer's with another first letter (the
 *   service's references of one movement differ only in their prefix: T… transfer, R… reversal) is
 *   refused, and stored so (a repeat answers it again, a requery says Failed). The money stays in
 *   the settlement account until staff credit it back by hand (under another reference);
 * - `slowSuccess` (0004): applied at once, but the answer comes after `slowTransferDelayMs`;
 * - `pendingThenFailed` (0005): answers "09"; requeries 1–3 answer Pending, the 4th and later
 *   Failed, and the money returns to the settlement account;
 * - `malfunctionAfterSuccess` (0006): applied at once (the money is paid out, requery answers
 *   Successful), but the call answers "96" System malfunction (HTTP 200);
 * - `immediate`: anything else, "00" at once.
 */
export type DestinationBehaviour =
  | "immediate"
  | "pendingThenSuccessful"
  | "failsAtOnce"
  | "slowSuccess"
  | "pendingThenFailed"
  | "malfunctionAfterSuccess"
  | "failsAndRefusesReversal"

export const destinationBehaviour = (accountNumber: string): DestinationBehaviour => {
  switch (accountNumber.slice(-4)) {
    case "0002":
      return "pendingThenSuccessful"
    case "0003":
      return "failsAtOnce"
    case "0004":
      return "slowSuccess"
    case "0005":
      return "pendingThenFailed"
    case "0006":
      return "malfunctionAfterSuccess"
    case "0007":
      return "failsAndRefusesReversal"
    default:
      return "immediate"
  }
}

/** Requeries a 0002 transfer needs before it answers Successful. */
export const REQUERIES_UNTIL_SUCCESS = 2
/** Requeries a 0005 transfer answers Pending before the next one answers Failed. */
export const PENDING_REQUERIES_BEFORE_FAILURE = 3

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("")

const pad2 = (n: number) => String(n).padStart(2, "0")

/** A 30-digit NIP session id: originating institution (6) + yyMMddHHmmss (12) + 12 random digits. */
export const newSessionId = (now: Date = new Date()): string =>
  SANDBOX_BANK.code +
  pad2(now.getUTCFullYear() % 100) + pad2(now.getUTCMonth() + 1) + pad2(now.getUTCDate()) +
  pad2(now.getUTCHours()) + pad2(now.getUTCMinutes()) + pad2(now.getUTCSeconds()) +
  digits(12)

/** Who an inbound (test) deposit comes from. */
export const DEPOSITOR = {
  name: "SANDBOX DEPOSITOR",
  accountNumber: "0123456789",
  bankCode: "000013"
} as const
