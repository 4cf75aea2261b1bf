export * from './diagnostic.js';
export * from './fs-error.js';
export * from './user-error.js';
