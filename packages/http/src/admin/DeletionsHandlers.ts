import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { deletionView } from "./DeletionsApi.js"

const admin = mapDomainErrors("Admin")

export const AdminDeletionsHandlers = HttpApiBuilder.group(Api, "adminDeletions", (handlers) =>
  handlers
    .handle("list", ({ urlParams: { page, pageSize, status } }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Deletions.list(actor, status, { page, pageSize })).pipe(
        Effect.map((p) => pageView(p, deletionView)),
        admin
      ))
    .handle("review", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.Deletions.review(actor, path.id, payload?.note ?? null)).pipe(
        Effect.map(deletionView),
        admin
      )))
