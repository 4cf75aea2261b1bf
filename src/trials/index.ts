// Trials: checks grouped by task (several workups of one task), and the statistics of those groups.
export * from '../workup/trial-identity.js';
export * from '../workup/trial-layout.js';
export * from './summary.js';
export * from './tally.js';
