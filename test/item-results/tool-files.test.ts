import { readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { createApiToken } from "@/lib/server/identity/api-tokens";
import { db } from "@/lib/server/db";
import { drainInlineJobs } from "@/lib/server/runs/queue";
import { storedRunMetrics } from "@/lib/pack/run-input";
import { POST as postPredictions } from "@/app/api/v1/decisions/[id]/predictions/route";
import { POST as postPreview } from "@/app/api/v1/decisions/[id]/predictions/preview/route";
import { counts } from "@/test/uploads";
import { decisionWithDataset } from "./datasets";

/**
 * Issue 24, tried as a new user would: result files of our own, written the way each tool writes
 * them (scripts/tool-files-fixtures.py), sent to the JSON API as the uploads page sends them — a
 * lone file as the raw request body, HELM's pair as a multipart form — previewed, then imported
 * with the mapping a new user picks from the preview. The stored figures must be scikit-learn's
 * (average_precision_score, precision_score, recall_score at 0.5) on the (label, score) pairs the
 * tool's output implies, which the script derives from the values as written; a refusal must name
 * the item and the field, and leave nothing behind.
 */
process.env.VERDICT_JOBS = "inline";

// The cookie session (next-auth) does not load under vitest; these requests carry a bearer token,
// which apiRoute checks before it would ever ask for a session.
vi.mock("@/lib/server/session", () => ({
  currentSession: async () => {
    throw new Error("a bearer-token request asked for a cookie session");
  },
}));

const DIR = path.resolve(import.meta.dirname, "../fixtures/tool-files");

interface Figures {
  averagePrecision: number | null;
  precision: number;
  recall: number;
  tp: number;
  fp: number;
  fn: number;
}
interface ToolFileRun {
  files: string[];
  items: { id: string; label: boolean }[];
  mapping: { idField: string; positiveLabels: string[]; repeat?: string };
  scoreBasis: string;
  expected?: Figures;
  models?: Record<string, Figures>;
}
const EXPECTED = JSON.parse(readFileSync(path.join(DIR, "expected.json"), "utf8")) as {
  sklearn: string;
  runs: Record<string, ToolFileRun>;
};
const run = (name: string) => EXPECTED.runs[name]!;

type Sent = { name: string; bytes: Buffer };
const fixture = (name: string): Sent => ({ name, bytes: readFileSync(path.join(DIR, name)) });
const text = (name: string, content: string): Sent => ({ name, bytes: Buffer.from(content, "utf8") });

/** As the uploads page sends: one file as the raw body (its name in X-File-Name), several as a multipart form. */
async function send(
  route: typeof postPredictions,
  decisionId: string,
  token: string,
  files: Sent[],
  fields: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const preview = route === postPreview ? "/preview" : "";
  const url = `http://localhost/api/v1/decisions/${decisionId}/predictions${preview}?${new URLSearchParams(fields)}`;
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, origin: "http://localhost" };
  let body: BodyInit;
  if (files.length === 1) {
    body = new Uint8Array(files[0]!.bytes);
    headers["content-type"] = "application/octet-stream";
    headers["x-file-name"] = encodeURIComponent(files[0]!.name);
  } else {
    const form = new FormData();
    for (const f of files) form.append("file", new File([new Uint8Array(f.bytes)], f.name));
    body = form;
  }
  const res = await route(new NextRequest(url, { method: "POST", body, headers }), {
    params: Promise.resolve({ id: decisionId }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The decision a new user sets up for a run: its dataset (ids and labels), one candidate per model. */
async function setUp(r: ToolFileRun) {
  const models = Object.keys(r.models ?? {});
  const setup = await decisionWithDataset(
    r.items.map((i) => ({ itemId: i.id, label: i.label })),
    models.length ? models.map((m) => `Candidate ${m}`) : ["Model A"],
  );
  const { token } = await createApiToken(setup.analyst, "tool files test");
  return { ...setup, token };
}

type Preview = {
  format: { id: string };
  scoreBasis: string;
  itemCount: number;
  labels: string[];
  repeats: string[];
  models: string[];
  idFields: { path: string; matches: number; sampled: number }[];
};

/** The stored run's figures against scikit-learn's: AP (or undefined with its reason), precision and recall at 0.5. */
async function expectSklearnFigures(runId: number, expected: Figures) {
  await drainInlineJobs();
  const prisma = await db();
  const stored = await prisma.evalRun.findUniqueOrThrow({ where: { id: runId } });
  expect(stored.status).toBe("DONE");
  const report = storedRunMetrics(stored.metrics)!.report;
  if (expected.averagePrecision === null) {
    expect(report.averagePrecision).toBeNull();
    expect(report.undefinedReasons.averagePrecision).toBeTruthy();
  } else expect(report.averagePrecision).toBeCloseTo(expected.averagePrecision, 12);
  expect(report.atThreshold.threshold).toBe(0.5);
  expect({ tp: report.atThreshold.tp, fp: report.atThreshold.fp, fn: report.atThreshold.fn }).toEqual({
    tp: expected.tp,
    fp: expected.fp,
    fn: expected.fn,
  });
  expect(report.atThreshold.precision).toBeCloseTo(expected.precision, 12);
  expect(report.atThreshold.recall).toBeCloseTo(expected.recall, 12);
}

describe("each tool's results, made the way the tool writes them: scikit-learn's figures through the API", () => {
  it.each(["lm-eval", "inspect-eval", "inspect-json-epochs", "helm", "openai-evals"])(
    "%s: the preview shows the id field every item matches, and the import stores scikit-learn's AP, precision and recall",
    async (name) => {
      const r = run(name);
      const { decisionId, candidateId, datasetVersionId, token } = await setUp(r);
      const files = r.files.map(fixture);
      const version = String(datasetVersionId);
      const preview = await send(postPreview, decisionId, token, files, { datasetVersionId: version });
      expect(preview.status, JSON.stringify(preview.json)).toBe(200);
      const p = preview.json as unknown as Preview;
      expect(p.scoreBasis).toBe(r.scoreBasis);
      expect(p.labels).toEqual(expect.arrayContaining(r.mapping.positiveLabels));
      const field = p.idFields.find((f) => f.path === r.mapping.idField);
      expect(field, JSON.stringify(p.idFields)).toBeDefined();
      expect(field!.matches).toBe(field!.sampled);
      if (r.mapping.repeat) expect(p.repeats).toEqual(["1", "2"]);

      const imported = await send(postPredictions, decisionId, token, files, {
        candidateId,
        datasetVersionId: version,
        format: p.format.id,
        mapping: JSON.stringify(r.mapping),
      });
      expect(imported.status, JSON.stringify(imported.json)).toBe(201);
      expect(imported.json).toMatchObject({ rowCount: r.items.length, missingCount: 0, scoreBasis: r.scoreBasis });
      await expectSklearnFigures(imported.json.runId as number, r.expected!);
    },
  );

  it("promptfoo with two providers: one run per provider, each with scikit-learn's figures on its chosen-token probabilities", async () => {
    const r = run("promptfoo");
    const { decisionId, candidates, datasetVersionId, token } = await setUp(r);
    const files = r.files.map(fixture);
    const preview = await send(postPreview, decisionId, token, files, { datasetVersionId: String(datasetVersionId) });
    expect(preview.status).toBe(200);
    const p = preview.json as unknown as Preview;
    expect(p.models).toEqual(Object.keys(r.models!));
    expect(p.scoreBasis).toBe("chosen-token-probability");
    for (const [k, [model, expected]] of Object.entries(r.models!).entries()) {
      const imported = await send(postPredictions, decisionId, token, files, {
        candidateId: candidates[k]!.id,
        datasetVersionId: String(datasetVersionId),
        format: p.format.id,
        mapping: JSON.stringify({ ...r.mapping, model }),
      });
      expect(imported.status, JSON.stringify(imported.json)).toBe(201);
      expect(imported.json).toMatchObject({ rowCount: r.items.length, scoreBasis: "chosen-token-probability" });
      await expectSklearnFigures(imported.json.runId as number, expected);
    }
  });
});

type Issue = { record?: string; line?: number; field?: string; value?: string; reason?: string };

/** A refusal: 422, every problem naming its item (record or line) and field, and nothing written but the refusal's audit. */
async function expectRefused(
  decisionId: string,
  before: Awaited<ReturnType<typeof counts>>,
  result: { status: number; json: Record<string, unknown> },
): Promise<Issue[]> {
  expect(result.status, JSON.stringify(result.json)).toBe(422);
  const errors = (result.json.error as { details?: { errors?: Issue[] } }).details?.errors ?? [];
  expect(errors.length, JSON.stringify(result.json)).toBeGreaterThan(0);
  for (const e of errors) {
    expect(e.record ?? e.line, JSON.stringify(e)).toBeTruthy();
    expect(e.field, JSON.stringify(e)).toBeTruthy();
    expect(e.reason, JSON.stringify(e)).toBeTruthy();
  }
  const after = await counts(decisionId);
  expect({ ...after, refused: 0 }).toEqual({ ...before, refused: 0 });
  return errors;
}

/** The lines of a JSON Lines fixture, each changed by `edit` (by 1-based line number), joined again. */
function editLines(name: string, edit: (line: Record<string, unknown>, n: number) => Record<string, unknown> | null) {
  return readFileSync(path.join(DIR, name), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, k) => edit(JSON.parse(l) as Record<string, unknown>, k + 1))
    .filter((l) => l !== null)
    .map((l) => JSON.stringify(l))
    .join("\n");
}

describe("refusals a new user meets: each names its item and field, and leaves nothing behind", () => {
  /** Import these files with the run's mapping (changed by `mapping`), on a fresh decision; the refusal's problems. */
  async function refused(name: string, files: Sent[], mapping: Record<string, unknown> = {}): Promise<Issue[]> {
    const r = run(name);
    const { decisionId, candidateId, datasetVersionId, token } = await setUp(r);
    const before = await counts(decisionId);
    const result = await send(postPredictions, decisionId, token, files, {
      candidateId,
      datasetVersionId: String(datasetVersionId),
      mapping: JSON.stringify({ ...r.mapping, ...mapping }),
    });
    return expectRefused(decisionId, before, result);
  }

  it("lm-eval: a line without the id field and a log-likelihood that is not a number, both named", async () => {
    const r = run("lm-eval");
    const broken = editLines(r.files[0]!, (line, n) => {
      if (n === 7) return { ...line, doc: { ...(line.doc as object), case_id: undefined } };
      if (n === 3)
        return {
          ...line,
          filtered_resps: [
            ["-1.5", "False"],
            ["nan", "False"],
          ],
        };
      return line;
    });
    const errors = await refused("lm-eval", [text(r.files[0]!, broken)]);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "filtered_resps[1]", line: 3 }),
        expect.objectContaining({ field: "doc.case_id" }),
      ]),
    );
    expect(JSON.stringify(errors.find((e) => e.field === "doc.case_id"))).toContain("7");
  });

  it("Inspect: a log still running, two epochs with none chosen, an unknown id, a gold label the dataset contradicts", async () => {
    const r = run("inspect-json-epochs");
    const name = r.files[0]!;
    const log = JSON.parse(readFileSync(path.join(DIR, name), "utf8")) as {
      status: string;
      samples: { epoch: number; target: string; metadata: { case_id: string } }[];
    };
    const started = await refused("inspect-json-epochs", [text(name, JSON.stringify({ ...log, status: "started" }))]);
    expect(started[0]).toMatchObject({ field: "status" });

    const epochs = await refused("inspect-json-epochs", [fixture(name)], { repeat: undefined });
    expect(epochs[0]).toMatchObject({ field: "repeat" });
    expect(epochs[0]!.reason).toContain("several repeats");

    const unknown = structuredClone(log);
    unknown.samples.find((s) => s.epoch === 2)!.metadata.case_id = "req-9999";
    const [notInDataset] = await refused("inspect-json-epochs", [text(name, JSON.stringify(unknown))]);
    expect(notInDataset).toMatchObject({ field: "metadata.case_id", value: "req-9999" });

    const contradicted = structuredClone(log);
    const sample = contradicted.samples.find((s) => s.epoch === 2 && s.metadata.case_id === "req-0004")!;
    sample.target = sample.target === " Yes" ? " No" : " Yes";
    const [gold] = await refused("inspect-json-epochs", [text(name, JSON.stringify(contradicted))]);
    expect(gold).toMatchObject({ field: "gold" });
    expect(gold!.record).toContain("req-0004");
    expect(gold!.reason).toContain("the dataset labels id req-0004");
  });

  it("HELM without its display_predictions.json, promptfoo with no provider chosen or a row without one, an unfinished OpenAI Evals log", async () => {
    const helm = run("helm");
    const [partner] = await refused("helm", [fixture(helm.files[0]!)]);
    expect(JSON.stringify(partner)).toContain("display_predictions.json");

    const promptfoo = run("promptfoo").files[0]!;
    const [model] = await refused("promptfoo", [fixture(promptfoo)]);
    expect(model).toMatchObject({ field: "model" });
    const results = JSON.parse(readFileSync(path.join(DIR, promptfoo), "utf8")) as {
      results: { results: { provider?: unknown }[] };
    };
    delete results.results.results[9]!.provider;
    const [provider] = await refused("promptfoo", [text(promptfoo, JSON.stringify(results))], {
      model: "openai:gpt-4.1",
    });
    expect(provider).toMatchObject({ record: "results.results[9]", field: "provider.id" });

    const evals = run("openai-evals").files[0]!;
    const unfinished = editLines(evals, (line) => ("final_report" in line ? null : line));
    const [report] = await refused("openai-evals", [text(evals, unfinished)]);
    expect(report).toMatchObject({ field: "final_report" });
  });
});
