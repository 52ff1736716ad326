// Public entry of @relvo-labs/agent-provider (wire 0.5).
export * from './wire.js';
export * from './json.js';
export * from './schemas/json.js';
export * from './schemas/error.js';
export * from './schemas/turn.js';
export * from './schemas/interaction.js';
export * from './schemas/events.js';
export * from './schemas/descriptor.js';
export * from './schemas/recovery.js';
export * from './schemas/termination.js';
export * from './schemas/public.js';
export * from './errors.js';
export * from './descriptor.js';
export * from './check-response.js';
export * from './state.js';
export type * from './interfaces.js';
