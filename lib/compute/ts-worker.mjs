// Worker-thread entry that can run a TypeScript module: registers tsx's loader in this thread
// (Node 20 workers do not inherit the parent's loader hooks), then imports the module named in
// workerData.module. Used only when lib/compute itself runs as TypeScript (tsx, vitest).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.module);
