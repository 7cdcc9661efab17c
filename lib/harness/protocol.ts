import { z } from "zod";

/**
 * The evaluation protocol of a decision (SPEC §2): what Verdict sends a candidate's endpoint for
 * each dataset item and how the answer becomes a positive-class score. Shared by the form, the
 * API and the harness; pure (safe in client bundles).
 *
 * - `system` / `user`: message templates; `{{item_id}}`, `{{text}}` and `{{slice}}` are the
 *   dataset's columns (the gold label is never a variable: the model must not see it).
 * - `contract`: an enumeration of labels, or a JSON schema (validated with zod's
 *   `fromJSONSchema`) with the field that holds the label.
 * - `score`: the probability field of the JSON output, the log-probabilities of the label tokens
 *   (when the endpoint returns them), or the hard label (score 1 or 0).
 * - `sampling`: temperature, max tokens, stop sequences.
 */
export const TEMPLATE_VARIABLES = ["item_id", "text", "slice"] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const template = (max: number) => z.string().max(max);

export const labelsContractSchema = z.object({
  kind: z.literal("labels"),
  labels: z.array(z.string().trim().min(1).max(100)).min(2, "List at least two labels.").max(20),
  positiveLabel: z.string().trim().min(1),
});

export const jsonContractSchema = z.object({
  kind: z.literal("json"),
  /** A JSON schema (draft 2020-12 subset zod understands) the whole output must satisfy. */
  schema: z.record(z.string(), z.unknown()),
  /** The output field holding the label, compared as a string with `positiveLabel`. */
  labelField: z.string().trim().min(1),
  positiveLabel: z.string().trim().min(1),
});

export const protocolSchema = z
  .object({
    system: template(20_000).default(""),
    user: template(20_000).min(1, "Write the user message template."),
    contract: z.discriminatedUnion("kind", [labelsContractSchema, jsonContractSchema]),
    score: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("probability"), field: z.string().trim().min(1) }),
      z.object({ kind: z.literal("logprobs") }),
      z.object({ kind: z.literal("label") }),
    ]),
    sampling: z
      .object({
        temperature: z.number().min(0).max(2).default(0),
        maxTokens: z.number().int().min(1).max(32_768).default(16),
        stop: z.array(z.string().min(1).max(50)).max(4).default([]),
      })
      .default({ temperature: 0, maxTokens: 16, stop: [] }),
  })
  .superRefine((p, ctx) => {
    for (const field of ["system", "user"] as const) {
      for (const name of templateVariables(p[field])) {
        if (!(TEMPLATE_VARIABLES as readonly string[]).includes(name)) {
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `Unknown variable {{${name}}}: the dataset's columns are ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(", ")}.`,
          });
        }
      }
    }
    if (p.contract.kind === "labels" && !p.contract.labels.includes(p.contract.positiveLabel)) {
      ctx.addIssue({
        code: "custom",
        path: ["contract", "positiveLabel"],
        message: `The positive label must be one of the labels (${p.contract.labels.join(", ")}).`,
      });
    }
    if (p.contract.kind === "json") {
      try {
        z.fromJSONSchema(p.contract.schema as Parameters<typeof z.fromJSONSchema>[0]);
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          path: ["contract", "schema"],
          message: `Not a JSON schema zod can validate with: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
    if (p.score.kind === "probability" && p.contract.kind !== "json") {
      ctx.addIssue({
        code: "custom",
        path: ["score", "kind"],
        message: "A probability field needs a JSON output contract.",
      });
    }
    if (p.score.kind === "logprobs" && p.contract.kind !== "labels") {
      ctx.addIssue({
        code: "custom",
        path: ["score", "kind"],
        message: "Label-token log-probabilities need a label enumeration contract.",
      });
    }
  });

export type EvalProtocol = z.infer<typeof protocolSchema>;

/** The `{{name}}` placeholders of a template, in order of appearance. */
export function templateVariables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}\s]*)\s*\}\}/g)].map((m) => m[1] ?? "");
}

export interface PromptItem {
  itemId: string;
  text: string | null;
  slice: string | null;
}

export type ChatMessage = { role: "system" | "user"; content: string };

/** The messages sent for one item: each `{{column}}` replaced by the item's value ("" when empty). */
export function renderMessages(protocol: EvalProtocol, item: PromptItem): ChatMessage[] {
  return messageRenderer(protocol)(item);
}

/**
 * renderMessages with the templates cut once into text and variables (a run renders one per item,
 * thousands a second): the same messages, without a regular expression per item.
 */
export function messageRenderer(protocol: EvalProtocol): (item: PromptItem) => ChatMessage[] {
  const system = protocol.system.trim() !== "" ? compileTemplate(protocol.system) : null;
  const user = compileTemplate(protocol.user);
  return (item) => {
    const values: Record<TemplateVariable, string> = {
      item_id: item.itemId,
      text: item.text ?? "",
      slice: item.slice ?? "",
    };
    return system
      ? [
          { role: "system", content: fillTemplate(system, values) },
          { role: "user", content: fillTemplate(user, values) },
        ]
      : [{ role: "user", content: fillTemplate(user, values) }];
  };
}

/** A template as [text, variable, text, variable, …, text]. */
function compileTemplate(text: string): string[] {
  return text.split(/\{\{\s*([^}\s]*)\s*\}\}/);
}

function fillTemplate(parts: readonly string[], values: Record<TemplateVariable, string>): string {
  let out = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) out += (values[parts[k] as TemplateVariable] ?? "") + parts[k + 1]!;
  return out;
}
