/**
 * `@relvo-labs/agent-provider-codex/testing`: helpers for credential-free, network-free tests
 * against a real codex binary. Nothing here imports a test framework.
 */
export * from './codex-binary.js';
export * from './codex-config.js';
export * from './sse-script.js';
export * from './model-server.js';
export * from './transcript.js';
