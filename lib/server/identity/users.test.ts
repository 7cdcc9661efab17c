import { describe, expect, it } from "vitest";
import { db } from "../db";
import { listUsers, setUserActive, updateUserRoles } from "./users";
import { makeActor } from "@/test/factories";

describe("user administration", () => {
  it("refuses non-admins and changes nothing", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const other = await makeActor(["REVIEWER"]);
    await expect(listUsers(analyst)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateUserRoles(analyst, analyst.id, ["ADMIN"])).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(setUserActive(analyst, other.id, false)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const prisma = await db();
    expect((await prisma.user.findUniqueOrThrow({ where: { id: analyst.id } })).roles).toEqual(["ANALYST"]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: other.id } })).active).toBe(true);
  });

  it("records role changes with before and after; an admin cannot drop their own admin role", async () => {
    const admin = await makeActor(["ADMIN"]);
    const other = await makeActor(["REVIEWER"]);
    await updateUserRoles(admin, other.id, ["REVIEWER", "APPROVER"]);
    const prisma = await db();
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { entityId: other.id, action: "user.update_roles" },
    });
    expect(event.before).toEqual({ roles: ["REVIEWER"] });
    expect(event.after).toMatchObject({ roles: ["REVIEWER", "APPROVER"] });
    // Granting APPROVER starts the approver clock now (separation.ts refuses older revisions).
    const { approverSince } = await prisma.user.findUniqueOrThrow({
      where: { id: other.id },
      select: { approverSince: true },
    });
    expect(Date.now() - approverSince!.getTime()).toBeLessThan(60_000);
    await expect(updateUserRoles(admin, admin.id, ["ANALYST"])).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
