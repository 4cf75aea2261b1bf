export * from './check.js';
export * from './entailment.js';
export * from './fact.js';
export * from './ledger.js';
export * from './note.js';
export * from './spec.js';
export * from './trajectory.js';
export * from './workup.js';
