/** Display helpers: kobo as naira, instants in the browser's time zone. */
const naira = new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2 })

/** "123456" kobo → "₦1,234.56"; exact for any size (BigInt, no float). */
export const kobo = (value: bigint | string | null | undefined): string => {
  if (value === null || value === undefined || value === "") return "—"
  const k = BigInt(value)
  const negative = k < 0n
  const abs = negative ? -k : k
  const whole = abs / 100n
  const cents = (abs % 100n).toString().padStart(2, "0")
  const grouped = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${negative ? "-" : ""}₦${grouped}.${cents}`
}

/** kobo as a number of naira, for charts only (precision to the kobo is not needed on an axis). */
export const nairaNumber = (value: bigint | string): number => Number(value) / 100

export const nairaAxis = (n: number): string =>
  n >= 1_000_000 ? `₦${(n / 1_000_000).toFixed(1)}m` : n >= 1_000 ? `₦${(n / 1_000).toFixed(0)}k` : naira.format(n)

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" })
export const when = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : "—")

export const fullName = (c: { firstName: string | null; lastName: string | null; email: string }) =>
  [c.firstName, c.lastName].filter(Boolean).join(" ") || c.email

export const label = (s: string) => s.replace(/_/g, " ")

/** A UUID's first 8 characters (the full one is in the title); anything else as it is. */
export const shortId = (id: string) => (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(id) ? id.slice(0, 8) : id)
