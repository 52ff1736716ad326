// Public entry @relvo-labs/agent-runtime/console: the web console over a runtime (ADR-0034).
// A subpath of its own, so that a host that never serves a page never loads it.
export { startConsole, consoleOptionsSchema } from './server.js';
export type { ConsoleOptions, ConsoleServer } from './server.js';
export type { PendingInteraction, SessionDigestView, TurnTimings, UsageTotals } from './digest.js';
export type { InboxItem, SessionRow } from './sessions.js';
export { LIVE_STATES, SESSION_OWNERS } from './live-state.js';
export type { LiveState, SessionOwner } from './live-state.js';
export { CONSOLE_LIMIT_DEFAULTS } from './limits.js';
export type { ConsoleLimits } from './limits.js';
export { CODE_REFUSALS, DEFAULT_CODE_TTL_MS } from './codes.js';
export type { CodeRefusal } from './codes.js';
