/**
 * The capability gate (ADR-0042): what the connected release carries, from the generated map,
 * and the refusals that follow. Everything is decided before anything depends on it: a session's
 * options once the handshake knows the release (before `initialized` and `thread/start`), a run's
 * `outputSchema` at `startRun`, a steer at `steer`, a probe before its question. Never mid-turn.
 */
import type { ProviderRejection } from '@relvo-labs/agent-provider';
import type { ResolvedCodexProviderOptions } from '../options.js';
import { codexRejection } from '../shared/codex-error.js';
import type { CodexFeature } from './features.js';
import { CODEX_RELEASE_CAPABILITIES } from './releases.js';

/** The options that decide which features every session of a provider uses. */
export type FeatureOptions = Pick<
  ResolvedCodexProviderOptions,
  'events' | 'permissions' | 'mcpElicitations' | 'elicitationUrls' | 'onRateLimits' | 'mcpServers'
>;

/** The features a provider's options turn on for each of its sessions, in table order. */
export function requestedFeatures(options: FeatureOptions): CodexFeature[] {
  const out: CodexFeature[] = [];
  if (options.events.plan) out.push('events.plan');
  if (options.events.diff !== 'none') out.push('events.diff');
  if (options.events.reasoningSummary) out.push('events.reasoningSummary');
  if (options.permissions === 'bridge') out.push('permissions');
  if (options.mcpElicitations === 'bridge') {
    out.push('mcpElicitations');
    // the address is only shown through the bridge
    if (options.elicitationUrls === 'show') out.push('elicitationUrls');
  }
  if (options.onRateLimits !== undefined) out.push('onRateLimits');
  if (options.mcpServers !== undefined && options.mcpServers.length > 0) out.push('mcpServers');
  return out;
}

/** Release → carried features; the generated map unless a test hands in its own. */
export type CapabilityMap = Readonly<Record<string, readonly CodexFeature[]>>;

/**
 * What one connected release carries. A release the map does not hold (one the host reviewed
 * itself, `additionalAppServerVersions`) is taken on the host's word: nothing is refused.
 */
export class ReleaseCapabilities {
  readonly codexVersion: string;
  readonly #carried: readonly CodexFeature[] | undefined;

  constructor(codexVersion: string, map: CapabilityMap = CODEX_RELEASE_CAPABILITIES) {
    this.codexVersion = codexVersion;
    this.#carried = Object.hasOwn(map, codexVersion) ? map[codexVersion] : undefined;
  }

  carries(feature: CodexFeature): boolean {
    return this.#carried === undefined || this.#carried.includes(feature);
  }

  /** `capability_unsupported` naming the first feature of `features` the release lacks. */
  refusal(features: readonly CodexFeature[]): ProviderRejection | undefined {
    const lacking = features.find((f) => !this.carries(f));
    if (lacking === undefined) return undefined;
    return codexRejection(
      'capability_unsupported',
      `the connected codex release does not carry ${lacking}`,
      // both bounded: a feature token, and the version the gate already parsed
      { details: { capability: lacking, codexVersion: this.codexVersion } },
    );
  }
}
