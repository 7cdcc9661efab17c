/**
 * npm run bench:signing [-- --smoke] — signing under load (issue 28 §3): many approvers sign one
 * decision at the same moment against a production build while two other decisions recompute.
 *
 * In a dedicated local database (recreated): the first admin made by the operator, then everyone
 * else enrolled as the product requires — invited (`verdict user invite`'s path), the invitation
 * accepted with the person's own password, and each approver's role confirmed by that admin, a
 * second person (four-eyes enrolment). An analyst's decision with a quorum is submitted for review;
 * two other decisions get one eval run each of real size (RUN_ITEMS predictions), computed once.
 * Then the production build (NEXT_DIST_DIR, default .next-signing; built when it has no BUILD_ID
 * or BENCH_BUILD=1) serves it on BENCH_PORT with the app's role (which owns nothing), its pool
 * at the default size, and works the job queue itself as a lone server does. Every person signs
 * in through Auth.js's credentials flow (their own session cookie).
 *
 * Reference, in the same run: REFERENCE signers sign a second decision one after another on the
 * idle server. The load: the analyst PATCHes both large decisions' cost of a false negative (their
 * runs recompute in this server's job queue), and once a run is computing, SIGNERS approvers POST
 * their approval of the first decision at once. Printed: answers by status, p50/p95/max latency
 * and their ratio to the reference's median. Targets (PASS/FAIL): no 5xx and no answer other
 * than 201 or a domain refusal (403/409); exactly `quorum` approvals, one per signer answered
 * 201 and none for the others; the decision APPROVED; both decisions' runs recomputed (DONE); the
 * audit chain verifies. Exits 1 on a FAIL.
 *
 * --smoke (run by `npm test`): 10 signers, quorum 5, runs of 20,000 items, the default build
 * (.next, which the e2e run has just made) — the same targets.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { appRoleUrl, recreateDatabase } from "../test/database.ts";
import { run, nextBin, waitForHttp } from "../scripts/lib.ts";
import { signInWithPassword } from "./sign-in.ts";
import { OUT_DIR } from "./data.ts";

const SMOKE = process.argv.includes("--smoke");
const DB_URL =
  process.env.BENCH_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/verdict_bench_test_signing${SMOKE ? "_smoke" : ""}`;
const PORT = Number(process.env.BENCH_PORT ?? 3434);
const DIST = process.env.NEXT_DIST_DIR ?? (SMOKE ? ".next" : ".next-signing");
const SIGNERS = SMOKE ? 10 : Number(process.env.BENCH_SIGNERS ?? 50);
/** The largest quorum a decision takes (lib/schemas/decision.ts), or half the signers in the smoke run. */
const QUORUM = SMOKE ? 5 : 20;
const REFERENCE = 3;
const RUN_ITEMS = SMOKE ? 20_000 : Number(process.env.BENCH_RUN_ITEMS ?? 1_000_000);
/** Items of each of the signed decision's two runs: its pack is built from real figures. */
const SIGNED_ITEMS = SMOKE ? 2_000 : 20_000;
const SECRET = process.env.AUTH_SECRET ?? "bench-signing-secret-0123456789abcdef012345678";
const PASSWORD = "bench-signing-password-2026";
const SERVER_LOG = path.join(OUT_DIR, `signing-server${SMOKE ? "-smoke" : ""}.log`);
const WAIVER = "Load test: the candidate's gates are waived for this benchmark only.";

await recreateDatabase(DB_URL);
process.env.DATABASE_URL = DB_URL;
const { database } = await import("../lib/server/db.ts");
const { createUserAsOperator } = await import("../lib/server/identity/users.ts");
const { inviteUserAsOperator, acceptInvitation } = await import("../lib/server/identity/invitations.ts");
const { confirmSigner } = await import("../lib/server/identity/enrolment.ts");
const { submitForReview } = await import("../lib/server/signoff/submit-for-review.ts");
const { computeRunAndComparisons } = await import("../lib/server/runs/compute-job.ts");
const { verifyAuditChainWith } = await import("../lib/server/audit/verify.ts");
const { makeCompleteDecision, makeDecision } = await import("../test/factories.ts");
const { prisma } = await database();

