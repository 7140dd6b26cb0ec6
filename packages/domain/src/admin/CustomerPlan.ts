/**
 * A customer's plan in the back office, readable: the plan (status, cycles, per-cycle amount, next
 * due, destination with the bank's name) with what the customer page needs besides: the NIP fee (with
 * VAT) the next payout is charged (the plan's fee cap applies: plans/Activation.ts `payoutFee`), and
 * how much of Borrow and Extra Cash the plan has used against today's caps.
 */
import type { CustomerId } from "../shared/Ids.js"
import { Effect, Option } from "effect"
import { payoutFee } from "../plans/Activation.js"
import type { Plan } from "../plans/Model.js"
import { PlanRepo } from "../plans/Ports.js"
import { findPlan, instalmentAmount } from "../plans/Queries.js"
import * as Schedule from "../plans/Schedule.js"
import * as Settings from "../settings/Settings.js"
import type { Kobo } from "../shared/Money.js"
import { now } from "../shared/UseCase.js"
import { AdminCustomerNotFound, CustomerDirectory } from "./Customers.js"
import { requirePermission } from "./Permissions.js"
import type { StaffMember } from "./StaffModel.js"

export interface CustomerPlan {
  readonly plan: Plan
  /** the NIP fee with VAT debited with the next regular payout */
  readonly perCycleFeeKobo: Kobo
  readonly borrow: { readonly used: number; readonly cap: number }
  /** the uses of Extra Cash today and in all, with the rules in force (Settings.ExtraCashSetting) */
  readonly extraCash: Settings.ExtraCashRules & { readonly usedToday: number; readonly usedTotal: number }
}

/** GET /admin/customers/{id}/plan (customers:read): the open plan, else the latest completed one; null when none. */
export const plan = (actor: StaffMember, customerId: CustomerId) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "customers:read")
    if (Option.isNone(yield* (yield* CustomerDirectory).find(customerId))) return yield* new AdminCustomerNotFound()
    const found = yield* findPlan(customerId)
    if (Option.isNone(found)) return null
    const p = found.value
    const nip = yield* Settings.get(Settings.NipFees)
    const rules = yield* Settings.get(Settings.ExtraCashSetting)
    const repo = yield* PlanRepo
    const today = Schedule.localDayBounds(yield* now, p.timeZone).start
    const cycle = Math.min(p.nextCycle, Math.max(p.cycleCount - 1, 0))
    return {
      plan: p,
      perCycleFeeKobo: payoutFee(p, cycle, instalmentAmount(p), nip),
      borrow: { used: p.borrowCount, cap: yield* Settings.get(Settings.BorrowCap) },
      extraCash: {
        ...rules,
        usedToday: yield* repo.countMovements(p.id, "early_withdrawal", today),
        usedTotal: yield* repo.countMovements(p.id, "early_withdrawal", null)
      }
    } satisfies CustomerPlan
  })
