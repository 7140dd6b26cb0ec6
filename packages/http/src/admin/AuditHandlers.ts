import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { auditEntryView, auditIds } from "./AuditApi.js"
import { named } from "./Names.js"
import { dayWindow } from "./LedgerHandlers.js"

const audit = mapDomainErrors("Admin")

export const AdminAuditHandlers = HttpApiBuilder.group(Api, "adminAudit", (handlers) =>
  handlers
    .handle("list", ({ urlParams: { from, page, pageSize, to, ...filter } }) =>
      Effect.flatMap(CurrentStaff, (actor) =>
        StaffAccess.Audit.browse(
          actor,
          { ...filter, ...dayWindow(from, to) },
          { page, pageSize }
        )).pipe(Effect.flatMap(named((p) => p.items.flatMap(auditIds), (p, names) => pageView(p, (e) => auditEntryView(e, names)))),
          audit
        ))
    .handle("verify", () => Effect.flatMap(CurrentStaff, StaffAccess.Audit.verifyFor).pipe(audit)))