type Person = { id: string; email: string; name: string; roles: ("ADMIN" | "ANALYST" | "APPROVER")[] };
const emailOf = (key: string) => `${key}@bench.verdict.test`;

/** Invited by the operator, accepted with the person's own password; a signer's role confirmed by the admin. */
async function enrol(admin: Person, key: string, name: string, roles: Person["roles"]): Promise<Person> {
  const { link } = await inviteUserAsOperator({ email: emailOf(key), name, roles });
  const token = new URL(link, "http://x").searchParams.get("token")!;
  const user = await acceptInvitation(token, PASSWORD);
  if (roles.includes("APPROVER")) await confirmSigner({ ...admin, roles: admin.roles }, user.id);
  return { id: user.id, email: user.email, name: user.name, roles };
}

/** A score for each of the version's items, separating the classes imperfectly (deterministic). */
const predictions = (runId: number, items: number) =>
  prisma.$executeRaw`INSERT INTO "Prediction" ("evalRunId", "itemId", score) SELECT ${runId}, 'i' || g, CASE WHEN g % 10 = 0 THEN 0.4 ELSE 0 END + (g::bigint * 7919 % 1000) / 1600.0 FROM generate_series(1, ${items}::int) g`;

/** `items` labelled items in the version, and a computed eval run of the candidate over them (the job's own code). */
async function computedRun(decisionId: string, candidateId: string, versionId: number, items: number) {
  const evalRun = await prisma.evalRun.create({
    data: { decisionId, candidateId, datasetVersionId: versionId },
    select: { id: true },
  });
  await predictions(evalRun.id, items);
  await computeRunAndComparisons(await database(), evalRun.id);
  return evalRun.id;
}

const addItems = (versionId: number, items: number) =>
  prisma.$executeRaw`INSERT INTO "DatasetItem" ("datasetVersionId", "itemId", label) SELECT ${versionId}, 'i' || g, g % 10 = 0 FROM generate_series(1, ${items}::int) g`;

/**
 * A draft decision with one candidate and one eval run of `items` predictions, stored DONE without
 * computing it: the PATCH marks it for recompute before anything reads its figures, and computing
 * a million items here first would only lengthen the seed.
 */
