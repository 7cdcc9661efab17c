import { loadData } from "./data";
import { radixSortFloat64 } from "../lib/metrics/sort";
const { scores } = loadData(10_000_000);
let t = performance.now();
const lap = (what: string) => { const now = performance.now(); console.log(what, (now - t).toFixed(0), "ms"); t = now; };
const a = scores.slice(); lap("slice");
const r = radixSortFloat64(a); lap("radix");
const b = scores.slice(); b.sort(); lap("native");
let same = true; for (let i = 0; i < b.length; i++) if (r[i] !== b[i]) { same = false; break; }
console.log("same", same);
const m = Float64Array.from({length: 1_000_000}, () => (Math.random() - 0.5) * 1e6 * (Math.random() < 0.1 ? 0 : 1));
const m1 = radixSortFloat64(m.slice()); const m2 = m.slice().sort();
console.log("mixed signs same", m1.every((v, i) => v === m2[i]));
