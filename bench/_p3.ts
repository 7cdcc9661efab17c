import { spawn } from "node:child_process";
import { Pool } from "undici";
import { ChatClient } from "../lib/harness/chat-client.ts";
const child = spawn(process.execPath, ["--import", "tsx", "scripts/sim-endpoint.ts", "--port", "0"], { stdio: ["pipe", "pipe", "inherit"] });
const url: string = await new Promise((r) => child.stdout!.on("data", (d) => { const m = String(d).match(/listening (\S+)/); if (m) r(m[1]!); }));
const C = 64; const u = new URL(url);
const body = JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "item 1 2" }] });
async function raw(seconds: number) {
  const pool = new Pool(u.origin, { connections: C, keepAliveTimeout: 60000 });
  let n = 0; const end = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: C }, async () => { while (performance.now() < end) { const r = await pool.request({ path: u.pathname + "/chat/completions", method: "POST", headers: { "content-type": "application/json" }, body }); await r.body.dump(); n++; } }));
  await pool.close(); return n / seconds;
}
const protocol = { sampling: { temperature: 0, maxTokens: 16, stop: [] }, score: { kind: "label" as const } };
async function harness(seconds: number) {
  const client = new ChatClient({ baseUrl: url, model: "m", apiKey: null }, protocol, { connections: C });
  let n = 0; const end = performance.now() + seconds * 1000;
  const msgs = [{ role: "user" as const, content: "item 1 2" }];
  await Promise.all(Array.from({ length: C }, async () => { while (performance.now() < end) { const r = await client.call(msgs); if (!r.completed) throw new Error(r.error!); n++; } }));
  await client.close(); return n / seconds;
}
for (let i = 0; i < 4; i++) console.log("undici-raw", (await raw(3)).toFixed(0), "harness", (await harness(3)).toFixed(0));
child.kill(); process.exit(0);