async function largeDecision(analyst: Person, items: number) {
  const { id: decisionId } = await makeDecision(analyst);
  const candidate = await prisma.candidate.create({
    data: { decisionId, name: `Large ${decisionId.slice(-6)}`, provider: "bench" },
    select: { id: true },
  });
  const dataset = await prisma.dataset.create({ data: { decisionId, name: "bench" }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: items, positiveCount: Math.ceil(items / 10) },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
  await addItems(version.id, items);
  const evalRun = await prisma.evalRun.create({
    data: { decisionId, candidateId: candidate.id, datasetVersionId: version.id, status: "DONE", progress: 1 },
    select: { id: true },
  });
  await predictions(evalRun.id, items);
  return { decisionId, runId: evalRun.id };
}

/** A complete decision whose two candidates have computed runs on its evaluation version: the pack the signers sign. */
async function signableDecision(analyst: Person) {
  const decision = await makeCompleteDecision(analyst, { quorum: QUORUM, candidates: ["Load", "Other"] });
  const versionId = decision.datasetVersionId!;
  await prisma.datasetVersion.update({
    where: { id: versionId },
    data: { itemCount: SIGNED_ITEMS, positiveCount: SIGNED_ITEMS / 10 },
  });
  await addItems(versionId, SIGNED_ITEMS);
  for (const c of decision.candidates) await computedRun(decision.decisionId, c.id, versionId, SIGNED_ITEMS);
  return { decisionId: decision.decisionId, candidateId: decision.candidates[0]!.id };
}

async function seed() {
  const first = await createUserAsOperator({
    email: emailOf("admin"),
    name: "Bench Admin",
    roles: ["ADMIN"],
    password: PASSWORD,
  });
  const admin: Person = { id: first.id, email: first.email, name: first.name, roles: ["ADMIN"] };
  const analyst = await enrol(admin, "analyst", "Bench Analyst", ["ANALYST"]);
  const signers: Person[] = [];
  for (let i = 0; i < SIGNERS + REFERENCE; i++)
    signers.push(await enrol(admin, `approver-${i}`, `Approver ${String(i).padStart(2, "0")}`, ["APPROVER"]));
  const analystActor = { ...analyst, roles: analyst.roles };
  const signed = await signableDecision(analyst);
  const reference = await signableDecision(analyst);
  // Frozen after every signer's enrolment: the signing rules refuse accounts younger than the revision.
  await submitForReview(analystActor, signed.decisionId);
  await submitForReview(analystActor, reference.decisionId);
  const large = [await largeDecision(analyst, RUN_ITEMS), await largeDecision(analyst, RUN_ITEMS)];
  return {
    analyst,
    signers: signers.slice(0, SIGNERS),
    referenceSigners: signers.slice(SIGNERS),
    signed,
    reference,
    large,
  };
}

type Answer = { status: number; ms: number; error?: string };

/** One approval as a browser's fetch sends it: the session cookie, same origin, the revision shown. */
async function sign(
  origin: string,
  cookie: string,
  signer: Person,
  decision: { decisionId: string; candidateId: string },
  sha: string,
): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${origin}/api/v1/decisions/${decision.decisionId}/signatures`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin },
      body: JSON.stringify({
        meaning: "APPROVAL",
        email: signer.email,
        password: PASSWORD,
        revisionSha256: sha,
        reason: "Approved under load.",
        candidateId: decision.candidateId,
        waiver: WAIVER,
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    return {
      status: res.status,
      ms: performance.now() - t0,
      error: body.error ? `${body.error.code}: ${body.error.message}` : undefined,
    };
  } catch (error) {
    return { status: 0, ms: performance.now() - t0, error: error instanceof Error ? error.message : String(error) };
  }
}

async function revisionSha(origin: string, cookie: string, decisionId: string): Promise<string> {
  const res = await fetch(`${origin}/api/v1/decisions/${decisionId}/signatures`, { headers: { cookie } });
  const body = (await res.json()) as { latestRevision: { sha256: string } | null };
  if (res.status !== 200 || !body.latestRevision)
    throw new Error(`no revision to sign on ${decisionId} (${res.status})`);
  return body.latestRevision.sha256;
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runStatuses(runIds: number[]) {
  const rows = await prisma.evalRun.findMany({ where: { id: { in: runIds } }, select: { status: true } });
  return rows.map((r) => r.status);
}

async function main() {
  console.log(
    `bench:signing${SMOKE ? " (smoke)" : ""} — ${SIGNERS} approvers sign at once (quorum ${QUORUM}) while two decisions recompute runs of ${RUN_ITEMS.toLocaleString("en-US")} items`,
  );
  const t0 = Date.now();
  const setup = await seed();
  console.log(
    `Seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${SIGNERS + REFERENCE} approvers enrolled and confirmed (four-eyes), two decisions submitted with their runs computed, two large runs stored.`,
  );
  // The server works the job queue itself (VERDICT_JOBS unset), as a lone production server does.
  const { VERDICT_JOBS: _inline, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    DATABASE_URL: appRoleUrl(DB_URL),
    AUTH_SECRET: SECRET,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST,
  };
  if (process.env.BENCH_BUILD === "1" || !existsSync(path.join(process.cwd(), DIST, "BUILD_ID"))) {
    console.log(`Building into ${DIST}…`);
    await run(process.execPath, [nextBin(), "build"], env);
  } else {
    console.log(`Serving the existing build in ${DIST} (BENCH_BUILD=1 rebuilds it).`);
  }
  const server = spawn(process.execPath, [nextBin(), "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "pipe"],
    env,
    // Its own process group: `next start` runs the server in a child, which a signal to the
    // parent alone can leave running (holding the port and a job's connections).
    detached: true,
  });
  let serverLog = "";
  server.stderr!.on("data", (d: Buffer) => (serverLog += String(d)));
  try {
    const origin = `http://127.0.0.1:${PORT}`;
    await waitForHttp(`${origin}/sign-in`, 120_000);
    const cookies = new Map<string, string>();
    for (const person of [setup.analyst, ...setup.signers, ...setup.referenceSigners])
      cookies.set(person.id, await signInWithPassword(origin, person.email, PASSWORD));
    console.log(`${cookies.size} people signed in, each with their own session.`);
    return await measure(origin, cookies, setup, () => serverLog);
  } finally {
    process.kill(-server.pid!, "SIGKILL");
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(SERVER_LOG, serverLog);
    console.log(`The server's stderr: ${path.relative(process.cwd(), SERVER_LOG)}`);
  }
}

