import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { makeActor, makeDecision, unique } from "@/test/factories";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

const dir = mkdtempSync(path.join(tmpdir(), "verdict-cli-decision-"));
function jsonFile(name: string, body: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof body === "string" ? body : JSON.stringify(body, null, 2));
  return file;
}

const parameters = (title: string) => ({
  title,
  description: "Routes support e-mail that is spam away from the agents.",
  positiveClass: "spam",
  prevalence: 0.04,
  costFn: 12,
  costFp: 1.5,
  currency: "EUR",
  recallFloor: 0.85,
  precisionFloor: 0.5,
  operatingThreshold: 0.4,
  sloP95E2eMs: 900,
  sloMinThroughputRps: 20,
  sloThroughputConcurrency: 8,
  quorum: 1,
});

// `verdict decision create --file` spawned as a user runs it: the body of POST /api/v1/decisions.
describe("verdict decision create", { timeout: SPAWN_TIMEOUT }, () => {
  it("creates the decision from the file as the --as user, prints it, and audits decision.create", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const title = unique("Spam filter");
    const file = jsonFile("decision.json", parameters(title));
    const result = await verdict(["decision", "create", "--file", file, "--as", analyst.email]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { decision } = JSON.parse(result.stdout);
    // A new decision chooses each candidate's threshold by the cost-optimal rule unless told otherwise (issue 14).
    expect(decision).toMatchObject({
      ...parameters(title),
      operatingRule: "COST_OPTIMAL",
      status: "DRAFT",
      sloP95TtftMs: null,
      sloMaxCostPer1kRequests: null,
      archivedAt: null,
    });

    const prisma = await db();
    const row = await prisma.decision.findUniqueOrThrow({
      where: { id: decision.id },
      select: { title: true, prevalence: true, costFn: true, currency: true, status: true, createdById: true },
    });
    expect(row).toEqual({
      title,
      prevalence: 0.04,
      costFn: 12,
      currency: "EUR",
      status: "DRAFT",
      createdById: analyst.id,
    });
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "decision.create", entityId: decision.id },
      select: { actorId: true, decisionId: true, userAgent: true, after: true },
    });
    expect(event).toMatchObject({
      actorId: analyst.id,
      decisionId: decision.id,
      userAgent: "verdict-cli",
      after: { title, prevalence: 0.04, copiedFrom: null },
    });
  });

  it("acts as a token's user, and copies the parameters it leaves out from copyFrom", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const source = await makeDecision(analyst);
    const token = await verdict(["token", "create", "--email", analyst.email]);
    expect(token.code).toBe(0);
    const title = unique("Copy");
    const file = jsonFile("copy.json", { copyFrom: source.id, title, prevalence: 0.2 });
    const result = await verdict(["decision", "create", "--file", file], {
      env: { VERDICT_TOKEN: token.stdout.trim() },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { decision } = JSON.parse(result.stdout);
    const prisma = await db();
    const from = await prisma.decision.findUniqueOrThrow({
      where: { id: source.id },
      select: { positiveClass: true, costFn: true, recallFloor: true, quorum: true },
    });
    expect(decision).toMatchObject({ ...from, title, prevalence: 0.2, status: "DRAFT" });
    expect(
      await prisma.auditEvent.count({
        where: {
          action: "decision.create",
          entityId: decision.id,
          actorId: analyst.id,
          after: { path: ["copiedFrom"], equals: source.id },
        },
      }),
    ).toBe(1);
  });

  it("names every problem of an invalid file as FILE: field: reason, exits 1 and creates nothing", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prisma = await db();
    const title = unique("Invalid");
    const { positiveClass: _p, costFp: _c, ...rest } = parameters(title);
    const file = jsonFile("decision.json", { ...rest, prevalence: 1.5, quorum: 0, operatingRule: "MEDIAN" });
    const result = await verdict(["decision", "create", "--file", file, "--as", analyst.email]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n").filter(Boolean).sort()).toEqual(
      [
        `${file}: prevalence: Prevalence π must be below 1.`,
        `${file}: quorum: At least one approver must sign.`,
        `${file}: positiveClass: Name the positive class.`,
        `${file}: costFp: The cost of a false positive is required.`,
        `${file}: operatingRule: The operating-point rule is one of FIXED, COST_OPTIMAL, BEST_PRECISION_AT_RECALL_FLOOR.`,
      ].sort(),
    );
    expect(await prisma.decision.count({ where: { title } })).toBe(0);

    const broken = await verdict([
      "decision",
      "create",
      "--file",
      jsonFile("broken.json", `{"title": "${title}",`),
      "--as",
      analyst.email,
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^\S*broken\.json: \(file\): not valid JSON \(.+\)\n$/);
    const notObject = await verdict([
      "decision",
      "create",
      "--file",
      jsonFile("array.json", [title]),
      "--as",
      analyst.email,
    ]);
    expect(notObject.code).toBe(1);
    expect(notObject.stderr).toMatch(/array\.json: \(body\): .*object/);
    const unknownSource = await verdict([
      "decision",
      "create",
      "--file",
      jsonFile("nosource.json", { copyFrom: unique("nope"), title }),
      "--as",
      analyst.email,
    ]);
    expect(unknownSource.code).toBe(1);
    expect(unknownSource.stderr).toMatch(/nosource\.json: copyFrom: /);
    expect(await prisma.decision.count({ where: { title } })).toBe(0);
  });

  it("refuses a reviewer (exit 1) and invalid options (exit 2), creating nothing", async () => {
    const reviewer = await makeActor(["REVIEWER"]);
    const title = unique("Refused");
    const file = jsonFile("refused.json", parameters(title));
    const forbidden = await verdict(["decision", "create", "--file", file, "--as", reviewer.email]);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toBe("verdict decision create: You do not have permission to do this.\n");
    expect((await verdict(["decision", "create", "--as", reviewer.email])).code).toBe(2); // no --file
    expect((await verdict(["decision", "create", "--file", file])).code).toBe(2); // nobody acts
    expect((await verdict(["decision", "create", "--file", file, "--as", reviewer.email, "--dry-run"])).code).toBe(2);
    expect((await verdict(["decision", "delete"])).code).toBe(2);
    const help = await verdict(["decision", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: verdict decision create --file/);
    expect(await (await db()).decision.count({ where: { title } })).toBe(0);
  });
});
