import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { can, type Permission } from "@/lib/auth/permissions";
import { AppError, busyError, fieldProblems } from "./errors";
import { currentSession, type Actor } from "./session";
import { actorForToken } from "./identity/api-tokens";
import type { RequestInfo } from "./audit/write";
import { clientIpFrom } from "@/lib/security/client-ip";

export interface RouteContext<P> {
  actor: Actor;
  params: P;
  request: RequestInfo;
  req: NextRequest;
  /** The session's id when signed in by cookie; null for a bearer token. */
  sid: string | null;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Route handlers (JSON API): authenticate by `Authorization: Bearer vdt_…` or the session
 * cookie, check the permission, and turn AppError and zod errors into JSON with their status.
 * A cookie-authenticated mutation must come from this origin (CSRF); a bearer token cannot be
 * sent by a browser on another site, so it needs no such check.
 */
export function apiRoute<P = Record<string, string>>(
  permission: Permission,
  handler: (context: RouteContext<P>) => Promise<Response | unknown>,
) {
  return async (req: NextRequest, segment: { params: Promise<P> }): Promise<Response> => {
    try {
      const bearer = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
      let actor: Actor | null;
      let sid: string | null = null;
      if (bearer) {
        actor = await actorForToken(bearer);
      } else {
        const session = await currentSession();
        actor = session?.actor ?? null;
        sid = session?.sid ?? null;
        if (actor && MUTATING.has(req.method) && !sameOrigin(req)) {
          throw new AppError("FORBIDDEN", "Cross-site request refused.");
        }
      }
      if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in or send a valid API token.");
      if (!can(actor, permission)) throw new AppError("FORBIDDEN", "You do not have permission to do this.");
      const request: RequestInfo = { ...requestInfoOf(req.headers), via: bearer ? "token" : "session" };
      const result = await handler({ actor, params: await segment.params, request, req, sid });
      return result instanceof Response ? result : NextResponse.json(result ?? { ok: true });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export { MAX_JSON_BODY_BYTES, readBoundedBody, readJsonBody } from "./request-body";

/** Client IP (lib/security/client-ip.ts: X-Forwarded-For only behind a trusted proxy) and user agent, for the audit trail. */
export function requestInfoOf(headers: Headers): RequestInfo {
  return { ip: clientIpFrom((name) => headers.get(name)), userAgent: headers.get("user-agent")?.slice(0, 512) ?? null };
}

export function errorResponse(thrown: unknown): Response {
  const error = busyError(thrown) ?? thrown;
  if (error instanceof AppError) {
    const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    return NextResponse.json(
      { error: { code: error.code, message: error.message, details: error.details } },
      { status: error.status, headers: retryAfter ? { "Retry-After": String(retryAfter) } : undefined },
    );
  }
  if (error instanceof z.ZodError) {
    const issues = fieldProblems(error).slice(0, 100);
    return NextResponse.json(
      {
        error: {
          code: "VALIDATION",
          message: "The request is not valid.",
          details: { issues, total: error.issues.length },
        },
      },
      { status: 422 },
    );
  }
  console.error(error);
  return NextResponse.json(
    { error: { code: "INTERNAL", message: "Something went wrong on the server." } },
    { status: 500 },
  );
}

function sameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return req.headers.get("sec-fetch-site") === "same-origin";
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
