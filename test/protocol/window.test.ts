/**
 * The reviewed release window from fixtures alone (no binary): every allowlisted release has a
 * recorded handshake whose userAgent the version gate accepts, a schema manifest that matches
 * its checked-in JSON Schema files (or names a byte-identical checked-in release), and a stable
 * JSON Schema that accepts every frame the adapter writes in the baseline's transcripts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { digestOf, digestTree, type SchemaManifest } from '../../scripts/lib/schema-digest.js';
import type { TranscriptIndex } from '../../scripts/lib/transcript-index.js';
import {
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '../../src/constants.js';
import { isCompatibleCodexUserAgent } from '../../src/session/version-gate.js';
import { parseTranscript, type TranscriptLine } from '../../src/testing/index.js';
import { createSchemaAjv, methodOf, type UnionFile } from '../support/json-schema.js';
import { unlistedNeighbours } from '../support/releases.js';
import { SCHEMAS_DIR, TRANSCRIPTS_DIR } from '../support/paths.js';

const CLIENT_NAME = 'relvo_agent_runtime';
const VERSIONS = CODEX_SUPPORTED_APP_SERVER_VERSIONS;
const BASELINE = CODEX_APP_SERVER_VERSION;
/** Recordings whose client frames are checked against every release's schema. */
const ADAPTER_TRANSCRIPTS = ['text_turn', 'approval_accept', 'interrupt'] as const;

type Frame = Record<string, unknown>;

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const manifestOf = (version: string): SchemaManifest =>
  readJson(join(SCHEMAS_DIR, version, 'manifest.json')) as SchemaManifest;
/** The release whose json/ folder holds `version`'s schema. */
const treeOf = (version: string): string => manifestOf(version).identicalTo ?? version;
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

// --- schema loading (test/support/json-schema.ts) -----------------------------------------

/** Per-type files for the params of each request the adapter sends. */
const REQUEST_PARAMS: Readonly<Record<string, string>> = {
  initialize: 'v1/InitializeParams.json',
  'thread/start': 'v2/ThreadStartParams.json',
  'turn/start': 'v2/TurnStartParams.json',
  'turn/interrupt': 'v2/TurnInterruptParams.json',
};
/** The server requests the adapter answers, and the only response files it may need. */
const ANSWERED_RESPONSES = [
  'CommandExecutionRequestApprovalResponse.json',
  'ToolRequestUserInputResponse.json',
] as const;

interface ReleaseSchemas {
  /** The ClientRequest variant of `method`, compiled with the union's definitions. */
  requestVariant(method: string): ValidateFunction | undefined;
  /** A per-type file below json/. */
  file(relativePath: string): ValidateFunction;
  /** The response file answering a server-request method, from ServerRequest.json. */
  responseFileFor(method: string): string | undefined;
}

const loaded = new Map<string, ReleaseSchemas>();

function schemasOf(tree: string): ReleaseSchemas {
  const cached = loaded.get(tree);
  if (cached !== undefined) return cached;
  const dir = join(SCHEMAS_DIR, tree, 'json');
  const ajv = createSchemaAjv({ allErrors: true });
  const files = new Map<string, ValidateFunction>();
  const file = (relativePath: string): ValidateFunction => {
    let validate = files.get(relativePath);
    if (validate === undefined) {
      validate = ajv.compile(readJson(join(dir, relativePath)) as object);
      files.set(relativePath, validate);
    }
    return validate;
  };
  const requests = readJson(join(dir, 'ClientRequest.json')) as UnionFile;
  const variants = new Map(requests.oneOf.map((v) => [methodOf(v), v] as const));
  const compiledVariants = new Map<string, ValidateFunction>();
  const responses = new Map<string, string>();
  for (const v of (readJson(join(dir, 'ServerRequest.json')) as UnionFile).oneOf) {
    const params = v.properties.params?.$ref?.split('/').pop();
    if (params?.endsWith('Params') === true)
      responses.set(methodOf(v), `${params.slice(0, -'Params'.length)}Response.json`);
  }
  const schemas: ReleaseSchemas = {
    requestVariant(method) {
      const variant = variants.get(method);
      if (variant === undefined) return undefined;
      let validate = compiledVariants.get(method);
      if (validate === undefined) {
        // Only the selected variant: the methods' enums are disjoint, so this is the oneOf.
        const schema: object = {
          $schema: requests.$schema,
          definitions: requests.definitions,
          ...variant,
        };
        validate = ajv.compile(schema);
        compiledVariants.set(method, validate);
      }
      return validate;
    },
    file,
    responseFileFor: (method) => responses.get(method),
  };
  loaded.set(tree, schemas);
  return schemas;
}

