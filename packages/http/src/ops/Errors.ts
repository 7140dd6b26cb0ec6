/** The failures the operations endpoints answer directly (no domain failure of their own). */
import type { CodeInfo } from "../shared/ErrorTable.js"

export const opsHandlerCodes = {
  SERVICE_NOT_READY: {
    status: 503,
    meaning:
      "GET /ready: a check failed; `error.checks` gives each check's state (\"ok\" or why not) and `error.failed` names the failing ones (database, migrations, provider)"
  }
} as const satisfies Record<string, CodeInfo>
