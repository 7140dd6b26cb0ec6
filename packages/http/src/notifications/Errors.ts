/** The failures of notification settings, over HTTP. */
import type { NoSettingGiven } from "@app/domain"
import { validationDetail, VALIDATION_MESSAGE } from "../shared/Envelope.js"
import type { Catalogue, ErrorTable } from "../shared/ErrorTable.js"

export type NotificationError = NoSettingGiven

export const NO_SETTING_MESSAGE = "Provide smsEnabled, emailEnabled or both"

export const notificationErrors = {
  // about the request as a whole: a formError, as the schema's own check answers it
  NoSettingGiven: () => ({
    status: 400 as const,
    code: "VALIDATION_ERROR" as const,
    message: VALIDATION_MESSAGE,
    detail: validationDetail({}, [NO_SETTING_MESSAGE])
  })
} satisfies ErrorTable<NotificationError>

/** notificationErrors answers only VALIDATION_ERROR (a shared code). */
export const notificationCodes = {} satisfies Catalogue<typeof notificationErrors>
