/**
 * Staff for admin endpoint tests: a test server whose first superadmin comes from
 * ADMIN_BOOTSTRAP_*, signing in, and members of any role invited and signed in through their link.
 */
import type { AppConfigShape } from "@app/adapters"
import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { api, expectSuccess, post, uniqueEmail } from "./Fixtures.js"
import { lastCode, testServer } from "./TestServer.js"

export const ROOT = { email: "root@kobo.test", password: "the root's long password" } as const

/** The test server with ROOT as the bootstrapped superadmin. */
export const adminServer = (config: Partial<AppConfigShape> = {}) =>
  testServer({ adminBootstrap: Option.some({ email: ROOT.email, password: Redacted.make(ROOT.password) }), ...config })

export const adminSignIn = (email: string, password: string) => post("/api/v1/admin/auth/sign-in", { email, password })

export const rootToken = Effect.map(adminSignIn(ROOT.email, ROOT.password), (r) => expectSuccess(r, { apiObject: "Admin" }).token as string)

export const adminGet = (url: string, token?: string) => api("GET", url, undefined, token)

export interface Member {
  readonly id: string
  readonly email: string
  readonly password: string
  readonly token: string
}

/** Invites a member of `role` as root and signs them in through their invite link. */
export const member = (role: "superadmin" | "admin" | "support" | "officer") =>
  Effect.gen(function*() {
    const email = uniqueEmail(role)
    const invited = expectSuccess(
      yield* post("/api/v1/admin/admins", { email, firstName: "Ngozi", lastName: "Eze", role }, yield* rootToken),
      { status: 201, apiObject: "Admin", message: "Invitation sent." }
    )
    const password = `${role} long password`
    const session = expectSuccess(yield* post(`/api/v1/admin/auth/links/${lastCode(email, "staff_invite")}`, { password }), {
      apiObject: "Admin"
    })
    return { id: invited.id as string, email, password, token: session.token as string } satisfies Member
  })

/** A customer's confirmed manual transfer to the sandbox's GTBank account (what the ledger then shows). */
export const sandboxTransfer = (token: string, amountKobo: number, accountNumber = "0123450001") =>
  Effect.map(
    post("/api/v1/transactions/transfer", {
      destinationAccountNumber: accountNumber,
      destinationBankCode: "000013",
      destinationBankName: "GTBank",
      destinationAccountName: "SANDBOX ACCOUNT 0001",
      amountKobo,
      idempotencyKey: randomUUID()
    }, token),
    (r) => expectSuccess(r, { apiObject: "Transaction" })
  )
