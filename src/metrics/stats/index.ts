// Statistics over repeated trials: estimators, intervals and the tests the regression gate uses. Pure functions.
export * from './clustered.js';
export * from './exact.js';
export * from './interval.js';
export * from './normal.js';
export * from './pass-at-k.js';
export * from './power.js';
export * from './random.js';
export * from './stratified.js';
export * from './tests.js';
