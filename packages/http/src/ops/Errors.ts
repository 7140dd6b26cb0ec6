/** The failures the operations endpoints answer directly (no domain failure of their own). */
import { Failure } from "@app/domain"

export class ServiceNotReady extends Failure("ServiceNotReady", {
  status: 503,
  code: "SERVICE_NOT_READY",
  message: "Service not ready",
  meaning:
    "GET /ready: a check failed; `error.checks` gives each check's state (\"ok\" or why not) and `error.failed` names the failing ones (database, migrations, provider)"
})<{ readonly checks: Readonly<Record<string, string>>; readonly failed: ReadonlyArray<string> }> {
  override answer() {
    return { ...super.answer(), detail: { checks: this.checks, failed: this.failed } }
  }
}
