import { afterEach, describe, expect, it } from "vitest";
import { embeddedDatabaseRefusal, env, EnvError, type Env } from "./env";

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["DATABASE_POOL_SIZE", "VERDICT_WORKER", "VERDICT_PUBLIC_URL"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("env()", () => {
  it("parses numbers and applies defaults", () => {
    delete process.env.DATABASE_POOL_SIZE;
    expect(env().DATABASE_POOL_SIZE).toBe(10);
    process.env.DATABASE_POOL_SIZE = "4";
    expect(env().DATABASE_POOL_SIZE).toBe(4);
  });

  it("treats an empty value as unset", () => {
    process.env.DATABASE_POOL_SIZE = "";
    expect(env().DATABASE_POOL_SIZE).toBe(10);
  });

  it("names every malformed variable and what it expects, instead of falling back", () => {
    process.env.DATABASE_POOL_SIZE = "ten";
    process.env.VERDICT_WORKER = "no";
    process.env.VERDICT_PUBLIC_URL = "verdict.example.com";
    let thrown: unknown;
    try {
      env();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvError);
    const problems = (thrown as EnvError).problems;
    expect(problems).toHaveLength(3);
    expect(problems).toContain(
      'DATABASE_POOL_SIZE="ten": expected the pg pool size per app server, a positive whole number',
    );
    expect(problems).toContain('VERDICT_WORKER="no": expected "1" (on) or "0" (off)');
    expect(problems).toContain('VERDICT_PUBLIC_URL="verdict.example.com": expected an http(s):// address');
  });

  it("refuses zero where a positive number is expected", () => {
    process.env.DATABASE_POOL_SIZE = "0";
    expect(() => env()).toThrow(/DATABASE_POOL_SIZE="0"/);
  });
});

describe("embeddedDatabaseRefusal()", () => {
  const base = { DATABASE_POOL_SIZE: 10, VERDICT_WORKER: "1" } as Env;
  it("refuses a server with no DATABASE_URL unless VERDICT_EMBEDDED_DATABASE=1 chooses the embedded one", () => {
    expect(embeddedDatabaseRefusal(base)).toMatch(
      /DATABASE_URL is not set[\s\S]*VERDICT_EMBEDDED_DATABASE=1[\s\S]*\.\/data\/pglite/,
    );
    expect(embeddedDatabaseRefusal({ ...base, VERDICT_DATA_DIR: "/srv/verdict/pglite" })).toContain(
      "/srv/verdict/pglite",
    );
    expect(embeddedDatabaseRefusal({ ...base, VERDICT_EMBEDDED_DATABASE: "1" })).toBeNull();
    expect(embeddedDatabaseRefusal({ ...base, DATABASE_URL: "postgresql://u@h/db" })).toBeNull();
  });
});
