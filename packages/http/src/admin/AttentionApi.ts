/** The HTTP contract of "needs attention": GET /admin/attention. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { success } from "../shared/Envelope.js"
import { StaffAuthentication } from "../shared/Security.js"
import { ApprovalView } from "./ApprovalsApi.js"
import { LedgerEntryView } from "./LedgerApi.js"
import { AlertView } from "./OpsApi.js"
import { StaffTicketView } from "./SupportDeskApi.js"
import * as AdminEx from "./Examples.js"

const Counted = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.NullOr(Schema.Struct({ count: Schema.Number, items: Schema.Array(item) })).annotations({
    description: "how many, and the first few; null when the member's role may not see this kind"
  })

export const AttentionView = Schema.Struct({
  /** the sum of the counts the member sees */
  total: Schema.Number,
  alerts: Counted(AlertView),
  approvals: Counted(Schema.Struct({ ...ApprovalView.fields, requestedByName: Schema.NullOr(Schema.String) })),
  movements: Counted(LedgerEntryView),
  tickets: Counted(StaffTicketView)
}).annotations({ examples: [AdminEx.attention] })

export class AdminAttentionApi extends HttpApiGroup.make("adminAttention")
  .add(
    HttpApiEndpoint.get("attention", "/attention")
      .addSuccess(success("Admin", AttentionView))
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
  .annotate(OpenApi.Title, "Admin needs attention")
{}
