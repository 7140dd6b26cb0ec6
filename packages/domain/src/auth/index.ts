/**
 * Identity: registration, verification, sign-in, sessions, one-time codes, passwords and the
 * transaction PIN.
 */
export { accessTokenFor, authenticate, type Authenticator, authenticator, authenticatorAllowingSuspended, login, type LoginInput, rotateRefreshToken, SignInThrottlePolicy, TokenPolicy } from "./Sessions.js"
export { OtpBudget } from "./Otp.js"
export { checkEmailAvailable, createCustomer, type NewCustomerInput, register, type RegisterInput } from "./Registration.js"
export { sendEmailOtp, sendPhoneOtp, verifyEmailOtp, verifyPhoneOtp } from "./Verification.js"
export { passOtpGate, requestActionOtp } from "./OtpGate.js"
export { changePassword, forgotPassword, resetPassword, setPassword } from "./Passwords.js"
export { type SocialCredential, socialSignIn, type SocialSignInInput } from "./SocialSignIn.js"
export { freezeForPinLockouts, hasPin, PIN_FREEZE_REASON, resetPin, setPin, verifyPin } from "./Pin.js"
export { isPinFormat, PinPolicy } from "./PinLockout.js"
