import type { PGlite } from "@electric-sql/pglite";
import type { Pool, PoolClient } from "pg";
import type { SqlRunner } from "./migrations.ts";

/** A SqlRunner over a pg Pool: one client per transaction. */
export function pgRunner(pool: Pool): SqlRunner {
  const onClient = (client: Pool | PoolClient): SqlRunner => ({
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    transaction: async (fn) => {
      const conn = await pool.connect();
      try {
        await conn.query("BEGIN");
        await fn(onClient(conn));
        await conn.query("COMMIT");
      } catch (error) {
        await conn.query("ROLLBACK");
        throw error;
      } finally {
        conn.release();
      }
    },
  });
  return onClient(pool);
}

/** A SqlRunner over an embedded PGlite instance. */
export function pgliteRunner(pg: PGlite): SqlRunner {
  return {
    exec: async (sql) => {
      await pg.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await pg.query<T>(sql, params)).rows,
    transaction: async (fn) => {
      await pg.transaction(async (tx) => {
        await fn({
          exec: async (sql) => {
            await tx.exec(sql);
          },
          query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
          transaction: () => Promise.reject(new Error("nested transactions are not supported")),
        });
      });
    },
  };
}
