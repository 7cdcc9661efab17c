import type { RoleName } from "@/lib/auth/permissions";
import { env } from "@/lib/env";

/**
 * Demo logins. They exist only in demo mode (`npm run demo` sets VERDICT_DEMO=1): the seed
 * refuses to create them otherwise, so a production database never holds known passwords.
 */
export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; password: string; roles: RoleName[] }> = [
  { email: "analyst@verdict.demo", name: "Ada Analyst", password: "demo-analyst-2026", roles: ["ANALYST"] },
  { email: "reviewer@verdict.demo", name: "Rui Reviewer", password: "demo-reviewer-2026", roles: ["REVIEWER"] },
  { email: "approver1@verdict.demo", name: "Amara Approver", password: "demo-approver1-2026", roles: ["APPROVER"] },
  { email: "approver2@verdict.demo", name: "Bo Approver", password: "demo-approver2-2026", roles: ["APPROVER"] },
  { email: "admin@verdict.demo", name: "Ola Admin", password: "demo-admin-2026", roles: ["ADMIN"] },
];

export function isDemoMode(): boolean {
  return env().VERDICT_DEMO === "1";
}
