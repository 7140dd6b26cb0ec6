/**
 * Referral codes: what a customer's code is made of.
 */

/** Unambiguous characters only (no 0/O, 1/I/L), so codes survive being read aloud. */
export const REFERRAL_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
export const REFERRAL_CODE_LENGTH = 8
