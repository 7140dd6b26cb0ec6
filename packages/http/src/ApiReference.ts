/** The API reference (shared/Reference.ts): every feature's operation texts, by operationId. */
import { reference as accountReference } from "./account/Reference.js"
import { reference as adminApprovalsReference } from "./admin/ApprovalsReference.js"
import { reference as adminAttentionReference } from "./admin/AttentionReference.js"
import { reference as adminAuditReference } from "./admin/AuditReference.js"
import { reference as adminCustomersReference } from "./admin/CustomersReference.js"
import { reference as adminDeletionsReference } from "./admin/DeletionsReference.js"
import { reference as adminLedgerReference } from "./admin/LedgerReference.js"
import { reference as adminOpsReference } from "./admin/OpsReference.js"
import { reference as adminOverviewReference } from "./admin/OverviewReference.js"
import { reference as adminReference } from "./admin/Reference.js"
import { reference as adminSupportDeskReference } from "./admin/SupportDeskReference.js"
import { reference as authReference } from "./auth/Reference.js"
import { reference as bankingReference } from "./banking/Reference.js"
import { reference as beneficiariesReference } from "./beneficiaries/Reference.js"
import { reference as lifecycleReference } from "./lifecycle/Reference.js"
import { reference as notificationsReference } from "./notifications/Reference.js"
import { reference as opsReference } from "./ops/Reference.js"
import { reference as plansReference } from "./plans/Reference.js"
import { reference as profileReference } from "./profile/Reference.js"
import { reference as referralsReference } from "./referrals/Reference.js"
import { reference as spendingReference } from "./spending/Reference.js"
import { reference as supportReference } from "./support/Reference.js"
import { reference as transactionsReference } from "./transactions/Reference.js"
import { reference as transfersReference } from "./transfers/Reference.js"
import { parseReference } from "./shared/Reference.js"

/** Every feature's sections; a heading repeated in two files throws too. */
export const apiReference = parseReference(
  [
    accountReference,
    adminApprovalsReference,
    adminAttentionReference,
    adminAuditReference,
    adminCustomersReference,
    adminDeletionsReference,
    adminLedgerReference,
    adminOpsReference,
    adminOverviewReference,
    adminReference,
    adminSupportDeskReference,
    authReference,
    bankingReference,
    beneficiariesReference,
    lifecycleReference,
    notificationsReference,
    opsReference,
    plansReference,
    profileReference,
    referralsReference,
    spendingReference,
    supportReference,
    transactionsReference,
    transfersReference
  ].join("\n")
)
