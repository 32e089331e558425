export * from './errors.js';
export * from './params.js';
export * from './search.js';
export * from './document.js';
