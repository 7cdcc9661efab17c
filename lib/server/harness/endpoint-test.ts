import "server-only";
import { can } from "@/lib/auth/permissions";
import { ChatClient } from "@/lib/harness/network/chat-client";
import { contractValidator } from "@/lib/harness/parse-output";
import { protocolSchema, renderMessages, type PromptItem } from "@/lib/harness/protocol";
import { db } from "../db";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { answerItem, harnessLimits } from "./execute-chunk";
import { decryptSecret } from "./secrets";

const validation = (field: string, reason: string) =>
  new AppError("VALIDATION", `${field}: ${reason}`, {
    issues: [{ field, reason }],
    total: 1,
    fieldErrors: { [field]: [reason] },
  });

/**
 * The first item of the decision's evaluation dataset version by item id (the primary key's own
 * order, so one index step even on a version of millions of items): what the protocol form
 * previews through the templates and what "Test the endpoint" sends. Null without a dataset.
 * Never the gold label: the model must not see it, and neither does the preview.
 */
export async function previewItem(actor: Actor, decisionId: string): Promise<PromptItem | null> {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const decision = await prisma.decision.findUnique({
    where: { id: decisionId },
    select: { evaluationDatasetVersionId: true },
  });
  if (!decision) throw notFoundError("The decision");
  if (decision.evaluationDatasetVersionId === null) return null;
  const [item] = await prisma.$queryRaw<PromptItem[]>`
    SELECT "itemId", text, slice FROM "DatasetItem" WHERE "datasetVersionId" = ${decision.evaluationDatasetVersionId}
    ORDER BY "itemId" LIMIT 1`;
  return item ?? null;
}

export interface EndpointTestResult {
  candidateId: string;
  itemId: string;
  /** What was sent: the item rendered through the protocol's templates. */
  messages: { role: string; content: string }[];
  completed: boolean;
  httpStatus: number | null;
  error: string | null;
  attempts: number;
  rawOutput: string;
  /** The answer as the output contract reads it, or why it breaks the contract. */
  parsed: { ok: true; predicted: boolean; score: number } | { ok: false; reason: string } | null;
  positiveLabel: string;
  ttftMs: number | null;
  e2eMs: number;
}

/** The protocol, the first item and the endpoint (with its key) the test needs; refused by field when one is missing. */
async function testInputs(decisionId: string, candidateId: string) {
  const prisma = await db();
  const decision = await prisma.decision.findUnique({ where: { id: decisionId }, select: { evalProtocol: true } });
  if (!decision) throw notFoundError("The decision");
  if (decision.evalProtocol === null)
    throw validation("protocol", "Set the evaluation protocol first: the test sends one item rendered through it.");
  const candidate = await prisma.candidate.findFirst({
    where: { id: candidateId, decisionId },
    select: { name: true, endpoint: { select: { baseUrl: true, model: true, apiKeyCiphertext: true } } },
  });
  if (!candidate) throw notFoundError("The candidate");
  if (!candidate.endpoint) throw validation("candidateId", `Save ${candidate.name}'s endpoint before testing it.`);
  return { protocol: protocolSchema.parse(decision.evalProtocol), endpoint: candidate.endpoint };
}

/**
 * Analyst: "Test the endpoint" — sends the first item of the evaluation dataset, rendered through
 * the protocol, to the candidate's saved endpoint and reads the answer with the output contract:
 * the very code a run uses for each item (`answerItem`, with its retries). Stores nothing.
 */
export async function testCandidateEndpoint(
  actor: Actor,
  decisionId: string,
  candidateId: string,
): Promise<EndpointTestResult> {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const { protocol, endpoint } = await testInputs(decisionId, candidateId);
  const item = await previewItem(actor, decisionId);
  if (!item) throw validation("datasetVersion", "Upload the evaluation dataset first: the test sends its first item.");
  const messages = renderMessages(protocol, item);
  const apiKey = endpoint.apiKeyCiphertext ? decryptSecret(endpoint.apiKeyCiphertext) : null;
  const limits = harnessLimits();
  const client = new ChatClient({ baseUrl: endpoint.baseUrl, model: endpoint.model, apiKey }, protocol, {
    connections: 1,
    stallTimeoutMs: limits.stallTimeoutMs,
  });
  try {
    const { call, parsed } = await answerItem(client, protocol, contractValidator(protocol), messages, limits);
    return {
      candidateId,
      itemId: item.itemId,
      messages,
      completed: call.completed,
      httpStatus: call.status,
      error: call.error,
      attempts: call.attempts,
      rawOutput: call.text,
      parsed,
      positiveLabel: protocol.contract.positiveLabel,
      ttftMs: call.ttftMs,
      e2eMs: call.e2eMs,
    };
  } finally {
    await client.close();
  }
}
