import { z } from "zod";
import type { EvalProtocol } from "./protocol";

/** One candidate token of the first output position with its log-probability (OpenAI's `top_logprobs`). */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

export type ParsedOutput = { ok: true; predicted: boolean; score: number } | { ok: false; reason: string };

const failure = (reason: string): ParsedOutput => ({ ok: false, reason });
const quote = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/**
 * An output against the protocol's contract (SPEC §4: an output that breaks it is a parse
 * failure, and counts as an error). Labels compare trimmed and case-insensitively; a JSON output
 * must satisfy the schema (zod, from the JSON schema) and hold the label in `labelField`.
 * The score for the positive class: the probability field, the label tokens' probabilities
 * normalised over the labels (softmax of their log-probabilities at the first output position),
 * or the hard label as 1/0.
 */
export function parseOutput(
  protocol: EvalProtocol,
  raw: string,
  firstTokenLogprobs: readonly TokenLogprob[] | null,
  validator = contractValidator(protocol),
): ParsedOutput {
  const text = raw.trim();
  const contract = protocol.contract;
  let label: string;
  let json: Record<string, unknown> | null = null;
  if (contract.kind === "labels") {
    const match = contract.labels.find((l) => l.toLowerCase() === text.toLowerCase());
    if (match === undefined)
      return failure(`output ${quote(text)} is not one of the labels ${contract.labels.join(", ")}`);
    label = match;
  } else {
    let value: unknown;
    try {
      value = JSON.parse(stripFence(text));
    } catch {
      return failure(`output ${quote(text)} is not JSON`);
    }
    const checked = validator!.safeParse(value);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return failure(
        `output breaks the JSON schema at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return failure("output is not a JSON object");
    json = value as Record<string, unknown>;
    const field = json[contract.labelField];
    if (field === undefined || field === null) return failure(`output has no label field "${contract.labelField}"`);
    label = String(field);
  }
  const predicted = label.toLowerCase() === contract.positiveLabel.toLowerCase();
  switch (protocol.score.kind) {
    case "label":
      return { ok: true, predicted, score: predicted ? 1 : 0 };
    case "probability": {
      const p = json?.[protocol.score.field];
      if (typeof p !== "number" || !Number.isFinite(p) || p < 0 || p > 1)
        return failure(
          `probability field "${protocol.score.field}" is ${p === undefined ? "missing" : quote(JSON.stringify(p))}, not a number in [0, 1]`,
        );
      return { ok: true, predicted, score: p };
    }
    case "logprobs": {
      if (contract.kind !== "labels") return failure("log-probability scores need a label contract");
      if (!firstTokenLogprobs || firstTokenLogprobs.length === 0)
        return failure("the endpoint returned no log-probabilities");
      const score = labelTokenScore(contract.labels, contract.positiveLabel, firstTokenLogprobs);
      if (score === null) return failure("no label token among the first position's top log-probabilities");
      return { ok: true, predicted, score };
    }
  }
}

/** The zod validator of a JSON contract, built once per run (fromJSONSchema is not free). */
export function contractValidator(protocol: EvalProtocol): z.ZodType | undefined {
  return protocol.contract.kind === "json"
    ? z.fromJSONSchema(protocol.contract.schema as Parameters<typeof z.fromJSONSchema>[0])
    : undefined;
}

/**
 * P(positive) = Σ p(tokens starting the positive label) / Σ p(tokens starting any label), at the
 * first output position; a token counts for a label when it is a non-empty prefix of it
 * (trimmed, case-insensitive) — so both "Yes" and " yes" count for "yes". Null when none match.
 */
export function labelTokenScore(
  labels: readonly string[],
  positiveLabel: string,
  top: readonly TokenLogprob[],
): number | null {
  let positive = 0;
  let all = 0;
  for (const { token, logprob } of top) {
    const t = token.trim().toLowerCase();
    if (t === "" || !Number.isFinite(logprob)) continue;
    const label = labels.find((l) => l.toLowerCase().startsWith(t));
    if (label === undefined) continue;
    const p = Math.exp(logprob);
    all += p;
    if (label.toLowerCase() === positiveLabel.toLowerCase()) positive += p;
  }
  return all > 0 ? positive / all : null;
}

/** Models often wrap JSON in a Markdown fence; the fence is not part of the contract's content. */
function stripFence(text: string): string {
  const m = text.match(/^```(?:json)?\s*([\s\S]*?)\s*```$/);
  return m ? (m[1] ?? "") : text;
}
