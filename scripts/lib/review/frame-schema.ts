/**
 * One release's JSON Schema against real frames: every frame the adapter writes in the
 * baseline's recordings must validate against the release's stable schema, and the release's
 * own handshake replies against its own. The review records the result in the report
 * (`schemaChecks`); `npm test` runs the same check on the checked-in baseline tree only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { parseTranscript, type TranscriptLine } from '../../../src/testing/index.js';
import { createSchemaAjv, methodOf, type UnionFile } from '../json-schema.js';

/** Recordings whose client frames are checked against every release's schema. */
export const ADAPTER_TRANSCRIPTS = ['text_turn', 'approval_accept', 'interrupt'] as const;

export interface SchemaChecks {
  /** How many frames were validated. */
  readonly checked: number;
  /** `<where>: <schema file>: <first errors>` per rejected frame; empty when all passed. */
  readonly problems: readonly string[];
}

type Frame = Record<string, unknown>;

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
/** The handshake replies checked against the release's own schema. */
const REPLY_FILES: Readonly<Record<string, string>> = {
  initialize: 'v1/InitializeResponse.json',
  'thread/start': 'v2/ThreadStartResponse.json',
};

export interface ReleaseSchemas {
  /** The ClientRequest variant of `method`, compiled with the union's definitions. */
  requestVariant(method: string): ValidateFunction | undefined;
  /** A per-type file below json/. */
  file(relativePath: string): ValidateFunction;
  /** The response file answering a server-request method, from ServerRequest.json. */
  responseFileFor(method: string): string | undefined;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** The validators of one json/ tree, compiled lazily. */
export function loadReleaseSchemas(dir: string): ReleaseSchemas {
  const ajv = createSchemaAjv({ allErrors: true });
  const files = new Map<string, ValidateFunction>();
  const requests = readJson(join(dir, 'ClientRequest.json')) as UnionFile;
  const variants = new Map(requests.oneOf.map((v) => [methodOf(v), v] as const));
  const compiledVariants = new Map<string, ValidateFunction>();
  const responses = new Map<string, string>();
  for (const v of (readJson(join(dir, 'ServerRequest.json')) as UnionFile).oneOf) {
    const params = v.properties.params?.$ref?.split('/').pop();
    if (params?.endsWith('Params') === true)
      responses.set(methodOf(v), `${params.slice(0, -'Params'.length)}Response.json`);
  }
  return {
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
    file(relativePath) {
      let validate = files.get(relativePath);
      if (validate === undefined) {
        validate = ajv.compile(readJson(join(dir, relativePath)) as object);
        files.set(relativePath, validate);
      }
      return validate;
    },
    responseFileFor: (method) => responses.get(method),
  };
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
export function problemsWithClientFrame(
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

/** Server request id -> method, for every server request in a recording. */
function serverRequestsOf(lines: readonly TranscriptLine[]): Map<unknown, string> {
  const map = new Map<unknown, string>();
  for (const { dir, frame } of lines) {
    if (dir === 's2c' && typeof frame.method === 'string' && 'id' in frame)
      map.set(frame.id, frame.method);
  }
  return map;
}

/** The adapter's frames in one recording under `schemas`. */
export function checkClientFrames(
  schemas: ReleaseSchemas,
  scenario: string,
  lines: readonly TranscriptLine[],
): SchemaChecks {
  const serverRequests = serverRequestsOf(lines);
  const written = lines.filter((l) => l.dir === 'c2s');
  return {
    checked: written.length,
    problems: written.flatMap(({ seq, frame }) =>
      problemsWithClientFrame(schemas, frame, serverRequests).map(
        (p) => `${scenario} seq ${seq}: ${p}`,
      ),
    ),
  };
}

/** A release's own handshake replies (initialize, thread/start, thread/started) under `schemas`. */
export function checkHandshakeReplies(
  schemas: ReleaseSchemas,
  lines: readonly TranscriptLine[],
): SchemaChecks {
  const requests = new Map(
    lines
      .filter((l) => l.dir === 'c2s' && typeof l.frame.method === 'string' && 'id' in l.frame)
      .map((l) => [l.frame.id, String(l.frame.method)] as const),
  );
  const problems: string[] = [];
  let checked = 0;
  for (const { dir, frame, seq } of lines) {
    if (dir !== 's2c') continue;
    const file =
      frame.method === 'thread/started'
        ? 'v2/ThreadStartedNotification.json'
        : !('method' in frame) && 'result' in frame
          ? REPLY_FILES[requests.get(frame.id) ?? '']
          : undefined;
    if (file === undefined) continue;
    const value = frame.method === 'thread/started' ? frame.params : frame.result;
    const p = check(schemas.file(file), value, file);
    if (p !== undefined) problems.push(`handshake seq ${seq}: ${p}`);
    checked++;
  }
  return { checked, problems };
}

/** Both checks on one release: the baseline's adapter frames and its own handshake. */
export function checkReleaseSchema(
  jsonDir: string,
  baselineRecordings: Readonly<Record<string, readonly TranscriptLine[]>>,
  ownHandshake: readonly TranscriptLine[],
): SchemaChecks {
  const schemas = loadReleaseSchemas(jsonDir);
  const parts = [
    ...ADAPTER_TRANSCRIPTS.map((scenario) => {
      const lines = baselineRecordings[scenario];
      return lines === undefined
        ? { checked: 0, problems: [`${scenario}: the baseline has no recording`] }
        : checkClientFrames(schemas, scenario, lines);
    }),
    checkHandshakeReplies(schemas, ownHandshake),
  ];
  return {
    checked: parts.reduce((n, p) => n + p.checked, 0),
    problems: parts.flatMap((p) => p.problems),
  };
}

const readRecording = (path: string): TranscriptLine[] | undefined =>
  existsSync(path) ? parseTranscript(readFileSync(path, 'utf8')) : undefined;

/**
 * `checkReleaseSchema` on the checked-in recordings: the baseline's adapter transcripts and
 * `version`'s own handshake under fixtures/transcripts.
 */
export function schemaChecksOf(
  version: string,
  jsonDir: string,
  transcriptsRoot: string,
  baseline: string,
): SchemaChecks {
  const baselineRecordings: Record<string, readonly TranscriptLine[]> = {};
  for (const scenario of ADAPTER_TRANSCRIPTS) {
    const lines = readRecording(join(transcriptsRoot, baseline, `${scenario}.jsonl`));
    if (lines !== undefined) baselineRecordings[scenario] = lines;
  }
  const handshake = readRecording(join(transcriptsRoot, version, 'handshake.jsonl'));
  if (handshake === undefined) {
    return { checked: 0, problems: [`${version} has no recorded handshake`] };
  }
  return checkReleaseSchema(jsonDir, baselineRecordings, handshake);
}
