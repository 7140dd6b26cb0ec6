import {describe, expect, it} from "@effect/vitest"
import {Effect} from "effect"
import * as Profiles from "../src/account/Profile.js"
import {ADA, inMemory, registerAda} from "./support/Fixtures.js"
import {Store} from "./support/InMemory.js"
import { AccountId } from "../src/shared/Ids.js"

describe("the user profile", () => {
  it.effect("name: the chosen display name, else first and last name, else the email's local part", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      expect((yield* Profiles.getUserProfile(account.id)).name).toBe("Ada Obi")
      yield* Store.patchAccount(account.id, { firstName: null, lastName: null })
      expect((yield* Profiles.getUserProfile(account.id)).name).toBe("ada")
      yield* Profiles.updateUserProfile(account.id, { name: "Mama Ada" })
      expect(yield* Profiles.getUserProfile(account.id)).toEqual({
        id: account.id,
        name: "Mama Ada",
        email: ADA.email,
        whatsappNumber: null,
        isAdmin: false,
        createdAt: account.createdAt
      })
    })))

  it.effect("updates only what is given; a null whatsappNumber clears it; legal names and phone stay", () =>
    inMemory(Effect.gen(function*() {
      const { account } = yield* registerAda()
      yield* Profiles.updateUserProfile(account.id, { whatsappNumber: "+2348099999999" })
      yield* Profiles.updateUserProfile(account.id, { name: "Ada O." })
      expect(yield* Profiles.getUserProfile(account.id)).toMatchObject({ name: "Ada O.", whatsappNumber: "+2348099999999" })
      yield* Profiles.updateUserProfile(account.id, { whatsappNumber: null })
      expect((yield* Profiles.getUserProfile(account.id)).whatsappNumber).toBeNull()
      const stored = (yield* Store.account(account.id)).account
      expect(stored).toMatchObject({ firstName: "Ada", lastName: "Obi", phone: ADA.phone })
      expect((yield* Effect.flip(Profiles.updateUserProfile(AccountId.make("nobody"), { name: "x" })))._tag).toBe("AccountNotFound")
    })))
})
