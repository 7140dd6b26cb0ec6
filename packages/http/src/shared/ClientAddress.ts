/** Where a request came from: the client address behind trusted proxies (admin and customer sign-in throttles). */
import { HttpServerRequest } from "@effect/platform"
import { AppConfig } from "@app/adapters"
import { Effect, Option } from "effect"
import { isIP } from "node:net"

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

export const clientAddress = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { trustedProxies } = yield* AppConfig
  return clientAddressOf(Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"], trustedProxies)
})

