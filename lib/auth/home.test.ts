import { describe, expect, it } from "vitest";
import { homePathFor } from "./home";
import { can, ROLES } from "./permissions";

describe("homePathFor()", () => {
  it("lands an admin on user administration and every other role on the decisions list", () => {
    expect(homePathFor({ roles: ["ADMIN"] })).toBe("/admin/users");
    expect(homePathFor({ roles: ["ANALYST"] })).toBe("/decisions");
    expect(homePathFor({ roles: ["REVIEWER"] })).toBe("/decisions");
    expect(homePathFor({ roles: ["APPROVER"] })).toBe("/decisions");
    expect(homePathFor({ roles: ["REVIEWER", "APPROVER"] })).toBe("/decisions");
    expect(homePathFor({ roles: ["ANALYST", "ADMIN"] })).toBe("/admin/users");
  });

  it("never sends a role to a page its permissions refuse (no first screen is a 403)", () => {
    const pagePermission = { "/admin/users": "user.manage", "/decisions": "decision.read" } as const;
    for (const role of ROLES) {
      const home = homePathFor({ roles: [role] }) as keyof typeof pagePermission;
      expect(can({ roles: [role] }, pagePermission[home]), role).toBe(true);
    }
  });
});
