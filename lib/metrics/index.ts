/** Public API of the metrics engine (SPEC §4). Pure TypeScript: typed arrays in, numbers out. */
export * from "./result";
export * from "./validate";
export * from "./ranking";
export * from "./pr-curve";
export * from "./average-precision";
export * from "./roc";
export * from "./trapezoid";
export * from "./confusion";
export * from "./calibration";
export * from "./prevalence";
export * from "./cost";
export * from "./intervals";
export * from "./random";
export * from "./bootstrap";
export * from "./mcnemar";
export * from "./slices";
export * from "./downsample";
