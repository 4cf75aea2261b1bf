// Every deterministic metric: pure functions, same input, same score. One folder (or file) per family.
export * from './citations/index.js';
export * from './difflib.js';
export * from './hotpot.js';
export * from './needle/index.js';
export * from './stats/index.js';
export * from './tradecraft/index.js';
export * from './trajectory/index.js';
