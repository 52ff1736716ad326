/**
 * For capability-gate tests: no reviewed release lacks a feature, so a test doctors the map's
 * first release (`vi.mock` of src/capabilities/releases.js) to lack the ones it names, and reads
 * the typed refusal a gated call settles with.
 */
import type { CodexFeature } from '../../src/capabilities/features.js';
import type * as Releases from '../../src/capabilities/releases.js';
import {
  CODEX_APP_SERVER_MIN_VERSION,
  type CodexSupportedAppServerVersion,
} from '../../src/constants.js';

/** The releases module with the window's first release lacking `lacking`. */
export function firstReleaseLacking(
  real: typeof Releases,
  lacking: readonly CodexFeature[],
): Pick<typeof Releases, 'CODEX_RELEASE_CAPABILITIES'> {
  const first = CODEX_APP_SERVER_MIN_VERSION as CodexSupportedAppServerVersion;
  const old = real.CODEX_RELEASE_CAPABILITIES[first];
  return {
    CODEX_RELEASE_CAPABILITIES: {
      ...real.CODEX_RELEASE_CAPABILITIES,
      [first]: old.filter((f) => !lacking.includes(f)),
    },
  };
}

/** What a gated call is refused with on `codexVersion` (the doctored release by default). */
export function unsupported(
  capability: CodexFeature,
  codexVersion: string = CODEX_APP_SERVER_MIN_VERSION,
) {
  return { code: 'capability_unsupported', details: { capability, codexVersion } };
}

export { refusal } from './refusals.js';
