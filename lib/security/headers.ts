/**
 * Response security headers. Pages get a Content-Security-Policy with a fresh nonce per request
 * (proxy.ts): scripts run only with that nonce ('strict-dynamic' lets them load Next's chunks), so
 * an injected inline script never runs. Styles keep 'unsafe-inline' (React style attributes and
 * the chart library set inline styles; a style cannot run code). Development adds 'unsafe-eval'
 * for React's debugging tools. Pure: next.config.ts and the proxy import it.
 */
import { env } from "../env";
export function pageContentSecurityPolicy(nonce: string, production = env().NODE_ENV === "production"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${production ? "" : " 'unsafe-eval'"}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Responses that are not pages (JSON, files, assets) run nothing: the strictest policy. */
export const NON_PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** Headers every response carries; HSTS only in production (browsers ignore it over http anyway). */
export function staticSecurityHeaders(production = env().NODE_ENV === "production"): { key: string; value: string }[] {
  return [
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "same-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
    ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
  ];
}
