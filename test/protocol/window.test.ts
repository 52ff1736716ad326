/**
 * The reviewed release window from fixtures alone (no binary): every allowlisted release has a
 * recorded handshake whose userAgent the version gate accepts and a schema manifest; only the
 * baseline's JSON Schema tree is checked in, and it accepts every frame the adapter writes in the
 * baseline's transcripts. Every other release's schema was checked the same way by its review,
 * on a tree regenerated from the release cache; its report records the result
 * (compat-reports.test.ts holds each report to it).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADAPTER_TRANSCRIPTS,
  checkClientFrames,
  checkHandshakeReplies,
  loadReleaseSchemas,
  problemsWithClientFrame,
} from '../../scripts/lib/review/frame-schema.js';
import { digestOf, digestTree, type SchemaManifest } from '../../scripts/lib/schema-digest.js';
import type { TranscriptIndex } from '../../scripts/lib/transcript-index.js';
import {
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '../../src/constants.js';
import { isCompatibleCodexUserAgent } from '../../src/session/version-gate.js';
import { parseTranscript, type TranscriptLine } from '../../src/testing/index.js';
import { unlistedNeighbours } from '../support/releases.js';
import { SCHEMAS_DIR, TRANSCRIPTS_DIR } from '../support/paths.js';

const CLIENT_NAME = 'relvo_agent_runtime';
const VERSIONS = CODEX_SUPPORTED_APP_SERVER_VERSIONS;
const BASELINE = CODEX_APP_SERVER_VERSION;

type Frame = Record<string, unknown>;

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const manifestOf = (version: string): SchemaManifest =>
  readJson(join(SCHEMAS_DIR, version, 'manifest.json')) as SchemaManifest;
const transcript = (version: string, scenario: string): TranscriptLine[] =>
  parseTranscript(readFileSync(join(TRANSCRIPTS_DIR, version, `${scenario}.jsonl`), 'utf8'));

/** sha256 of every checked-in JSON Schema file, keyed like the manifest (`json/…`). */
function checkedInFiles(version: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, hash] of Object.entries(digestTree(join(SCHEMAS_DIR, version, 'json')).files)) {
    files[`json/${path}`] = hash;
  }
  return files;
}

// --- tests ------------------------------------------------------------------------------

describe('every allowlisted release has a handshake recording the version gate accepts', () => {
  it.each(VERSIONS)('%s', (version) => {
    const lines = transcript(version, 'handshake');
    const init = lines.find((l) => l.dir === 'c2s' && l.frame.method === 'initialize');
    expect(init, 'initialize request').toBeDefined();
    const reply = lines.find(
      (l) => l.dir === 's2c' && l.frame.id === init?.frame.id && !('method' in l.frame),
    );
    const userAgent = (reply?.frame.result as { userAgent?: unknown } | undefined)?.userAgent;
    expect(isCompatibleCodexUserAgent(userAgent, CLIENT_NAME)).toBe(true);
    // The gate accepts any allowlisted release: also pin which one answered here.
    expect(userAgent).toMatch(new RegExp(`^${CLIENT_NAME}/${version.replaceAll('.', '\\.')} \\(`));
    expect(lines.some((l) => l.dir === 's2c' && l.frame.method === 'thread/started')).toBe(true);

    const index = readJson(join(TRANSCRIPTS_DIR, version, 'index.json')) as TranscriptIndex;
    expect(index.codexVersion).toBe(version);
    expect(index.scenarios.handshake?.exitCode).toBe(0);
    expect(index.scenarios.handshake?.frames).toBe(lines.length);
  });

  it('the same recording under an unreviewed version is refused', () => {
    const lines = transcript(BASELINE, 'handshake');
    const ua = (
      lines.find((l) => l.dir === 's2c' && l.frame.id === 1)?.frame.result as {
        userAgent: string;
      }
    ).userAgent;
    expect(isCompatibleCodexUserAgent(ua, CLIENT_NAME)).toBe(true);
    for (const unlisted of unlistedNeighbours()) {
      const other = ua.replace(`/${BASELINE} `, `/${unlisted} `);
      expect(other).not.toBe(ua);
      expect(isCompatibleCodexUserAgent(other, CLIENT_NAME)).toBe(false);
    }
  });
});

