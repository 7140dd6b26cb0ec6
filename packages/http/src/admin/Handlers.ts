import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { StaffAccess } from "@app/domain"
import { Effect, Option } from "effect"
import { isIP } from "node:net"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { CurrentStaff } from "../shared/Security.js"
import { sessionView, staffView } from "./Views.js"

const admin = mapDomainErrors("Admin")

/** One spelling per address: trimmed, lower case, IPv4-mapped IPv6 (`::ffff:10.0.0.1`) as plain IPv4. */
const plainAddress = (address: string) => address.trim().toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1")

/**
 * Where a request came from, for the sign-in throttle. The TCP peer, unless the peer is one of
 * `trustedProxies` (TRUSTED_PROXIES): then X-Forwarded-For is read from the right, skipping trusted
 * proxies, and the first address that is not one is the client (what the last trusted proxy saw;
 * entries to its left are whatever the client sent and are never believed). All hops trusted: the
 * left-most. A hop that is not an IP address (a misconfigured proxy): the peer, so nobody picks their
 * own throttle key. From an untrusted peer the header is ignored: anyone can forge it.
 */
export const clientAddressOf = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: ReadonlyArray<string>
): string => {
  if (peer === undefined) return "unknown"
  const trusted = new Set(trustedProxies.map(plainAddress))
  const direct = plainAddress(peer)
  if (!trusted.has(direct) || forwardedFor === undefined) return direct
  const hops = forwardedFor.split(",").map(plainAddress).filter((h) => h.length > 0)
  if (hops.length === 0) return direct
  const client = [...hops].reverse().find((h) => !trusted.has(h)) ?? hops[0]!
  return isIP(client) === 0 ? direct : client
}

const clientAddress = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { trustedProxies } = yield* AppConfig
  return clientAddressOf(Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"], trustedProxies)
})

export const AdminAuthHandlers = HttpApiBuilder.group(Api, "adminAuth", (handlers) =>
  handlers
    .handle("signIn", ({ payload }) =>
      Effect.flatMap(clientAddress, (client) => StaffAccess.signIn({ ...payload, client })).pipe(Effect.map(sessionView), admin))
    .handle("openLink", ({ path }) =>
      StaffAccess.openLink(path.token).pipe(Effect.map((l) => ({ ...l, expiresAt: l.expiresAt.toISOString() })), admin))
    .handle("useLink", ({ path, payload }) => StaffAccess.useLink(path.token, payload.password).pipe(Effect.map(sessionView), admin)))

export const AdminStaffHandlers = HttpApiBuilder.group(Api, "adminStaff", (handlers) =>
  handlers
    .handle("me", () => Effect.map(CurrentStaff, (m) => { const me = StaffAccess.me(m); return { ...me, createdAt: me.createdAt.toISOString() } }))
    .handle("invite", ({ payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.invite(actor, payload)).pipe(Effect.map(staffView), admin))
    .handle("sendLink", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.sendLinkTo(actor, path.id, payload ?? {})).pipe(
        Effect.map(({ purpose, staff }) => ({ purpose, admin: staffView(staff) })),
        admin
      )))
