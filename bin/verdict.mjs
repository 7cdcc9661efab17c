#!/usr/bin/env node
// Launcher for the TypeScript CLI (cli/verdict.ts): registers tsx's loader in this process,
// resolved from this package, so it works from any working directory and through `npx verdict`.
import { register } from "tsx/esm/api";

register();
await import(new URL("../cli/verdict.ts", import.meta.url).href);
