/** The HTTP contract of the back office's dashboard: GET /admin/overview. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { CustomerStatus, KoboString, KycStatus, PermissionDenied, StaffAccess } from "@app/domain"
import { Schema } from "effect"
import { errors, success } from "../shared/Envelope.js"
import { IntParam } from "../shared/Paging.js"
import { Body } from "../shared/Schemas.js"
import { StaffAuthentication } from "../shared/Security.js"
import * as AdminEx from "./Examples.js"

const { defaultDays, maxDays, minDays } = StaffAccess.Overview.OverviewPolicy

const Flow = Schema.Struct({ count: Schema.Number, amountKobo: KoboString })
const Outflow = Schema.Struct({ ...Flow.fields, feeKobo: KoboString })
const countsOf = <K extends string>(keys: ReadonlyArray<K>) =>
  Schema.Struct(Object.fromEntries(keys.map((k) => [k, Schema.Number])) as { [P in K]: typeof Schema.Number })

const FiguresView = Schema.Struct({
  signUps: Schema.Number,
  deposits: Flow,
  moneyOut: Schema.Struct({ manualTransfer: Outflow, disbursement: Outflow, earlyWithdrawal: Outflow }),
  disbursements: Schema.Struct({ paid: Schema.Number, failed: Schema.Number })
})

export const OverviewView = Schema.Struct({
  days: Schema.Number,
  from: Schema.String,
  to: Schema.String,
  asOf: Schema.String,
  customers: Schema.Struct({
    total: Schema.Number,
    byStatus: countsOf(CustomerStatus.literals),
    byKyc: countsOf(KycStatus.literals)
  }),
  pending: Flow,
  activePlans: Schema.Number,
  totals: FiguresView,
  series: Schema.Array(Schema.Struct({ date: Schema.String, ...FiguresView.fields }))
}).annotations({ examples: [AdminEx.overview] })

const OverviewQuery = Body({
  days: Schema.optionalWith(
    IntParam("days", minDays, maxDays).annotations({
      description: `whole UTC days in the window, today included: ${minDays} to ${maxDays} (default ${defaultDays})`,
      examples: [AdminEx.overview.days]
    }),
    { exact: true, default: () => defaultDays }
  )
})

export class AdminOverviewApi extends HttpApiGroup.make("adminOverview")
  .add(
    HttpApiEndpoint.get("overview", "/overview")
      .setUrlParams(OverviewQuery)
      .addSuccess(success("Admin", OverviewView))
  )
  // every endpoint here checks a permission of the member's role
  .addError(errors(PermissionDenied))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
  .annotate(OpenApi.Title, "Admin overview")
{}
