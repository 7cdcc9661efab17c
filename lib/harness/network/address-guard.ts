import { env } from "@/lib/env";
import dns from "node:dns";
import net from "node:net";

/**
 * Where a candidate's endpoint may not be: link-local addresses (169.254.0.0/16, fe80::/10) —
 * which is where every cloud's instance-metadata service answers (169.254.169.254,
 * fd00:ec2::254) and hands out credentials — and the other clouds' metadata addresses
 * (100.100.100.200, metadata.google.internal). Refused unless the operator sets
 * VERDICT_ALLOW_LINK_LOCAL_ENDPOINTS=1. Loopback and private networks are allowed: self-hosted
 * vLLM and Verdict's simulated endpoint live there.
 */
const blocked = new net.BlockList();
blocked.addSubnet("169.254.0.0", 16, "ipv4");
blocked.addAddress("100.100.100.200", "ipv4");
blocked.addSubnet("fe80::", 10, "ipv6");
blocked.addAddress("fd00:ec2::254", "ipv6");
const BLOCKED_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);

export const linkLocalAllowed = () => env().VERDICT_ALLOW_LINK_LOCAL_ENDPOINTS === "1";

/** The reason an address is refused, or null. IPv4-mapped IPv6 addresses are judged as IPv4. */
export function forbiddenAddressReason(address: string): string | null {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  const ip = mapped ?? address;
  const family = net.isIPv4(ip) ? "ipv4" : net.isIPv6(ip) ? "ipv6" : null;
  if (!family) return null;
  return blocked.check(ip, family) ? `${address} is a link-local or cloud-metadata address` : null;
}

/** Checks a base URL before it is stored or called: http(s), no credentials, no refused host. */
export function endpointUrlProblem(baseUrl: string, allow = linkLocalAllowed()): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "the endpoint must be http or https";
  if (url.username || url.password) return "put the API key in its own field, not in the URL";
  if (url.search || url.hash) return "the base URL takes no query or fragment";
  if (allow) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (BLOCKED_NAMES.has(host)) return `${host} is a cloud-metadata name`;
  return forbiddenAddressReason(host);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup for the client's sockets that refuses names resolving to a refused address — checked
 * at every connection, so a name that changes its answer after it was configured (DNS rebinding)
 * is still refused.
 */
export function guardedLookup(allow = linkLocalAllowed()) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const refused = allow ? null : addresses.map((a) => forbiddenAddressReason(a.address)).find((r) => r !== null);
      if (refused) {
        const e = Object.assign(new Error(`Refused to connect to ${hostname}: ${refused}`), {
          code: "EREFUSED_ADDRESS",
        });
        return callback(e, "");
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      callback(null, first.address, first.family);
    });
  };
}