describe('every allowlisted release has a schema manifest; only the baseline has a tree', () => {
  it('the baseline tree is checked in and matches its manifest', () => {
    const manifest = manifestOf(BASELINE);
    const files = checkedInFiles(BASELINE);
    if (manifest.files !== undefined) expect(files).toEqual(manifest.files);
    expect(digestOf(digestTree(join(SCHEMAS_DIR, BASELINE, 'json')).files)).toBe(
      manifest.jsonDigest,
    );
    expect(Object.keys(files)).toHaveLength(manifest.fileCount.json);
    // the generated TypeScript is digested, never checked in
    expect(existsSync(join(SCHEMAS_DIR, BASELINE, 'ts'))).toBe(false);
  });

  it('no other release keeps a tree (they are regenerated from the release cache)', () => {
    const trees = readdirSync(SCHEMAS_DIR).filter(
      (v) => existsSync(join(SCHEMAS_DIR, v, 'json')) || existsSync(join(SCHEMAS_DIR, v, 'ts')),
    );
    expect(trees).toEqual([BASELINE]);
  });

  it.each(VERSIONS)('%s: the manifest is consistent in itself', (version) => {
    const manifest = manifestOf(version);
    expect(manifest.codexVersion).toBe(version);
    const twin = manifest.identicalTo;
    if (twin === undefined) {
      const files = manifest.files ?? {};
      expect(Object.keys(files)).toHaveLength(manifest.fileCount.json);
      expect(
        digestOf(Object.fromEntries(Object.entries(files).map(([k, v]) => [k.slice(5), v]))),
      ).toBe(manifest.jsonDigest);
    } else {
      // the named release was pinned with the same output
      const target = manifestOf(twin);
      expect(target.identicalTo).toBeUndefined();
      expect(target.digest).toBe(manifest.digest);
      expect(target.fileCount).toEqual(manifest.fileCount);
      expect(target.jsonDigest).toBe(manifest.jsonDigest);
      expect(target.tsDigest).toBe(manifest.tsDigest);
    }
  });

  it('the digest notices a single changed file', () => {
    const files = checkedInFiles(BASELINE);
    const changed = { ...files, 'json/ClientRequest.json': '0'.repeat(64) };
    expect(digestOf(changed)).not.toBe(digestOf(files));
  });
});

describe('the baseline schema accepts the frames the adapter writes', () => {
  const schemas = loadReleaseSchemas(join(SCHEMAS_DIR, BASELINE, 'json'));

  it.each(ADAPTER_TRANSCRIPTS)('%s', (scenario) => {
    const result = checkClientFrames(schemas, scenario, transcript(BASELINE, scenario));
    expect(result.checked).toBeGreaterThanOrEqual(4);
    expect(result.problems).toEqual([]);
  });

  it('rejects frames the adapter must never write', () => {
    const approval = new Map<unknown, string>([[0, 'item/commandExecution/requestApproval']]);
    // Each must be refused by the named type's own file, not only by some envelope.
    const bad: readonly (readonly [Frame, string])[] = [
      [{ id: 1, method: 'initialize', params: { capabilities: null } }, 'v1/InitializeParams'],
      [{ id: 2, method: 'thread/start', params: { approvalPolicy: 'bogus' } }, 'v2/ThreadStart'],
      [
        { id: 3, method: 'turn/start', params: { threadId: 't', input: [{ type: 'text' }] } },
        'v2/TurnStartParams',
      ],
      [{ id: 4, method: 'turn/interrupt', params: { threadId: 't' } }, 'v2/TurnInterruptParams'],
      [{ id: 0, result: { decision: 'approve' } }, 'CommandExecutionRequestApprovalResponse'],
      [{ method: 'initialised' }, 'ClientNotification'],
    ];
    for (const [frame, label] of bad) {
      const problems = problemsWithClientFrame(schemas, frame, approval);
      expect(
        problems.some((p) => p.startsWith(label)),
        `${JSON.stringify(frame)}: ${problems.join(' | ')}`,
      ).toBe(true);
    }
  });

  it('its own handshake replies match it', () => {
    expect(checkHandshakeReplies(schemas, transcript(BASELINE, 'handshake'))).toEqual({
      checked: 3,
      problems: [],
    });
  });

  it('a reply that breaks the schema is named', () => {
    const lines = transcript(BASELINE, 'handshake').map((l) =>
      l.frame.method === 'thread/started' ? { ...l, frame: { ...l.frame, params: {} } } : l,
    );
    const result = checkHandshakeReplies(schemas, lines);
    expect(result.problems).toEqual([
      expect.stringMatching(/^handshake seq \d+: v2\/ThreadStartedNotification\.json: /),
    ]);
  });
});
