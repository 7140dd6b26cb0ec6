/**
 * The HTTP contract (HttpApi): the groups of every feature folder, combined. Each feature folder has
 * its Api (endpoints with their request and response schemas), Views, Handlers (decode, done by the
 * schemas; call a use case; encode) and Errors (its domain failures → status, code and message).
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { CustomersApi } from "./account/Api.js"
import { AdminAuthApi, AdminStaffApi } from "./admin/Api.js"
import { AdminAuditApi } from "./admin/AuditApi.js"
import { AdminOpsApi } from "./admin/OpsApi.js"
import { AdminLedgerApi } from "./admin/LedgerApi.js"
import { AdminOverviewApi } from "./admin/OverviewApi.js"
import { AdminSupportApi } from "./admin/SupportDeskApi.js"
import { AdminCustomersApi } from "./admin/CustomersApi.js"
import { AdminDeletionsApi } from "./admin/DeletionsApi.js"
import { AdminApprovalsApi } from "./admin/ApprovalsApi.js"
import { AdminAttentionApi } from "./admin/AttentionApi.js"
import { AuthApi, OAuthApi } from "./auth/Api.js"
import { BanksApi, DepositsApi, KycApi, WebhooksApi } from "./banking/Api.js"
import { BeneficiariesApi } from "./beneficiaries/Api.js"
import { NotificationsApi } from "./notifications/Api.js"
import { LifecycleApi } from "./lifecycle/Api.js"
import { OpsApi } from "./ops/Api.js"
import { PlansApi } from "./plans/Api.js"
import { ProfileApi } from "./profile/Api.js"
import { ReferralsApi } from "./referrals/Api.js"
import { SupportApi } from "./support/Api.js"
import { RequestTimedOut } from "./edge/Errors.js"
import { InternalError, ValidationError } from "./shared/ApiErrors.js"
import { errors } from "./shared/Envelope.js"
import { documentFailures } from "./shared/OpenApiDoc.js"
import { describeOperations } from "./shared/Reference.js"
import { apiReference } from "./ApiReference.js"
import { Authentication } from "./shared/Security.js"
import { SpendingsApi } from "./spending/Api.js"
import { TransactionsApi } from "./transactions/Api.js"
import { TransfersApi } from "./transfers/Api.js"

export class Api extends HttpApi.make("kobo-plans")
  .add(AuthApi)
  .add(OAuthApi)
  .add(KycApi.middleware(Authentication))
  .add(CustomersApi)
  .add(NotificationsApi)
  .add(ReferralsApi)
  .add(DepositsApi.middleware(Authentication))
  .add(TransfersApi.middleware(Authentication))
  .add(TransactionsApi)
  .add(BanksApi)
  .add(BeneficiariesApi.middleware(Authentication))
  .add(PlansApi)
  .add(WebhooksApi)
  .add(ProfileApi)
  .add(AdminAuthApi)
  .add(AdminStaffApi)
  .add(AdminAuditApi)
  .add(AdminOpsApi)
  .add(AdminLedgerApi)
  .add(AdminOverviewApi)
  .add(AdminSupportApi)
  .add(AdminCustomersApi)
  .add(AdminDeletionsApi)
  .add(AdminApprovalsApi)
  .add(AdminAttentionApi)
  .add(SpendingsApi)
  .add(SupportApi)
  .add(LifecycleApi)
  .add(OpsApi)
  // what any operation can answer (ErrorMiddleware, edge/RequestTimeout.ts): bad input, a defect,
  // the request time limit; each endpoint declares the failures of its own (`errors(…)`)
  .addError(errors(ValidationError, InternalError, RequestTimedOut))
  .annotate(OpenApi.Title, "Custodial savings and scheduled disbursement service")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.Transform, (spec) => documentFailures(describeOperations(apiReference)(spec)))
  .annotate(
    OpenApi.Description,
    "Every response uses the envelope `{apiObject, code, status, message, result}`. Every failure also " +
      "carries `error`: an object with a stable machine-readable `code` (branch on it, never on the message) " +
      "and any detail. Each operation lists the codes it can answer; the last section, Error codes, lists them all."
  )
{}
