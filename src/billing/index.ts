/** The pure billing domain. Re-exports only; workflow-safe (no Node built-ins, no I/O, no clock). */
export * from './canonical-view';
export * from './customer-resource';
export * from './effects';
export * from './iso-time';
export * from './metrics';
export * from './mrr';
export * from './provider-events';
export * from './subscriber-id';
export * from './subscriber-state';
export * from './subscriber-view';
export * from './subscription';
export * from './summary';
