/** The API reference of auth, oauth: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## auth.register
Register a customer account

Public. Creates an account and its customer (customerStatus unverified) from an email and a password of
8 to 128 characters; the other fields are optional, a phone number is Nigerian (+2348031234567 or
08031234567). A referralCode links the new customer to whoever referred them (unknown code: 400). Then
send and verify the email code (POST /otp/email/send, /otp/email/verify) to get tokens. 400 PHONE_TAKEN
or EMAIL_TAKEN.

## auth.sendEmailOtp
Send the email verification code

Public. Emails a 6-digit code, valid 10 minutes, to the account's email; no code id is returned (verify
with accountId and the code). 400 NO_EMAIL_ON_FILE; 429 OTP_COOLDOWN while a code is still outstanding
(60 seconds) or after 5 codes in 15 minutes (Retry-After).

## auth.verifyEmailOtp
Verify the email with its code

While the account is not yet verified (customerStatus unverified) the answer is {accessToken,
refreshToken}; once it is, a code verifies and answers {}: a code never signs in an account that was
already verified. 10 wrong codes within 24 hours for one account (every purpose together) lock its code
checks: 429 OTP_LOCKED.

## auth.sendPhoneOtp
Send the phone verification code

Public. Sends a 6-digit code by SMS to the account's phone number; not part of the required registration
flow. 400 NO_PHONE_ON_FILE; 429 OTP_COOLDOWN while a code is still outstanding (60 seconds) or after 5
codes in 15 minutes (Retry-After).

## auth.verifyPhoneOtp
Verify the phone number with its code

While the account is not yet verified (customerStatus unverified) the answer is {accessToken,
refreshToken}; once it is, a code verifies and answers {}: a code never signs in an account that was
already verified. 10 wrong codes within 24 hours for one account (every purpose together) lock its code
checks: 429 OTP_LOCKED.

## auth.login
Sign in with email or phone and password

Throttled before any password is checked: 5 failures for one account (or an email or phone with no
account) or 50 from one client address within 15 minutes (SIGN_IN_* settings) answer 429
SIGN_IN_THROTTLED with Retry-After.

## auth.refreshToken
Exchange a refresh token for a new token pair

Public. A new access token (valid 15 minutes) and refresh token; the refresh token sent is spent (single
use: sending it again answers 401 INVALID_REFRESH_TOKEN). Also sets the app_token cookie. 403
ACCOUNT_SUSPENDED for a suspended account.

## auth.token
Exchange a refresh token for an access token

Public. A new access token only (valid 15 minutes); the refresh token is not rotated. 401
INVALID_REFRESH_TOKEN when it is missing, unknown, expired, revoked or already used.

## auth.checkEmail
Check that an email is free to register

Public. 200 when no account has this email, 400 EMAIL_TAKEN when one has.

## auth.forgotPassword
Send a password reset code

Public. Emails a 6-digit reset code (valid 10 minutes) to the account with this email; send it to POST
/reset-password. 400 ACCOUNT_NOT_FOUND for an unknown email; 429 OTP_COOLDOWN while a code is still
outstanding (60 seconds) or after 5 codes in 15 minutes (Retry-After).

## auth.resetPassword
Reset the password with the emailed code

Public. Sets a new password (8 to 128 characters) with the code from POST /forgot-password. 401
OTP_INVALID when the code is wrong, expired or spent; 400 PASSWORD_REUSED when it is the current
password; 429 OTP_LOCKED after 10 wrong codes within 24 hours.

## auth.requestOtp
Request a code for an OTP-gated action

Customer (bearer). Emails a 6-digit code to the registered email and returns its pinId: send both, as
otpPinId and otpCode, to an OTP-gated operation (change password, PIN reset, beneficiary removal, plan
PATCH, close account, delete account). 400 NO_EMAIL_ON_FILE; 429 OTP_COOLDOWN while a code is still
outstanding (60 seconds) or after 5 codes in 15 minutes.

## auth.setPassword
Set a first password

A first password for an account created by social sign-in (409 when one is set).

## auth.changePassword
Change the password

Customer (bearer), OTP-gated (otpPinId and otpCode from POST /otp/request). Checks the current password
and sets a new one of 8 to 128 characters. 401 INVALID_CREDENTIALS (wrong current password) or
OTP_INVALID; 400 PASSWORD_REUSED, or NO_PASSWORD_SET for an account made by social sign-in (use POST
/set-password).

## auth.setPin
Set or change the transaction PIN

Customer (bearer). Sets the 4-digit transaction PIN; changing one already set needs currentPin (400
CURRENT_PIN_REQUIRED without it, 401 PIN_INCORRECT when wrong). Wrong PINs count towards the lock: 5
lock tries for 15 minutes (423 PIN_LOCKED); 3 lockouts within 24 hours freeze the account for staff to
review.

## auth.verifyPin
Check the transaction PIN

Customer (bearer). Checks the 4-digit transaction PIN before a sensitive action. 401 PIN_INCORRECT; 5
wrong PINs lock tries for 15 minutes (423 PIN_LOCKED, even for the right PIN); 3 lockouts within 24
hours freeze the account for staff to review. 400 PIN_NOT_SET before a PIN is set.

## auth.resetPin
Reset the transaction PIN with a code

Customer (bearer), OTP-gated: sets a new 4-digit transaction PIN without the current one, with otpPinId
and otpCode from POST /otp/request. 401 OTP_INVALID when the code is wrong, expired or spent.

## oauth.socialSignIn
Sign in with the identity provider

Signs in with the identity provider: \`idToken\` from a mobile app or \`code\` from the web. A new email
creates a verified customer without a password (\`referralCode\` applied); an existing one signs in.
hasPin false: send the user to set a PIN first. Also sets the app_token cookie.
`
