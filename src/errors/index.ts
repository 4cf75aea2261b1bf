export * from './diagnostic.js';
export * from './user-error.js';
