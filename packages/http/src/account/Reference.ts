/** The API reference of customers: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## customers.me
Get the signed-in customer's profile

Customer (bearer). The account and customer fields (never a hash), the referral code, hasPin, the
notification settings and the plan; once the bank account exists also coreAccountNumber, pndActive and
the live balance in kobo, as a number under both names the spec uses (balance and balanceKobo).

## customers.requestOtp
Request a code for an OTP-gated action (other path)

Alias of POST /api/v1/auth/otp/request: a code for an OTP-gated action, emailed; returns its pinId.
`
