import "server-only";
import { headers } from "next/headers";
import type { RequestInfo } from "./audit";

/** Client IP and user agent of the current request, for the audit trail. */
export async function requestInfo(): Promise<RequestInfo> {
  try {
    const h = await headers();
    const forwarded = h.get("x-forwarded-for")?.split(",")[0]?.trim();
    return { ip: forwarded || h.get("x-real-ip") || null, userAgent: h.get("user-agent")?.slice(0, 512) ?? null };
  } catch {
    return {}; // outside a request (scripts, jobs)
  }
}
