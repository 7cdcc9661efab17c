/**
 * The production HTTP server: Next's own request handler (the one `next start` uses) behind the
 * body guard (lib/security/body-guard.ts), so that one body-limit rule holds for every entry
 * before Next reads anything. `npm start`, `npm run demo` and the e2e servers run it:
 *   node --import tsx scripts/serve.ts <port> [hostname]
 */
import { createServer } from "node:http";
import next from "next";
import { guardRequestBody } from "../lib/security/body-guard.ts";

async function main() {
  const port = Number(process.argv[2] ?? 3000);
  const hostname = process.argv[3];
  const app = next({ dev: false, dir: process.cwd(), port, hostname: hostname ?? "localhost" });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => {
    if (guardRequestBody(req, res)) return;
    // As `next start` does: a failure outside Next's own handling is a 500 and a log line.
    handle(req, res).catch((error: unknown) => {
      console.error(`Failed to handle request for ${req.url}`, error);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  server.listen(port, hostname, () => console.log(`Verdict: serving on port ${port}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => {
      server.close();
      process.exit(0);
    });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
