/**
 * Pure matching of model names found in imported files to a decision's candidates.
 * Files spell the same model many ways: "meta-llama/Llama-2-7b-chat-hf" (HF id),
 * "meta-llama__Llama-2-7b-chat-hf" (lm-eval's sanitised folder name), "meta-llama-Llama-2-7b-chat-hf"
 * (LLMPerf), "Llama-2-7b-chat-hf" (no org), "GPT-4o (2024-05-13)" (HELM display name). Each name is
 * tried at increasingly loose levels — exact (case-insensitive), then with all punctuation and the
 * org separator removed, then without the org prefix — and matches only when exactly one
 * candidate answers at the first level that answers at all. Ambiguous names are left unmatched for
 * the user to map; nothing is guessed.
 */

/**
 * A candidate's names: its name, its model id, its version (when it spells a model, e.g.
 * "meta-llama/Meta-Llama-3-8B-Instruct"; a bare revision like "3" or "2024-05-13" names no model on its
 * own and is left out) and its aliases — the spellings the analyst confirmed once.
 */
export type MatchCandidate = {
  id: string;
  name: string;
  aliases: readonly string[];
  modelId?: string;
  version?: string;
};

/** Every name the matcher knows a candidate by (the one list the importers and the shortlist use). */
export function candidateNames(c: MatchCandidate): string[] {
  const version = c.version && /\p{L}/u.test(c.version) ? [c.version] : [];
  return [c.name, c.modelId ?? "", ...version, ...c.aliases].filter((n) => n.trim() !== "");
}
export type ModelMatchResult = { matched: Map<string, string>; unmatched: string[] };

/** lm-eval writes "/" (and other path characters) as "__" in folder and file names. */
function unsanitise(name: string): string {
  return name.trim().toLowerCase().replace(/__/g, "/");
}

const alnum = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, "");

/** Keys from strict to loose; a level may be empty when the name has nothing to add there. */
function keys(name: string): string[] {
  const lower = unsanitise(name);
  const slash = lower.lastIndexOf("/");
  const base = slash >= 0 ? lower.slice(slash + 1) : lower;
  return [`exact:${lower}`, `alnum:${alnum(lower)}`, `base:${alnum(base)}`];
}

export function matchModels(models: readonly string[], candidates: readonly MatchCandidate[]): ModelMatchResult {
  const index = new Map<string, Set<string>>();
  const add = (key: string, id: string) => {
    if (/^[a-z]+:$/.test(key)) return; // a name made only of punctuation gives no key
    const ids = index.get(key) ?? new Set<string>();
    ids.add(id);
    index.set(key, ids);
  };
  for (const c of candidates) {
    for (const n of candidateNames(c)) {
      const [exact, full, base] = keys(n);
      add(exact as string, c.id);
      add(full as string, c.id);
      add(base as string, c.id);
      // A candidate named "Llama-2-7b-chat-hf" must also answer "meta-llama/Llama-2-7b-chat-hf" at the base level.
      add(`base:${alnum(unsanitise(n))}`, c.id);
    }
  }
  const matched = new Map<string, string>();
  const unmatched: string[] = [];
  for (const model of new Set(models)) {
    let found: string | undefined;
    for (const key of keys(model)) {
      const ids = index.get(key);
      if (!ids) continue;
      if (ids.size === 1) found = [...ids][0];
      break; // ambiguous at this level: do not fall through to a looser one
    }
    if (found) matched.set(model, found);
    else unmatched.push(model);
  }
  return { matched, unmatched };
}

/**
 * Groups names that spell one model, in one pass: each name joins the first group that answers one
 * of its keys (strict to loose, with the same rule as matchModels: ambiguous at a level means no
 * match), or starts a group of its own. Returns name → the group's first name.
 */
export function groupModelNames(names: readonly string[]): Map<string, string> {
  const index = new Map<string, Set<string>>();
  const register = (key: string, group: string) => {
    if (/^[a-z]+:$/.test(key)) return;
    const groups = index.get(key) ?? new Set<string>();
    groups.add(group);
    index.set(key, groups);
  };
  const out = new Map<string, string>();
  for (const name of names) {
    if (out.has(name)) continue;
    let group: string | undefined;
    for (const key of keys(name)) {
      const groups = index.get(key);
      if (!groups) continue;
      if (groups.size === 1) group = [...groups][0];
      break;
    }
    group ??= name;
    out.set(name, group);
    const [exact, full, base] = keys(name);
    for (const key of [exact, full, base, `base:${alnum(unsanitise(name))}`]) register(key as string, group);
  }
  return out;
}
