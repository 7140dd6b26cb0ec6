/**
 * A staff member created active, with a password, by a superadmin (the operator CLI's
 * `admin create`): for when the invite email cannot reach them, or a second superadmin is needed at
 * once. Unlike an invite no link is sent; the password is argon2id like every staff password, of
 * 12 to 128 characters, and never stored or audited in clear.
 */
import { Data, Effect, Redacted } from "effect"
import { isEmail, normalizeEmail } from "../shared/Email.js"
import { PasswordHasher } from "../shared/Ports.js"
import { atomically, now } from "../shared/UseCase.js"
import * as Audit from "./Audit.js"
import { requirePermission } from "./Permissions.js"
import { type InviteInput, publicStaff, StaffPolicy } from "./StaffAccess.js"
import { StaffMember } from "./StaffModel.js"
import { StaffRepo } from "./StaffPorts.js"
import { staffAction } from "./StaffAudit.js"
import { withSpan } from "../shared/Spans.js"
import { StaffId, newId } from "../shared/Ids.js"

/** The longest staff password accepted (as on the admin API). */
export const STAFF_PASSWORD_MAX_LENGTH = 128

/** A new member's email, name or password that cannot be used; the message says which and why. */
export class InvalidStaffInput extends Data.TaggedError("InvalidStaffInput")<{ readonly message: string }> {}

export interface CreateInput extends InviteInput {
  readonly password: Redacted.Redacted<string>
}

const check = (input: CreateInput) => {
  const length = Redacted.value(input.password).length
  if (!isEmail(normalizeEmail(input.email))) return new InvalidStaffInput({ message: "enter a valid email address" })
  if (input.firstName.trim() === "" || input.lastName.trim() === "") return new InvalidStaffInput({ message: "first and last name are required" })
  if (length < StaffPolicy.passwordMinLength || length > STAFF_PASSWORD_MAX_LENGTH) {
    return new InvalidStaffInput({ message: `the password must be ${StaffPolicy.passwordMinLength} to ${STAFF_PASSWORD_MAX_LENGTH} characters` })
  }
  return null
}

/**
 * A new active member with a password (staff:invite, superadmin only), audited as `staff.create`
 * under the actor. StaffEmailTaken when another member has the email (nothing stored).
 */
export const createWithPassword = (actor: StaffMember, input: CreateInput) =>
  Effect.gen(function*() {
    yield* requirePermission(actor, "staff:invite")
    const invalid = check(input)
    if (invalid !== null) return yield* invalid
    const at = yield* now
    const member = new StaffMember({
      id: yield* newId(StaffId),
      email: normalizeEmail(input.email),
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      role: input.role,
      status: "active",
      passwordHash: yield* (yield* PasswordHasher).hash(input.password),
      createdAt: at,
      updatedAt: at
    })
    yield* atomically(
      Effect.zipRight(
        (yield* StaffRepo).create(member),
        staffAction(actor, "staff.create", member.id, {
          after: { email: Audit.maskContact(member.email), role: member.role, status: member.status }
        })
      )
    )
    return publicStaff(member)
  }).pipe(withSpan("StaffAccess.createWithPassword"))
