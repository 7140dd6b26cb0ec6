import {describe, expect, it} from "@effect/vitest"
import {Effect, FastCheck as fc} from "effect"
import * as Auth from "../src/auth/index.js"
import * as Notifications from "../src/notifications/Preferences.js"
import {inMemory, registerAda} from "./support/Fixtures.js"
import {Sent, Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

describe("notification settings", () => {
  it.effect("updates either flag or both, leaves the other, and answers the settings", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      expect(yield* Notifications.updateNotificationSettings(account.id, { smsEnabled: false })).toEqual({ smsEnabled: false, emailEnabled: true })
      expect(yield* Notifications.updateNotificationSettings(account.id, { emailEnabled: false })).toEqual({ smsEnabled: false, emailEnabled: false })
      expect(yield* Notifications.updateNotificationSettings(account.id, { smsEnabled: true, emailEnabled: true })).toEqual({ smsEnabled: true, emailEnabled: true })
      expect((yield* Store.account(account.id)).customer).toMatchObject({ smsEnabled: true, emailEnabled: true })
    })))

  it.effect("neither flag is NoSettingGiven; an unknown account is AccountNotFound", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      expect((yield* Effect.flip(Notifications.updateNotificationSettings(account.id, {})))._tag).toBe("NoSettingGiven")
      expect((yield* Effect.flip(Notifications.updateNotificationSettings(AccountId.make("nobody"), { smsEnabled: true })))._tag).toBe("AccountNotFound")
    })))

  it("mayReceive: optional kinds follow the channel's flag; everything else always goes", () => {
    fc.assert(fc.property(
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom("email" as const, "sms" as const),
      fc.constantFrom(...Notifications.OPTIONAL_KINDS, "password_reset", "email_verification", "action_confirmation", "plan_depleted", "disbursement_failed", "transfer_failed"),
      (smsEnabled, emailEnabled, channel, kind) => {
        const allowed = Notifications.mayReceive({ smsEnabled, emailEnabled }, channel, kind)
        const flag = channel === "email" ? emailEnabled : smsEnabled
        expect(allowed).toBe(Notifications.isOptional(kind) ? flag : true)
      }
    ))
  })

  it.effect("with email off, one-time codes are still emailed; optional mail is not", () =>
    inMemory(Effect.gen(function*() {
      const { account, customer } = yield* registerAda()
      yield* Notifications.updateNotificationSettings(account.id, { emailEnabled: false, smsEnabled: false })
      yield* Auth.sendEmailOtp(account.id)
      expect((yield* Sent.all).map((m) => m.kind)).toEqual(["email_verification"])
      const sent = yield* Notifications.sendOptional(customer.id, { channel: "email", kind: "marketing", subject: "News", text: "Hello" })
      expect(sent).toBe(false)
      yield* Notifications.updateNotificationSettings(account.id, { emailEnabled: true })
      expect(yield* Notifications.sendOptional(customer.id, { channel: "email", kind: "marketing", subject: "News", text: "Hello" })).toBe(true)
      // sms is still off: an optional SMS is not sent
      expect(yield* Notifications.sendOptional(customer.id, { channel: "sms", kind: "marketing", text: "Hello" })).toBe(false)
      expect((yield* Sent.all).map((m) => m.kind)).toEqual(["email_verification", "marketing"])
    })))
})
