import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { CurrentStaff } from "../shared/Security.js"
import { approvalView } from "./ApprovalsApi.js"
import { named } from "./Names.js"
import { alertView } from "./OpsApi.js"

const admin = mapDomainErrors("Admin")

export const AdminOpsHandlers = HttpApiBuilder.group(Api, "adminOps", (handlers) =>
  handlers
    .handle("listSettings", () => Effect.flatMap(CurrentStaff, StaffAccess.AdminSettings.list).pipe(admin))
    .handle("updateSetting", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Approvals.updateSetting(actor, path.key, payload.value)).pipe(
        Effect.map((r) => r._tag === "Done" ? r.result : { pendingApproval: approvalView(r.approval) }),
        admin
      ))
    .handle("listAlerts", () =>
      Effect.flatMap(CurrentStaff, StaffAccess.AlertDesk.listOpen).pipe(
        Effect.flatMap(named((all) => all.map((a) => a.customerId), (all, names) => all.map((a) => alertView(a, names)))),
        admin
      ))
    .handle("acknowledgeAlert", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.AlertDesk.acknowledge(actor, path.id)).pipe(Effect.as({}), admin)))
