import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect, Schema } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { pageView } from "../shared/Paging.js"
import { CurrentStaff } from "../shared/Security.js"
import { approvalView } from "./ApprovalsApi.js"
import { ResolutionView } from "./LedgerApi.js"
import { resolutionView } from "./LedgerHandlers.js"

const admin = mapDomainErrors("Admin")
const { Approvals } = StaffAccess

export const AdminApprovalsHandlers = HttpApiBuilder.group(Api, "adminApprovals", (handlers) =>
  handlers
    .handle("list", ({ urlParams: { page, pageSize, status } }) =>
      Effect.flatMap(CurrentStaff, (actor) => Approvals.list(actor, status, { page, pageSize })).pipe(
        Effect.map((p) => pageView(p, approvalView)),
        admin
      ))
    .handle("approve", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => Approvals.approve(actor, path.id)).pipe(
        Effect.map(({ approval, result }) => ({
          approval: approvalView(approval),
          result: "setting" in result ? result.setting : "resolution" in result
            // `result` is free-form JSON: the resolution goes out as its own endpoint encodes it
            ? Schema.encodeSync(ResolutionView)(resolutionView(result.resolution)) : result.unfreeze
        })),
        admin
      ))
    .handle("reject", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => Approvals.reject(actor, path.id, payload.note ?? null)).pipe(
        Effect.map(approvalView),
        admin
      )))
