/** Staff members for domain tests: active, without a password, numbered so that ids differ. */
import { StaffMember, type StaffRole } from "../../src/admin/StaffModel.js"
import { StaffId } from "../../src/shared/Ids.js"

/** The n-th member (n < 10⁶) of `role`: id …-0000000000n, email `<role><n>@kobo.test`. */
export const activeStaff = (role: StaffRole, n: number, overrides: Partial<ConstructorParameters<typeof StaffMember>[0]> = {}) =>
  new StaffMember({
    id: StaffId.make(`00000000-0000-4000-8000-${String(n).padStart(12, "0")}`),
    email: `${role}${n}@kobo.test`,
    firstName: "Staff",
    lastName: String(n),
    role,
    status: "active",
    passwordHash: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides
  })
