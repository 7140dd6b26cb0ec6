/** The failures the profile handlers answer directly (no domain failure of its own). */
import type { CodeInfo } from "../shared/ErrorTable.js"

export const profileHandlerCodes = {
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    meaning: "A cookie-authenticated change from a web origin not in APP_ORIGINS, or a request the browser marks cross-site"
  }
} as const satisfies Record<string, CodeInfo>
