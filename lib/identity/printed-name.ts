import unhomoglyph from "unhomoglyph";

/**
 * Printed names compared as people read them (issue 28 §2): two names that read alike on a
 * signature page are one name. This is the one rule; lib/server/identity's
 * `assertPrintedNameFree` applies it to invitations (admin page, API, `verdict user invite`),
 * accepted invitations and reactivations.
 *
 * The key of a name:
 * 1. Unicode NFKC: compatibility forms read as their plain letters (NBSP → space, fullwidth
 *    Ａ → A, ligatures ﬁ → fi, composed é = e + U+0301).
 * 2. Invisible characters removed: every Default_Ignorable_Code_Point and format character
 *    (zero-width space/joiners, soft hyphen, bidi controls, variation selectors, BOM).
 * 3. Whitespace runs become one space, trimmed; a combining mark repeated at once counts once.
 * 4. The UTS #39 (TR39) confusable skeleton, NFD(map(NFD(s))), with the mapping of Unicode's
 *    confusables.txt as packaged by `unhomoglyph` (generated from that file, not hand-written):
 *    Cyrillic А, Greek Α and Latin A share a skeleton, "rn" reads as "m", "I" as "l".
 * 5. Case folded (full folding: ß = ss, ς = σ) before the skeleton, as UTS #39 does for
 *    case-insensitive comparison (so "SIGNER" = "Signer": the skeleton alone would read the
 *    capital I as l), and again after it (the mapping's targets include capitals: 0 → O).
 *
 * Accents stay significant (José ≠ Jose: a reader sees the accent); only their encoding does not.
 */
export function printedNameKey(name: string): string {
  const visible = cleanPrintedName(name.normalize("NFKC"));
  return collapse(caseFold(skeleton(caseFold(visible))));
}

/**
 * The name as stored: NFC, invisible characters removed, whitespace collapsed. It keeps the
 * person's own letters and case (the key above is only for comparing).
 */
export function cleanPrintedName(name: string): string {
  return collapse(name.normalize("NFC").replace(INVISIBLE, "")).normalize("NFC");
}

/** The first of `others` whose printed name reads like `name`, or undefined. */
export function resemblingName<T extends { name: string }>(name: string, others: readonly T[]): T | undefined {
  const key = printedNameKey(name);
  return others.find((other) => printedNameKey(other.name) === key);
}

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
const SPACES = /[\s\p{Z}]+/gu;
const REPEATED_MARK = /(\p{M})\1+/gu;

const collapse = (s: string) => s.replace(SPACES, " ").replace(REPEATED_MARK, "$1").trim();
const skeleton = (s: string) => unhomoglyph(s.normalize("NFD")).normalize("NFD");
// No locale: the upper-then-lower round trip gives full case folding for the letters names use.
const caseFold = (s: string) => s.toUpperCase().toLowerCase();