async function measure(
  origin: string,
  cookies: Map<string, string>,
  setup: Awaited<ReturnType<typeof seed>>,
  serverLog: () => string,
): Promise<boolean> {
  const cookie = (p: Person) => cookies.get(p.id)!;
  // The reference: one signer at a time on the idle server, after one untimed warm-up request.
  const refSha = await revisionSha(origin, cookie(setup.referenceSigners[0]!), setup.reference.decisionId);
  const reference: Answer[] = [];
  for (const signer of setup.referenceSigners)
    reference.push(await sign(origin, cookie(signer), signer, setup.reference, refSha));
  if (reference.some((a) => a.status !== 201))
    throw new Error(
      `the reference signatures failed: ${reference.map((a) => `${a.status} ${a.error ?? ""}`).join("; ")}`,
    );
  const refMs = [...reference.map((a) => a.ms)].sort((a, b) => a - b)[Math.floor(REFERENCE / 2)]!;

  // The load: both large decisions recompute in this server's queue, then every signer at once.
  const sha = await revisionSha(origin, cookie(setup.signers[0]!), setup.signed.decisionId);
  for (const { decisionId } of setup.large) {
    const res = await fetch(`${origin}/api/v1/decisions/${decisionId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", cookie: cookie(setup.analyst), origin },
      body: JSON.stringify({ costFn: 12 }),
    });
    if (res.status !== 200) throw new Error(`PATCH ${decisionId} answered ${res.status}: ${await res.text()}`);
  }
  const runIds = setup.large.map((d) => d.runId);
  const deadline = Date.now() + 60_000;
  while (!(await runStatuses(runIds)).includes("RUNNING")) {
    if (Date.now() > deadline) throw new Error("no run started recomputing within 60 s");
    await sleep(50);
  }
  const before = await runStatuses(runIds);
  const t0 = performance.now();
  const answers = await Promise.all(setup.signers.map((s) => sign(origin, cookie(s), s, setup.signed, sha)));
  const burstMs = performance.now() - t0;
  const after = await runStatuses(runIds);
  const recomputeDeadline = Date.now() + (SMOKE ? 120_000 : 600_000);
  while ((await runStatuses(runIds)).some((s) => s !== "DONE" && s !== "FAILED")) {
    if (Date.now() > recomputeDeadline) break;
    await sleep(500);
  }
  return report({ answers, burstMs, refMs, before, after, runIds, setup, serverLog: serverLog() });
}

async function report(r: {
  answers: Answer[];
  burstMs: number;
  refMs: number;
  before: string[];
  after: string[];
  runIds: number[];
  setup: Awaited<ReturnType<typeof seed>>;
  serverLog: string;
}): Promise<boolean> {
  const byStatus = new Map<number, number>();
  for (const a of r.answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  const times = r.answers.map((a) => a.ms).sort((a, b) => a - b);
  const [p50, p95, max] = [percentile(times, 0.5), percentile(times, 0.95), times[times.length - 1]!];
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`\nReference: ${REFERENCE} signatures one at a time on the idle server, median ${ms(r.refMs)}.`);
  console.log(`Runs when the burst started: ${r.before.join(", ")}; when it ended: ${r.after.join(", ")}.`);
  console.log(`${SIGNERS} simultaneous signatures answered in ${ms(r.burstMs)}:`);
  for (const [status, n] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const sample = r.answers.find((a) => a.status === status)?.error;
    console.log(
      `  ${String(status).padStart(3)} × ${String(n).padStart(2)}${sample ? `   e.g. ${sample.slice(0, 120)}` : ""}`,
    );
  }
  console.log(
    `  latency p50 ${ms(p50)} (${(p50 / r.refMs).toFixed(1)}× reference)  p95 ${ms(p95)} (${(p95 / r.refMs).toFixed(1)}×)  max ${ms(max)} (${(max / r.refMs).toFixed(1)}×)`,
  );
  const signatures = await prisma.signature.findMany({
    where: { decisionId: r.setup.signed.decisionId },
    select: { signerId: true, meaning: true },
  });
  const decision = await prisma.decision.findUniqueOrThrow({
    where: { id: r.setup.signed.decisionId },
    select: { status: true },
  });
  const answered201 = new Set(r.setup.signers.filter((_, i) => r.answers[i]!.status === 201).map((s) => s.id));
  const perSigner = new Map<string, number>();
  for (const s of signatures) perSigner.set(s.signerId, (perSigner.get(s.signerId) ?? 0) + 1);
  const onePerSigner =
    [...answered201].every((id) => perSigner.get(id) === 1) && [...perSigner.keys()].every((id) => answered201.has(id));
  const finalRuns = await runStatuses(r.runIds);
  const chain = await verifyAuditChainWith(prisma);
  const fivexx = r.answers.filter((a) => a.status >= 500 || a.status === 0).length;
  const other = r.answers.filter((a) => ![201, 403, 409].includes(a.status)).length;
  const logged = (r.serverLog.match(/P2028|Unable to start a transaction/g) ?? []).length;
  const targets: [string, boolean][] = [
    [`5xx or no answer: ${fivexx} (target 0)`, fivexx === 0],
    [`answers other than 201/403/409: ${other} (target 0)`, other === 0],
    [`"Unable to start a transaction" in the server's log: ${logged} (target 0)`, logged === 0],
    [
      `approvals stored: ${signatures.length} by ${perSigner.size} signers, one per 201 and none otherwise (target ${QUORUM})`,
      signatures.length === QUORUM && signatures.every((s) => s.meaning === "APPROVAL") && onePerSigner,
    ],
    [`decision status: ${decision.status} (target APPROVED)`, decision.status === "APPROVED"],
    [`recomputed runs: ${finalRuns.join(", ")} (target DONE)`, finalRuns.every((s) => s === "DONE")],
    [
      `audit chain: ${chain.intact ? `verifies, ${chain.checked} events` : `BROKEN at ${JSON.stringify(chain.firstBroken)}`}`,
      chain.intact && chain.recordProblems.length === 0,
    ],
  ];
  console.log("");
  for (const [line, ok] of targets) console.log(`  ${line} → ${ok ? "PASS" : "FAIL"}`);
  const ok = targets.every(([, pass]) => pass);
  console.log(ok ? "all targets met" : "some targets missed");
  return ok;
}

main()
  .then(async (ok) => {
    await (await database()).close();
    process.exit(ok ? 0 : 1);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
