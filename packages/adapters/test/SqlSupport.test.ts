import { Account, Customer, Instalment, Plan, Transaction, Transfer } from "@app/domain"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Equal, FastCheck, Hash, Schema } from "effect"
import { instanceOf } from "../src/sql/SqlSupport.js"

/** Every class the repositories make with `instanceOf` (decodeInstances, TransferRepo.updateCurrent, AccountRepo). */
const classes: ReadonlyArray<readonly [string, { readonly prototype: object }]> = [
  ["Transfer", Transfer],
  ["Plan", Plan],
  ["Instalment", Instalment],
  ["Transaction", Transaction],
  ["Account", Account],
  ["Customer", Customer]
]

describe("instanceOf", () => {
  for (const [name, Class] of classes) {
    it(`makes the same ${name} its constructor makes without validating`, () => {
      const schema = Class as unknown as Schema.Schema<object>
      FastCheck.assert(
        FastCheck.property(Arbitrary.make(schema), (sample) => {
          const fields = { ...sample }
          const made = instanceOf(Class, fields)
          const constructed = new (Class as unknown as new(f: object, disable: true) => object)({ ...sample }, true)
          expect(made).toBeInstanceOf(Class)
          expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(constructed))
          expect(Reflect.ownKeys(made)).toEqual(Reflect.ownKeys(constructed))
          // as equal as a second constructed copy is (a NaN field makes neither equal)
          const twin = new (Class as unknown as new(f: object, disable: true) => object)({ ...sample }, true)
          expect(Equal.equals(made, constructed)).toBe(Equal.equals(twin, constructed))
          expect(Hash.hash(made)).toBe(Hash.hash(constructed))
          expect(Schema.encodeSync(schema)(made)).toEqual(Schema.encodeSync(schema)(constructed))
          // a copy: the fields given are not the instance
          expect(made).not.toBe(fields)
        }),
        { numRuns: 50 }
      )
    })
  }

  it("tells a changed field apart, as the constructor's instances do", () => {
    const [sample] = FastCheck.sample(Arbitrary.make(Transfer), 1)
    const made = instanceOf(Transfer, { ...sample!, restored: !sample!.restored })
    expect(Equal.equals(made, new Transfer({ ...sample! }, true))).toBe(false)
  })
})
