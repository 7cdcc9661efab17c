// Fails when a function in the app's own code is longer than a reader can hold in mind.
// `npm run check` runs it; `tsx scripts/function-length.ts --list 100` lists every function of 100
// lines or more without failing; `--repo DIR` checks another tree. Generated code, demo data, tests, fixtures and benchmarks are
// left out: their length is data, not logic.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const MAX_FUNCTION_LINES = 120;
const ROOTS = ["app", "components", "lib", "cli", "scripts"];
const LEFT_OUT = [/\.test\.tsx?$/, /\.test-helpers\.tsx?$/, /(^|\/)lib\/generated\//, /(^|\/)lib\/demo\//, /\.d\.ts$/];

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !LEFT_OUT.some((pattern) => pattern.test(full)) ? [full] : [];
  });
}

/** A function's name as a reader finds it: its own, or the variable, property or method holding it. */
function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `callback of ${parent.expression.getText().slice(0, 40)}`;
  return "(anonymous)";
}

/** Every function in one file with its length in lines, nested ones counted on their own as well. */
export function functionLengths(file: string, text = fs.readFileSync(file, "utf8")): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: start + 1, name: nameOf(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function longFunctions(atLeast: number, repo = "."): LongFunction[] {
  return ROOTS.map((root) => path.join(repo, root))
    .flatMap(sourceFiles)
    .flatMap((file) => functionLengths(file))
    .filter((fn) => fn.lines >= atLeast)
    .sort((a, b) => b.lines - a.lines);
}

function main() {
  const listAt = process.argv.indexOf("--list");
  const atLeast = listAt >= 0 ? Number(process.argv[listAt + 1] ?? 100) : MAX_FUNCTION_LINES + 1;
  const repoAt = process.argv.indexOf("--repo");
  const found = longFunctions(atLeast, repoAt >= 0 ? process.argv[repoAt + 1] : ".");
  for (const fn of found) console.log(`${fn.file}:${fn.line} ${fn.name} — ${fn.lines} lines`);
  if (listAt >= 0) return;
  if (found.length > 0) {
    console.error(`${found.length} function(s) over ${MAX_FUNCTION_LINES} lines: split them into named parts.`);
    process.exit(1);
  }
  console.log(`function length: none over ${MAX_FUNCTION_LINES} lines`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
