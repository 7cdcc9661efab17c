import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every module of lib/server holds data access or secrets: each must refuse to load in a client
// bundle, which `import "server-only"` as its first statement does (Next fails the build).
function serverModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverModules(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("lib/server", () => {
  const modules = serverModules(path.join(import.meta.dirname));

  it("is found", () => expect(modules.length).toBeGreaterThan(50));

  it('opens every module with import "server-only"', () => {
    const without = modules.filter((file) => {
      const firstStatement = fs
        .readFileSync(file, "utf8")
        .replace(/^(\s*(\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*/, "")
        .split("\n")[0];
      return firstStatement?.trim() !== 'import "server-only";';
    });
    expect(without.map((file) => path.relative(process.cwd(), file))).toEqual([]);
  });
});
