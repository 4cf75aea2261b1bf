// Trials: checks grouped by task (several workups of one task), and the statistics of those groups.
export * from './identity.js';
export * from './layout.js';
export * from './summary.js';
export * from './tally.js';
