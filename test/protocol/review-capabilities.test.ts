/**
 * The capability tables of the reviewed window (ADR-0042): how a need is looked up in a
 * release's schema (on the checked-in baseline tree and on copies of it with a need taken out),
 * that every allowlisted report carries the table for the needs the adapter declares today, and
 * that src/capabilities/releases.ts is exactly what the reports give.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import {
  capabilitiesOf,
  carriedFeatures,
  declares,
  parseNeed,
} from '../../scripts/lib/review/capabilities.js';
import { capabilityMapOf, renderCapabilityMap } from '../../scripts/lib/review/capability-map.js';
import { schemaJsonDir } from '../../scripts/lib/review/pin.js';
import { readReport } from '../../scripts/lib/review/report.js';
import { loadSurface, type ProtocolSurface } from '../../scripts/lib/review/protocol-surface.js';
import {
  capabilityTableSchema,
  CODEX_FEATURE_NEEDS,
  CODEX_FEATURES,
} from '../../src/capabilities/features.js';
import { CODEX_RELEASE_CAPABILITIES } from '../../src/capabilities/releases.js';
import {
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '../../src/constants.js';
import { REPO_ROOT, SCHEMAS_DIR } from '../support/paths.js';

const COMPAT = join(REPO_ROOT, 'fixtures', 'compat');
const MAP_PATH = join(REPO_ROOT, 'src', 'capabilities', 'releases.ts');
const base = loadSurface(schemaJsonDir(SCHEMAS_DIR, CODEX_APP_SERVER_VERSION));

/** The baseline surface with one definition replaced (or a method dropped from its union). */
function doctored(
  change: (s: { -readonly [K in keyof ProtocolSurface]: ProtocolSurface[K] }) => void,
) {
  const copy = structuredClone(base) as {
    -readonly [K in keyof ProtocolSurface]: ProtocolSurface[K];
  };
  change(copy);
  return copy;
}

describe('a need looked up in a schema', () => {
  it('reads the four shapes of a need', () => {
    expect(parseNeed('turn/steer')).toEqual({ method: 'turn/steer', result: false });
    expect(parseNeed('turn/start.outputSchema')).toMatchObject({
      method: 'turn/start',
      field: 'outputSchema',
    });
    expect(parseNeed('mcpServer/elicitation/request.mode=url')).toMatchObject({
      field: 'mode',
      value: 'url',
    });
    expect(parseNeed('model/list:result.data')).toMatchObject({ result: true, field: 'data' });
  });

  it('the baseline declares every need of every feature', () => {
    const table = capabilitiesOf(base);
    expect(carriedFeatures(table)).toEqual([...CODEX_FEATURES]);
  });

  it('an absent method, field, value or result field is not declared', () => {
    expect(declares(base, 'turn/nope')).toBe(false);
    expect(declares(base, 'turn/steer.nope')).toBe(false);
    expect(declares(base, 'mcpServer/elicitation/request.mode=nope')).toBe(false);
    expect(declares(base, 'model/list:result.nope')).toBe(false);
    // a params field is not a result field
    expect(declares(base, 'turn/start:result.outputSchema')).toBe(false);
  });

  it('a release without turn/steer lacks run.steer and nothing else', () => {
    const surface = doctored((s) => {
      const { ['turn/steer']: _gone, ...rest } = s.clientRequests;
      s.clientRequests = rest;
    });
    const table = capabilitiesOf(surface);
    expect(table['run.steer'].missing).toEqual([...CODEX_FEATURE_NEEDS['run.steer']]);
    expect(carriedFeatures(table)).toEqual(CODEX_FEATURES.filter((f) => f !== 'run.steer'));
  });

  it('a release whose elicitation has no URL mode lacks both elicitation features', () => {
    const key = base.serverRequests['mcpServer/elicitation/request'] ?? '';
    const surface = doctored((s) => {
      const def = structuredClone(s.definitions[key]) as { oneOf: { properties: object }[] };
      def.oneOf = def.oneOf.filter((v) => !JSON.stringify(v.properties).includes('"url"'));
      s.definitions = { ...s.definitions, [key]: def };
    });
    const table = capabilitiesOf(surface);
    expect(table.mcpElicitations.missing).toEqual(['mcpServer/elicitation/request.mode=url']);
    expect(table.elicitationUrls.missing).toEqual([
      'mcpServer/elicitation/request.mode=url',
      'mcpServer/elicitation/request.url',
    ]);
  });
});

describe('the reports and the committed capability map', () => {
  it.each([...CODEX_SUPPORTED_APP_SERVER_VERSIONS])(
    '%s: the report holds a capability table for the needs declared today',
    (version) => {
      const table = capabilityTableSchema.parse(readReport(COMPAT, version)?.capabilities);
      for (const feature of CODEX_FEATURES) {
        expect(table[feature].needs).toEqual([...CODEX_FEATURE_NEEDS[feature]]);
      }
    },
  );

  it("the baseline's table is what its checked-in tree gives", () => {
    expect(readReport(COMPAT, CODEX_APP_SERVER_VERSION)?.capabilities).toEqual(
      capabilitiesOf(base),
    );
  });

  it('src/capabilities/releases.ts is the map the reports give, formatted', async () => {
    const map = capabilityMapOf(COMPAT, CODEX_SUPPORTED_APP_SERVER_VERSIONS);
    expect(CODEX_RELEASE_CAPABILITIES).toEqual(map);
    const config = (await resolveConfig(MAP_PATH)) ?? {};
    const text = await format(renderCapabilityMap(map), { ...config, filepath: MAP_PATH });
    expect(readFileSync(MAP_PATH, 'utf8')).toBe(text);
  });

  it('a report without a table stops the map with the refresh command', () => {
    expect(() => capabilityMapOf(COMPAT, ['0.0.1'])).toThrow(/refresh-reports/);
  });
});
