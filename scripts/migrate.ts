/**
 * Migrations without Prisma's native schema engine (unreachable on this network).
 *   tsx scripts/migrate.ts deploy        apply committed migrations to DATABASE_URL (or the embedded database)
 *   tsx scripts/migrate.ts diff NAME     write prisma/migrations/<timestamp>_NAME/migration.sql: the
 *                                        difference between the committed migrations and schema.prisma,
 *                                        computed by Prisma's schema engine compiled to WebAssembly,
 *                                        with an in-memory PGlite as the shadow database.
 *   tsx scripts/migrate.ts check         exit 1 when schema.prisma has changes no migration holds (CI)
 * Where the native engine is available, `prisma migrate dev` produces the same files.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { readMigrations, migrationsDir } from "../lib/db/migrations.ts";
import { migrateDatabase } from "../lib/db/connect.ts";

async function schemaDiff(): Promise<string> {
  const require = createRequire(import.meta.url);
  const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg").replace(/\.js$/, ".wasm");
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {
    "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
  });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();

  const schemaPath = path.join(process.cwd(), "prisma", "schema.prisma");
  const schema = readFileSync(schemaPath, "utf8");
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(new PGlite("memory://main")));
  const engine = await bg.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);
  const lockPath = path.join(migrationsDir(), "migration_lock.toml");
  const migrations = readMigrations();
  const result = await engine.diff({
    from: {
      tag: "migrations",
      baseDir: migrationsDir(),
      lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
      migrationDirectories: migrations.map((m) => ({
        path: m.name,
        migrationFile: { path: "migration.sql", content: { tag: "ok", value: m.sql } },
      })),
      shadowDbInitScript: "",
    },
    to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  } as Parameters<typeof engine.diff>[0]);
  return result.stdout ?? "";
}

const isEmptyDiff = (sql: string) => sql.trim() === "" || sql.includes("This is an empty migration.");

async function main() {
  const [command, name] = process.argv.slice(2);
  if (command === "deploy") {
    const applied = await migrateDatabase();
    console.log(applied.length ? `Applied ${applied.join(", ")}` : "Database is up to date.");
  } else if (command === "diff") {
    if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error("usage: migrate.ts diff <snake_case_name>");
    const sql = await schemaDiff();
    if (isEmptyDiff(sql)) return console.log("No schema changes.");
    const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const dir = path.join(migrationsDir(), `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "migration.sql"), sql);
    const lock = path.join(migrationsDir(), "migration_lock.toml");
    if (!existsSync(lock)) writeFileSync(lock, 'provider = "postgresql"\n');
    console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  } else if (command === "check") {
    const sql = await schemaDiff();
    if (!isEmptyDiff(sql)) {
      console.error("schema.prisma has changes that no migration holds:\n" + sql);
      process.exit(1);
    }
    console.log("Migrations match schema.prisma.");
  } else {
    throw new Error("usage: migrate.ts deploy | diff <name> | check");
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
