import { describe, expect, it } from "vitest";
import { clientIpFrom, parseTrustedProxies, peerMark, PEER_MARK_HEADER } from "./client-ip";

const headers = (h: Record<string, string>) => (name: string) => h[name] ?? null;

describe("the client IP believes X-Forwarded-For only behind a configured proxy", () => {
  it("without a trusted proxy, a client's X-Forwarded-For is ignored", () => {
    const none = parseTrustedProxies(undefined);
    expect(clientIpFrom(headers({ "x-forwarded-for": "6.6.6.6" }), none)).toBeNull();
    // A forged mark is not this process's secret.
    expect(clientIpFrom(headers({ "x-forwarded-for": "6.6.6.6", [PEER_MARK_HEADER]: "forged" }), none)).toBeNull();
    // The proxy dropped the client's header and marked the request: Next wrote the socket address.
    expect(clientIpFrom(headers({ "x-forwarded-for": "::ffff:127.0.0.1", [PEER_MARK_HEADER]: peerMark() }), none)).toBe(
      "127.0.0.1",
    );
    expect(parseTrustedProxies("0")).toEqual({ kind: "none" });
  });

  it("N hops: the N-th address from the right", () => {
    const one = parseTrustedProxies("1");
    expect(clientIpFrom(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.5" }), one)).toBe("203.0.113.5");
    const two = parseTrustedProxies("2");
    expect(clientIpFrom(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.5, 10.0.0.2" }), two)).toBe("203.0.113.5");
    expect(clientIpFrom(headers({ "x-forwarded-for": "203.0.113.5" }), two)).toBe("203.0.113.5");
    expect(clientIpFrom(headers({}), one)).toBeNull();
  });

  it("a list of proxies: the rightmost address that is not one of them", () => {
    const list = parseTrustedProxies("10.0.0.2, 10.0.0.3");
    expect(clientIpFrom(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.5, 10.0.0.3, 10.0.0.2" }), list)).toBe(
      "203.0.113.5",
    );
    expect(clientIpFrom(headers({ "x-forwarded-for": "[2001:db8::1]:443, 10.0.0.2" }), list)).toBe("2001:db8::1");
  });

  it("something that is not an address is no address", () => {
    expect(clientIpFrom(headers({ "x-forwarded-for": "<script>" }), parseTrustedProxies("1"))).toBeNull();
  });
});
