/**
 * The client's IP address for the audit trail and sign-in throttling, never taken on a client's
 * word. `X-Forwarded-For` is any client's to write, so it counts only behind proxies the operator
 * names in VERDICT_TRUSTED_PROXIES:
 * - unset, empty or 0: no proxy in front. The request proxy (proxy.ts) drops the client's header so
 *   Next fills it with the socket's address, and marks the request (PEER_MARK_HEADER) with this
 *   process's secret; a request without the mark (a route the proxy does not see) has no known IP;
 * - a number N: N proxies in front, each appending the address it received the request from; the
 *   client is the N-th address from the right (the leftmost when there are fewer);
 * - a list of addresses ("10.0.0.2, 10.0.0.3"): the proxies themselves; the client is the
 *   rightmost address that is not one of them.
 * Pure (no Node-only import): the proxy runs it too.
 */
import { env } from "../env";

export const PEER_MARK_HEADER = "x-verdict-peer";

export type TrustedProxies =
  { kind: "none" } | { kind: "hops"; hops: number } | { kind: "addresses"; addresses: ReadonlySet<string> };

export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const text = (value ?? "").trim();
  if (text === "" || text === "0") return { kind: "none" };
  if (/^\d+$/.test(text)) return { kind: "hops", hops: Number(text) };
  return {
    kind: "addresses",
    addresses: new Set(
      text
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(normalizeAddress),
    ),
  };
}

export function trustedProxies(): TrustedProxies {
  return parseTrustedProxies(env().VERDICT_TRUSTED_PROXIES);
}

/** The secret the proxy marks requests with, one per process (the proxy and the routes share it). */
export function peerMark(): string {
  const holder = globalThis as typeof globalThis & { __verdictPeerMark?: string };
  holder.__verdictPeerMark ??= crypto.randomUUID();
  return holder.__verdictPeerMark;
}

/** "::ffff:127.0.0.1" → "127.0.0.1"; brackets and a port are dropped. */
export function normalizeAddress(address: string): string {
  let a = address.trim().toLowerCase();
  const bracketed = a.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) a = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.replace(/:\d+$/, "");
  if (a.startsWith("::ffff:") && /^\d+\.\d+\.\d+\.\d+$/.test(a.slice(7))) a = a.slice(7);
  return a;
}

const plausible = (a: string) => a.length > 0 && a.length <= 64 && /^[0-9a-f:.]+$/.test(a);

/** The client IP from a request's headers (see above), or null when it cannot be known. */
export function clientIpFrom(
  get: (name: string) => string | null,
  proxies: TrustedProxies = trustedProxies(),
): string | null {
  const chain = (get("x-forwarded-for") ?? "").split(",").map(normalizeAddress).filter(Boolean);
  let ip: string | undefined;
  if (proxies.kind === "none") {
    // Next writes the socket's address into X-Forwarded-For when the request has none; the proxy
    // removed the client's own, and says so with the mark.
    if (get(PEER_MARK_HEADER) !== peerMark() || chain.length !== 1) return null;
    ip = chain[0];
  } else if (proxies.kind === "hops") {
    ip = chain[Math.max(0, chain.length - proxies.hops)];
  } else {
    ip = [...chain].reverse().find((a) => !proxies.addresses.has(a)) ?? chain[0];
  }
  return ip && plausible(ip) ? ip : null;
}
