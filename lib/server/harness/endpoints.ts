import "server-only";
import { createHash } from "node:crypto";
import { can } from "@/lib/auth/permissions";
import { canonicalJson } from "@/lib/canonical-json";
import { endpointUrlProblem } from "@/lib/harness/network/address-guard";
import { protocolSchema, type EvalProtocol } from "@/lib/harness/protocol";
import { endpointInputSchema, type EndpointInput } from "@/lib/schemas/harness";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import { lockEditableDecision } from "../decisions/lock";
import { AppError, fieldProblems, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { encryptSecret, secretFingerprint } from "./secrets";

const validation = (field: string, reason: string) =>
  new AppError("VALIDATION", `${field}: ${reason}`, {
    issues: [{ field, reason }],
    total: 1,
    fieldErrors: { [field]: [reason] },
  });

/** The SHA-256 of a protocol's canonical JSON: what a run records and the pack revision covers. */
export const protocolSha256 = (protocol: EvalProtocol) =>
  createHash("sha256").update(canonicalJson(protocol), "utf8").digest("hex");

/** Analyst: sets the decision's evaluation protocol (validated; frozen into the next pack revision). */
export async function setEvalProtocol(actor: Actor, decisionId: string, input: unknown, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const parsed = protocolSchema.safeParse(input);
  if (!parsed.success) {
    const issues = fieldProblems(parsed.error).map((p) => ({ ...p, field: `protocol.${p.field}` }));
    throw new AppError("VALIDATION", issues.map((i) => `${i.field}: ${i.reason}`).join("; "), {
      issues,
      total: issues.length,
    });
  }
  const protocol = parsed.data;
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, decisionId);
    const before = await tx.decision.findUniqueOrThrow({ where: { id: decisionId }, select: { evalProtocol: true } });
    await tx.decision.update({
      where: { id: decisionId },
      data: { evalProtocol: JSON.parse(canonicalJson(protocol)) as object },
    });
    const sha256 = protocolSha256(protocol);
    await recordAudit(tx, {
      actor,
      action: "eval_protocol.set",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      before: before.evalProtocol ?? null,
      after: { protocol, sha256 },
      request,
    });
    return { protocol, sha256 };
  });
}

/** The endpoint as anyone allowed to read the decision may see it: never the key, only its fingerprint. */
export const PUBLIC_ENDPOINT = {
  candidateId: true,
  baseUrl: true,
  model: true,
  apiKeyFingerprint: true,
  concurrency: true,
  rateLimitRps: true,
  simulated: true,
} as const;

/**
 * Analyst: sets a candidate's endpoint. The base URL must be http(s) and not a link-local or
 * cloud-metadata address (unless the operator allows them); the API key is encrypted at rest and
 * the audit trail records only its fingerprint. Prices go to the candidate's own price fields,
 * the one place stage 5's cost reads them.
 */
export async function setCandidateEndpoint(
  actor: Actor,
  decisionId: string,
  input: unknown,
  request: RequestInfo = {},
  options: { simulated?: boolean } = {},
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const parsed = endpointInputSchema.safeParse(input);
  if (!parsed.success) {
    const issues = fieldProblems(parsed.error);
    throw new AppError("VALIDATION", issues.map((i) => `${i.field}: ${i.reason}`).join("; "), {
      issues,
      total: issues.length,
    });
  }
  const e: EndpointInput = parsed.data;
  const problem = endpointUrlProblem(e.baseUrl);
  if (problem) throw validation("baseUrl", `Refused: ${problem}.`);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, decisionId);
    const candidate = await tx.candidate.findFirst({
      where: { id: e.candidateId, decisionId },
      select: { id: true, priceInputPerMTok: true, priceOutputPerMTok: true, endpoint: { select: PUBLIC_ENDPOINT } },
    });
    if (!candidate) throw notFoundError("The candidate");
    const key =
      e.apiKey === undefined
        ? {}
        : e.apiKey === ""
          ? { apiKeyCiphertext: null, apiKeyFingerprint: null }
          : { apiKeyCiphertext: encryptSecret(e.apiKey), apiKeyFingerprint: secretFingerprint(e.apiKey) };
    const data = {
      baseUrl: e.baseUrl,
      model: e.model,
      concurrency: e.concurrency,
      rateLimitRps: e.rateLimitRps ?? null,
      simulated: options.simulated ?? false,
      ...key,
    };
    const endpoint = await tx.candidateEndpoint.upsert({
      where: { candidateId: candidate.id },
      create: { candidateId: candidate.id, ...data },
      update: data,
      select: PUBLIC_ENDPOINT,
    });
    const prices = {
      priceInputPerMTok: e.priceInputPerMTok ?? candidate.priceInputPerMTok,
      priceOutputPerMTok: e.priceOutputPerMTok ?? candidate.priceOutputPerMTok,
    };
    await tx.candidate.update({ where: { id: candidate.id }, data: prices });
    await recordAudit(tx, {
      actor,
      action: "endpoint.set",
      entityType: "CandidateEndpoint",
      entityId: candidate.id,
      decisionId,
      before: candidate.endpoint
        ? {
            ...candidate.endpoint,
            priceInputPerMTok: candidate.priceInputPerMTok,
            priceOutputPerMTok: candidate.priceOutputPerMTok,
          }
        : null,
      after: { ...endpoint, ...prices },
      request,
    });
    return { ...endpoint, ...prices };
  });
}

/** The decision's protocol and each candidate's endpoint (public fields), for the page, the API and the CLI. */
export async function harnessSettings(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const decision = await prisma.decision.findUnique({
    where: { id: decisionId },
    select: {
      evalProtocol: true,
      candidates: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          name: true,
          priceInputPerMTok: true,
          priceOutputPerMTok: true,
          endpoint: { select: PUBLIC_ENDPOINT },
        },
      },
    },
  });
  if (!decision) throw notFoundError("The decision");
  const protocol = decision.evalProtocol === null ? null : protocolSchema.parse(decision.evalProtocol);
  return { protocol, protocolSha256: protocol ? protocolSha256(protocol) : null, candidates: decision.candidates };
}
