/**
 * Staff alerts in the back office: the open ones listed (alerts:read), one acknowledged
 * (alerts:ack) by the member who dealt with it, audited.
 */
import { Effect } from "effect"
import { atomically, now } from "../shared/UseCase.js"
import { AlertRepo } from "./Alerts.js"
import * as Audit from "./Audit.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"
import { Failure } from "../shared/Failure.js"
import type { AlertId } from "../shared/Ids.js"

/** No open alert has this id (never raised, or already acknowledged) (404). */
export class AlertNotFound extends Failure("AlertNotFound", {
  status: 404,
  code: "ALERT_NOT_FOUND",
  message: "No open alert has this id",
  meaning: "No open staff alert has this id (unknown, or already acknowledged)"
}) {}

/** GET /admin/alerts: open alerts, most recently raised first. */
export const listOpen = (actor: StaffMember) =>
  Effect.zipRight(requirePermission(actor, "alerts:read"), Effect.flatMap(AlertRepo, (r) => r.listOpen()))

/** POST /admin/alerts/{id}/acknowledge. */
export const acknowledge = (actor: StaffMember, alertId: AlertId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "alerts:ack")
    const repo = yield* AlertRepo
    yield* atomically(
      Effect.gen(function*() {
        if (!(yield* repo.acknowledge(alertId, actor.id, yield* now))) return yield* new AlertNotFound()
        yield* Audit.record({ actorKind: "staff", actorId: actor.id, action: "alert.acknowledge", targetKind: "alert", targetId: alertId })
      })
    )
  })