/** Validate `value`; the returned string names the schema and its first errors when it fails. */
function check(validate: ValidateFunction, value: unknown, label: string): string | undefined {
  if (validate(value)) return undefined;
  const errors = (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
    .join('; ');
  return `${label}: ${errors}`;
}

/**
 * Every problem with one client frame under one release's schema (empty = accepted). A frame
 * that no listed type covers is itself a problem, so nothing passes by falling through.
 */
function problemsWithClientFrame(
  schemas: ReleaseSchemas,
  frame: Frame,
  serverRequests: ReadonlyMap<unknown, string>,
): string[] {
  const problems: (string | undefined)[] = [];
  const method = frame.method;
  if (Object.hasOwn(frame, 'jsonrpc')) problems.push('carries a jsonrpc member');
  if (typeof method === 'string' && 'id' in frame) {
    const variant = schemas.requestVariant(method);
    const paramsFile = REQUEST_PARAMS[method];
    if (variant === undefined || paramsFile === undefined) return [`${method}: not in the window`];
    problems.push(check(variant, frame, `ClientRequest ${method}`));
    problems.push(check(schemas.file(paramsFile), frame.params, paramsFile));
  } else if (typeof method === 'string') {
    problems.push(check(schemas.file('ClientNotification.json'), frame, 'ClientNotification'));
  } else if ('result' in frame) {
    const answered = serverRequests.get(frame.id);
    const responseFile = answered === undefined ? undefined : schemas.responseFileFor(answered);
    if (
      responseFile === undefined ||
      !(ANSWERED_RESPONSES as readonly string[]).includes(responseFile)
    )
      return ['a result for no bridged server request'];
    problems.push(check(schemas.file('JSONRPCResponse.json'), frame, 'JSONRPCResponse'));
    problems.push(check(schemas.file(responseFile), frame.result, responseFile));
  } else if ('error' in frame) {
    problems.push(check(schemas.file('JSONRPCError.json'), frame, 'JSONRPCError'));
  } else {
    problems.push('neither request, notification nor response');
  }
  return problems.filter((p): p is string => p !== undefined);
}

/** Server request id -> method, for every server request seen before each client answer. */
function serverRequestsOf(lines: readonly TranscriptLine[]): Map<unknown, string> {
  const map = new Map<unknown, string>();
  for (const { dir, frame } of lines) {
    if (dir === 's2c' && typeof frame.method === 'string' && 'id' in frame)
      map.set(frame.id, frame.method);
  }
  return map;
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

describe('every allowlisted release has a schema manifest backed by checked-in files', () => {
  it.each(VERSIONS)('%s', (version) => {
    const manifest = manifestOf(version);
    expect(manifest.codexVersion).toBe(version);
    const twin = manifest.identicalTo;
    if (twin === undefined) {
      const files = checkedInFiles(version);
      expect(files).toEqual(manifest.files);
      expect(digestOf(digestTree(join(SCHEMAS_DIR, version, 'json')).files)).toBe(
        manifest.jsonDigest,
      );
      expect(Object.keys(files)).toHaveLength(manifest.fileCount.json);
      // the generated TypeScript is digested, never checked in
      expect(existsSync(join(SCHEMAS_DIR, version, 'ts'))).toBe(false);
    } else {
      // Manifest only: the named release must be a full tree with the same digest.
      expect(existsSync(join(SCHEMAS_DIR, version, 'json'))).toBe(false);
      const target = manifestOf(twin);
      expect(target.identicalTo).toBeUndefined();
      expect(target.digest).toBe(manifest.digest);
      expect(target.fileCount).toEqual(manifest.fileCount);
      expect(target.jsonDigest).toBe(manifest.jsonDigest);
      expect(target.tsDigest).toBe(manifest.tsDigest);
      expect(digestOf(digestTree(join(SCHEMAS_DIR, twin, 'json')).files)).toBe(manifest.jsonDigest);
    }
  });

  it('the digest notices a single changed file', () => {
    const files = checkedInFiles(BASELINE);
    const changed = { ...files, 'json/ClientRequest.json': '0'.repeat(64) };
    expect(digestOf(changed)).not.toBe(digestOf(files));
  });
});

describe('each release schema accepts the frames the adapter writes (baseline transcripts)', () => {
  const cases = VERSIONS.flatMap((v) => ADAPTER_TRANSCRIPTS.map((s) => [v, s] as const));
  it.each(cases)('%s: %s', (version, scenario) => {
    const schemas = schemasOf(treeOf(version));
    const lines = transcript(BASELINE, scenario);
    const serverRequests = serverRequestsOf(lines);
    const written = lines.filter((l) => l.dir === 'c2s');
    expect(written.length).toBeGreaterThanOrEqual(4);
    const problems = written.flatMap(({ seq, frame }) =>
      problemsWithClientFrame(schemas, frame, serverRequests).map((p) => `seq ${seq}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it.each(VERSIONS)('%s: rejects frames the adapter must never write', (version) => {
    const schemas = schemasOf(treeOf(version));
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
});

describe("each release's own handshake replies match its own schema", () => {
  const replyFiles: Readonly<Record<string, string>> = {
    initialize: 'v1/InitializeResponse.json',
    'thread/start': 'v2/ThreadStartResponse.json',
  };
  it.each(VERSIONS)('%s', (version) => {
    const schemas = schemasOf(treeOf(version));
    const lines = transcript(version, 'handshake');
    const requests = new Map(
      lines
        .filter((l) => l.dir === 'c2s' && typeof l.frame.method === 'string' && 'id' in l.frame)
        .map((l) => [l.frame.id, String(l.frame.method)] as const),
    );
    const problems: string[] = [];
    let checked = 0;
    for (const { dir, frame } of lines) {
      if (dir !== 's2c') continue;
      if (frame.method === 'thread/started') {
        const p = check(schemas.file('v2/ThreadStartedNotification.json'), frame.params, 'started');
        if (p !== undefined) problems.push(p);
        checked++;
      } else if (!('method' in frame) && 'result' in frame) {
        const file = replyFiles[requests.get(frame.id) ?? ''];
        if (file === undefined) continue;
        const p = check(schemas.file(file), frame.result, file);
        if (p !== undefined) problems.push(p);
        checked++;
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBe(3);
  });
});
