/**
 * Whether the names a customer gives match the BVN registry's (docs/decisions/bvn-name-match.md).
 *
 * Each name is normalised: Unicode NFKD with combining marks removed (diacritics: "Àdà" is "ada"),
 * lower-cased, apostrophes and dots dropped ("O'Brien" is "obrien"), every other character that is
 * not a letter or a digit (spaces, hyphens, commas) read as a space, and runs of spaces collapsed.
 * The customer's first and last name then match the registry's when either
 * - their words, first and last name together, are the same multiset as the registry's (any
 *   order, and across the two fields: "Okeke" / "Chidi" matches Chidi / Okeke), or
 * - written without any spaces, the first name followed by the last equals the registry's first
 *   followed by last, or last followed by first (spacing: "MaryJane" / "Doe" matches Mary Jane / Doe).
 * Nothing else is forgiven: a missing, extra or misspelt word, or an initial, is a mismatch.
 */

const normalise = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’‘`.]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

const words = (first: string, last: string): ReadonlyArray<string> =>
  `${normalise(first)} ${normalise(last)}`.split(" ").filter((w) => w !== "").sort()

const joined = (...names: ReadonlyArray<string>) => names.map(normalise).join("").replace(/ /g, "")

export interface PersonName {
  readonly firstName: string
  readonly lastName: string
}

export const namesMatch = (given: PersonName, registry: PersonName): boolean => {
  const mine = words(given.firstName, given.lastName)
  const theirs = words(registry.firstName, registry.lastName)
  if (mine.length === 0 || theirs.length === 0) return false
  if (mine.length === theirs.length && mine.every((w, i) => w === theirs[i])) return true
  const compact = joined(given.firstName, given.lastName)
  return compact === joined(registry.firstName, registry.lastName) || compact === joined(registry.lastName, registry.firstName)
}
