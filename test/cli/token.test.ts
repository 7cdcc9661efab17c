import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { actorForToken } from "@/lib/server/identity/api-tokens";
import { db } from "@/lib/server/db";
import { makeActor, unique } from "@/test/factories";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `verdict token create` once crashed in the react-server CLI process (api-tokens pulled in
// next/navigation through session.ts); spawning the real binary is what catches that.
describe("verdict token create", { timeout: SPAWN_TIMEOUT }, () => {
  it("prints a vdt_ token whose SHA-256 is stored for the user, and the token authenticates", async () => {
    const user = await makeActor(["ANALYST"], "Tok En");
    const result = await verdict(["token", "create", "--email", user.email.toUpperCase(), "--name", "ci uploads"]);
    expect(result.stderr).toBe(`Token for ${user.email} created; it is shown only this once.\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^vdt_[A-Za-z0-9_-]{43}\n$/);
    const token = result.stdout.trim();

    const prisma = await db();
    const row = await prisma.apiToken.findUniqueOrThrow({
      where: { tokenHash: createHash("sha256").update(token).digest("hex") },
      select: { id: true, userId: true, name: true, prefix: true, revokedAt: true },
    });
    expect(row).toMatchObject({ userId: user.id, name: "ci uploads", prefix: token.slice(0, 12), revokedAt: null });
    expect(await prisma.apiToken.count({ where: { tokenHash: token } })).toBe(0); // never the token itself
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "token.create", entityId: row.id },
      select: { actorId: true, after: true },
    });
    expect(event).toMatchObject({ actorId: user.id, after: { via: "cli", owner: user.id } });

    // The server's bearer-token check (the API's) knows it…
    expect(await actorForToken(token)).toMatchObject({ id: user.id, email: user.email, roles: ["ANALYST"] });
    // …and so does every command that acts as a user: an import with it reaches the decision lookup.
    const asToken = await verdict(
      [
        "import",
        "dataset",
        "test/fixtures/ingest/dataset.jsonl",
        "--decision",
        unique("no-such-decision"),
        "--dataset",
        "d",
      ],
      { env: { VERDICT_TOKEN: token } },
    );
    expect(asToken.stderr).toBe("verdict import: The decision was not found.\n");
    expect(asToken.code).toBe(1);
    const forged = await verdict([
      "import",
      "dataset",
      "test/fixtures/ingest/dataset.jsonl",
      "--decision",
      "x",
      "--dataset",
      "d",
      "--token",
      `${token.slice(0, -2)}xx`,
    ]);
    expect(forged.stderr).toBe("verdict import: The token is unknown or revoked, or its user is inactive.\n");
    expect(forged.code).toBe(1);
  });

  it("exits 1 naming an unknown email, and 2 without --email, creating nothing", async () => {
    const email = `${unique("nobody")}@verdict.test`;
    const unknown = await verdict(["token", "create", "--email", email]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe(`verdict token create: no active user ${email}\n`);
    const missing = await verdict(["token", "create"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--email is required/);
    expect(await (await db()).apiToken.count({ where: { user: { email } } })).toBe(0);
  });
});
