export * from './agents.js';
export * from './error-catalog.js';
export * from './error-response.js';
export * from './nlweb.js';
export * from './operations.js';
export * from './parameters.js';
export * from './records.js';
export * from './service.js';
