/** The providers' public surface. */
export * from './provider.js';
