import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { CurrentStaff } from "../shared/Security.js"

export const AdminOverviewHandlers = HttpApiBuilder.group(Api, "adminOverview", (handlers) =>
  handlers.handle("overview", ({ urlParams }) =>
    Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Overview.overview(actor, urlParams.days)).pipe(
      Effect.map((o) => ({ ...o, asOf: o.asOf.toISOString() })),
      mapDomainErrors("Admin")
    )))
