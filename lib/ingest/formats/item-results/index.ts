import { helmInstancesParser, helmScenarioStateParser } from "./helm-instances";
import { openaiEvalsLogParser } from "./openai-evals-log";
import { promptfooResultsParser } from "./promptfoo-results";
import { inspectLog } from "./inspect-log";
import { lmEvalSamples } from "./lm-eval-samples";
import type { ItemResultParser } from "./types";

export type * from "./types";

/**
 * Per-item result formats of other eval tools, detected from the file's first bytes (and, for
 * the Inspect ZIP, its name). Detection order matters only for ties.
 */
export const itemResultFormats: readonly ItemResultParser[] = [
  inspectLog,
  lmEvalSamples,
  helmInstancesParser,
  helmScenarioStateParser,
  openaiEvalsLogParser,
  promptfooResultsParser,
];

export function detectItemResultFormat(head: Buffer, fileName: string): ItemResultParser | undefined {
  let best: { parser: ItemResultParser; confidence: number } | undefined;
  for (const parser of itemResultFormats) {
    const confidence = parser.detect(head, fileName);
    if (confidence > 0 && (!best || confidence > best.confidence)) best = { parser, confidence };
  }
  return best?.parser;
}
