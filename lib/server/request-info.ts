import "server-only";
import { headers } from "next/headers";
import type { RequestInfo } from "./audit/write";
import { clientIpFrom } from "@/lib/security/client-ip";

/** Client IP (X-Forwarded-For only behind a trusted proxy, lib/security/client-ip.ts) and user agent of the current request, for the audit trail. */
export async function requestInfo(): Promise<RequestInfo> {
  try {
    const h = await headers();
    return { ip: clientIpFrom((name) => h.get(name)), userAgent: h.get("user-agent")?.slice(0, 512) ?? null };
  } catch {
    return {}; // outside a request (scripts, jobs)
  }
}
