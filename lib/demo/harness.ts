import type { EvalProtocol } from "../harness/protocol.ts";
import type { SimDirective } from "../harness/network/sim-server.ts";
import { env } from "../env.ts";
import { DEMO_SEED, demoCandidates, generateDemoItems, generateDemoPredictions } from "./moderation.ts";

/**
 * The demo's evaluation protocol and its simulated endpoint: one candidate (Sentry, the demo's
 * answer) is served by Verdict's simulated OpenAI-compatible endpoint, which answers each message
 * with the very output the demo's uploaded predictions hold for it — so a run from the browser
 * reproduces that candidate's stage 3–4 figures from real requests, and the thesis stands.
 */
export const DEMO_PROTOCOL: EvalProtocol = {
  system:
    'You review user messages for the trust & safety queue. Answer with JSON: {"label": "violating" | "ok", "p": probability that the message violates the policy}.',
  user: "Message {{item_id}} ({{slice}}): {{text}}",
  contract: {
    kind: "json",
    schema: {
      type: "object",
      properties: { label: { enum: ["violating", "ok"] }, p: { type: "number", minimum: 0, maximum: 1 } },
      required: ["label", "p"],
    },
    labelField: "label",
    positiveLabel: "violating",
  },
  score: { kind: "probability", field: "p" },
  sampling: { temperature: 0, maxTokens: 24, stop: [] },
};

export const DEMO_SIMULATED_INDEX = demoCandidates.findIndex((c) => c.name.startsWith("Sentry"));
/** Port of the demo's simulated endpoint (VERDICT_DEMO_SIM_PORT, default 4319). */
export const demoSimPort = () => env().VERDICT_DEMO_SIM_PORT ?? 4319;
export const demoSimBaseUrl = () => `http://127.0.0.1:${demoSimPort()}/v1`;

/** The simulator's answer per demo message: the uploaded prediction of the simulated candidate. */
export function demoAnswers(): (messages: readonly { content: string }[]) => SimDirective | null {
  const model = demoCandidates[DEMO_SIMULATED_INDEX]!;
  // The seed's own generator and seed (lib/server/seed/demo-seed.ts): the same predictions.
  const predictions = generateDemoPredictions(model, generateDemoItems(), DEMO_SEED + DEMO_SIMULATED_INDEX + 1);
  const byId = new Map(predictions.map((p) => [p.itemId, p]));
  return (messages) => {
    const id = messages.at(-1)?.content.match(/^Message (\S+)/)?.[1];
    const p = id ? byId.get(id) : undefined;
    if (!p) return null;
    return p.parseFailure || p.score === null
      ? { fail: "contract", tokens: 8 }
      : { label: p.score >= 0.5 ? "violating" : "ok", p: p.score, tokens: 8 };
  };
}
