/** The API reference of profile: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## profile.getProfile
Get the web user profile

Customer, authenticated by the app_token cookie (set at sign-in) instead of a bearer header: id, name,
email, whatsappNumber (+234 form, null when none), isAdmin and createdAt.

## profile.updateProfile
Update the web user profile

Changes the display name and the WhatsApp number (null clears it). Refused (403 ORIGIN_NOT_ALLOWED) from
a web origin not in APP_ORIGINS, or when the browser marks the request cross-site.
`
