/** The HTTP contract of referrals: GET /customers/referrals (the code itself is applied by register and social sign-in). */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AccountNotFound } from "@app/domain"
import { errors, success } from "../shared/Envelope.js"
import { Authentication } from "../shared/Security.js"
import { ReferralSummaryView } from "./Views.js"

export class ReferralsApi extends HttpApiGroup.make("referrals")
  .add(
    HttpApiEndpoint.get("referrals", "/referrals")
      .addSuccess(success("Customer", ReferralSummaryView))
      .addError(errors(AccountNotFound))
  )
  .middleware(Authentication)
  .prefix("/api/v1/customers")
  .annotate(OpenApi.Title, "Referrals")
{}
