import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, ROLES, type Permission } from "./permissions";

describe("can()", () => {
  it("grants exactly the roles listed for each permission", () => {
    for (const [permission, allowed] of Object.entries(PERMISSIONS) as [Permission, readonly string[]][]) {
      for (const role of ROLES)
        expect(can({ roles: [role] }, permission), `${role} ${permission}`).toBe(allowed.includes(role));
    }
  });

  it("denies a signed-out visitor and a user without roles", () => {
    expect(can(null, "decision.read")).toBe(false);
    expect(can(undefined, "decision.read")).toBe(false);
    expect(can({ roles: [] }, "decision.read")).toBe(false);
  });

  it("lets a person with several roles do what any of them allows", () => {
    expect(can({ roles: ["REVIEWER", "ANALYST"] }, "evidence.import")).toBe(true);
    expect(can({ roles: ["REVIEWER", "ANALYST"] }, "signature.approve")).toBe(false);
  });

  it("keeps separation of duties in the table: only approvers approve, admins never sign", () => {
    expect(PERMISSIONS["signature.approve"]).toEqual(["APPROVER"]);
    expect(can({ roles: ["ADMIN"] }, "signature.review")).toBe(false);
    expect(can({ roles: ["ADMIN"] }, "decision.read")).toBe(false);
  });
});
