import type { Actor } from "../lib/server/session.ts";
import { db } from "../lib/server/db.ts";
import { setCandidateEndpoint, setEvalProtocol } from "../lib/server/harness/endpoints.ts";
import type { EvalProtocol } from "../lib/harness/protocol.ts";
import { addEvaluationVersion, makeDecision, unique } from "./factories.ts";

/** A label protocol scored by the label tokens' log-probabilities (the simulator's defaults: yes / no). */
export const LABEL_PROTOCOL: EvalProtocol = {
  system: "You moderate posts. Answer yes if the post violates the policy, else no.",
  user: "Post {{item_id}}: {{text}}",
  contract: { kind: "labels", labels: ["yes", "no"], positiveLabel: "yes" },
  score: { kind: "logprobs" },
  sampling: { temperature: 0, maxTokens: 4, stop: [] },
};

export interface HarnessItemSpec {
  itemId: string;
  label: boolean;
  /** The item's text: carries the simulator's directive, e.g. "[[sim id=i1 label=yes p=0.8]]". */
  text: string;
}

/**
 * A decision with an evaluation dataset version of `items`, the protocol set, and one candidate
 * whose endpoint is `baseUrl` — each made through the app's own use cases where one exists.
 */
export async function makeHarnessDecision(
  analyst: Actor,
  baseUrl: string,
  items: readonly HarnessItemSpec[],
  options: { protocol?: EvalProtocol; concurrency?: number; apiKey?: string; priceIn?: number; priceOut?: number } = {},
) {
  const prisma = await db();
  const { id: decisionId } = await makeDecision(analyst);
  const versionId = await addEvaluationVersion(decisionId, items.length, items.filter((i) => i.label).length);
  await prisma.datasetItem.createMany({
    data: items.map((i) => ({ datasetVersionId: versionId, itemId: i.itemId, label: i.label, text: i.text })),
  });
  const candidate = await prisma.candidate.create({
    data: { decisionId, name: unique("Sim"), provider: "test" },
    select: { id: true, name: true },
  });
  await setEvalProtocol(analyst, decisionId, options.protocol ?? LABEL_PROTOCOL);
  await setCandidateEndpoint(analyst, decisionId, {
    candidateId: candidate.id,
    baseUrl,
    model: "sim-model",
    apiKey: options.apiKey,
    concurrency: options.concurrency ?? 8,
    priceInputPerMTok: options.priceIn ?? 0.5,
    priceOutputPerMTok: options.priceOut ?? 1.5,
  });
  return { decisionId, versionId, candidate };
}
