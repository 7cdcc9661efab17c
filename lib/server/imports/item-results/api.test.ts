import { readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { createApiToken } from "../../identity/api-tokens";
import { POST as postPredictions } from "@/app/api/v1/decisions/[id]/predictions/route";
import { POST as postPreview } from "@/app/api/v1/decisions/[id]/predictions/preview/route";
import { counts } from "@/test/uploads";
import { decisionWithDataset, fixturePath, parsedItems } from "@/test/item-results/datasets";

/**
 * POST /api/v1/decisions/<id>/predictions and …/predictions/preview with other eval tools'
 * files, as a client sends them: multipart bodies with a bearer token, through the route handlers.
 */
process.env.VERDICT_JOBS = "inline";

// The cookie session (next-auth) does not load under vitest; these requests carry a bearer token,
// which apiRoute checks before it would ever ask for a session.
vi.mock("@/lib/server/session", () => ({
  currentSession: async () => {
    throw new Error("a bearer-token request asked for a cookie session");
  },
}));

const HELM = "helm/xstest/xstest_gpt-4o_instances.json";
const HELM_PARTNER = "helm/xstest/xstest_gpt-4o_display_predictions.FIRST30.json";
const HELM_SPEC = "helm/xstest/xstest_gpt-4o_run_spec.json";

function form(files: string[], fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  for (const f of files) body.append("file", new File([readFileSync(fixturePath(f))], path.basename(f)));
  return body;
}

async function call(
  route: typeof postPredictions,
  decisionId: string,
  token: string,
  body: FormData,
  suffix = "",
): Promise<{ status: number; json: Record<string, unknown> }> {
  const req = new NextRequest(`http://localhost/api/v1/decisions/${decisionId}/predictions${suffix}`, {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${token}` },
  });
  const res = await route(req, { params: Promise.resolve({ id: decisionId }) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function helmDecision() {
  // Items of the display predictions (the first 30), gold "unsafe" as the positive class.
  const items = await parsedItems(HELM, [HELM_PARTNER, HELM_SPEC]);
  const setup = await decisionWithDataset(items.map((i) => ({ itemId: i.toolId, label: i.gold === "unsafe" })));
  const { token } = await createApiToken(setup.analyst, "item-results test");
  return { ...setup, token, items };
}

describe("the predictions API with another eval tool's results", () => {
  it("answers 422 MAPPING_REQUIRED with the preview and a suggested mapping, then imports with the mapping", async () => {
    const { decisionId, candidateId, datasetVersionId, token } = await helmDecision();
    const fields = { candidateId, datasetVersionId: String(datasetVersionId) };
    const before = await counts(decisionId);
    const required = await call(postPredictions, decisionId, token, form([HELM, HELM_PARTNER, HELM_SPEC], fields));
    expect(required.status).toBe(422);
    const error = required.json.error as { code: string; details: { preview: { suggested: object; format: object } } };
    expect(error.code).toBe("MAPPING_REQUIRED");
    expect(error.details.preview.format).toEqual({ id: "helm-instances", label: expect.any(String) });
    expect(error.details.preview.suggested).toMatchObject({ idField: "toolId" });
    expect(await counts(decisionId)).toEqual(before);

    const mapping = JSON.stringify({ idField: "instance_id", positiveLabels: ["unsafe"] });
    const done = await call(
      postPredictions,
      decisionId,
      token,
      form([HELM, HELM_PARTNER, HELM_SPEC], { ...fields, mapping }),
    );
    expect(done.status).toBe(201);
    // HELM's generated answers are free text: none reads "unsafe", a hard label each, no score.
    expect(done.json).toMatchObject({ format: "helm-instances", rowCount: 30, scoreBasis: "hard-label" });
  });

  it("previews a file without importing it, and refuses a HELM file without its partner, naming it", async () => {
    const { decisionId, datasetVersionId, candidateId, token } = await helmDecision();
    const preview = await call(
      postPreview,
      decisionId,
      token,
      form([HELM, HELM_PARTNER], { datasetVersionId: String(datasetVersionId) }),
      "/preview",
    );
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({
      itemCount: 30,
      scoreBasis: "hard-label",
      labels: expect.arrayContaining(["safe", "unsafe"]),
    });
    expect(
      (preview.json.idFields as { path: string; matches: number }[]).find((f) => f.path === "instance_id"),
    ).toMatchObject({
      matches: 30,
    });
    const alone = await call(
      postPredictions,
      decisionId,
      token,
      form([HELM], {
        candidateId,
        datasetVersionId: String(datasetVersionId),
        idField: "instance_id",
        positiveLabels: "unsafe",
      }),
    );
    expect(alone.status).toBe(422);
    expect(JSON.stringify(alone.json)).toContain("display_predictions");
    expect((await counts(decisionId)).runs).toBe(0);
  });
});
