/** The API reference of notifications: each operation's summary and description (shared/Reference.ts). */
export const reference = `
## notifications.updateNotifications
Change notification preferences

Turns optional messages (reports, marketing, referral news) on or off per channel. One-time codes and
statements about the customer's money are always sent.
`
