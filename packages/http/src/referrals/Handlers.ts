import { HttpApiBuilder } from "@effect/platform"
import { Referrals } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { referralSummaryView } from "./Views.js"

export const ReferralHandlers = HttpApiBuilder.group(Api, "referrals", (handlers) =>
  handlers.handle("referrals", () =>
    Effect.flatMap(signedIn, Referrals.referralSummary).pipe(Effect.map(referralSummaryView), mapDomainErrors("Customer"))))
