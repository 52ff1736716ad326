/**
 * Generated from the capability tables of fixtures/compat/<version>.json by
 * scripts/lib/review/capability-map.ts (`npm run review`, scripts/refresh-reports.ts); do
 * not edit. Per allowlisted release, the optional features its schema carries (ADR-0042).
 */
import type { CodexSupportedAppServerVersion } from '../constants.js';
import type { CodexFeature } from './features.js';

const CARRIES_1: readonly CodexFeature[] = [
  'events.plan',
  'events.diff',
  'events.reasoningSummary',
  'permissions',
  'mcpElicitations',
  'elicitationUrls',
  'run.steer',
  'run.structuredOutput',
  'listModels',
  'readRateLimits',
  'onRateLimits',
  'readAccount',
  'session.revert',
  'mcpServers',
  'login',
  'chatgptLogin',
  'session.history',
];

export const CODEX_RELEASE_CAPABILITIES: Readonly<
  Record<CodexSupportedAppServerVersion, readonly CodexFeature[]>
> = {
  '0.153.4': CARRIES_1,
  '0.154.0': CARRIES_1,
  '0.155.0': CARRIES_1,
  '0.155.1': CARRIES_1,
  '0.156.0': CARRIES_1,
  '0.156.1': CARRIES_1,
  '0.157.0': CARRIES_1,
  '0.157.1': CARRIES_1,
  '0.158.0': CARRIES_1,
  '0.159.0': CARRIES_1,
  '0.159.1': CARRIES_1,
  '0.159.2': CARRIES_1,
  '0.159.3': CARRIES_1,
  '0.160.0': CARRIES_1,
  '0.160.1': CARRIES_1,
  '0.161.0': CARRIES_1,
  '0.162.0': CARRIES_1,
  '0.162.1': CARRIES_1,
  '0.163.0': CARRIES_1,
  '0.164.0': CARRIES_1,
  '0.165.0': CARRIES_1,
  '0.166.0': CARRIES_1,
  '0.167.2': CARRIES_1,
  '0.168.0': CARRIES_1,
  '0.169.0': CARRIES_1,
  '0.169.1': CARRIES_1,
  '0.171.0': CARRIES_1,
};
