import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildSchemaFiles } from '../scripts/schema-files.js';
import {} from '../src/index.js';
import { PUBLIC_SCHEMAS } from '../src/schemas/public.js';
import { schemaId } from '../src/wire.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object
const addFormats = formatsModule.default;
const schemasDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
const generated = buildSchemaFiles();

describe('checked-in JSON Schema', () => {
  it('has one file per public schema and nothing else', () => {
    const onDisk = readdirSync(schemasDir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(onDisk).toEqual([...generated.keys()].sort());
    expect(onDisk).toHaveLength(Object.keys(PUBLIC_SCHEMAS).length);
  });

  it.each([...generated.keys()])('%s matches what the zod schemas generate now', (file) => {
    const onDisk = readFileSync(join(schemasDir, file), 'utf8');
    // On failure: node --import tsx packages/agent-provider/scripts/generate-schemas.ts
    expect(onDisk, `${file} drifted; regenerate with npm run schemas:generate`).toBe(
      generated.get(file),
    );
  });

  it('every file has $id = schemaId(name) and compiles under draft 2020-12', () => {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    for (const [file, text] of generated) {
      const doc = JSON.parse(text) as { $id: string };
      expect(doc.$id).toBe(schemaId(file.replace(/\.json$/, '')));
      expect(() => ajv.compile(doc)).not.toThrow();
    }
  });
});

describe('JSON Schema agrees with zod on samples', () => {
  // formats on: a timestamp that is not RFC 3339 must fail here as it fails in zod
  const ajv = addFormats(new Ajv2020({ strict: false }));
  const validator = (name: keyof typeof PUBLIC_SCHEMAS) =>
    ajv.getSchema(schemaId(name)) ?? ajv.compile(JSON.parse(generated.get(`${name}.json`) ?? '{}'));

  const identity = { providerId: 'a', providerVersion: '1', wireVersion: '0.8', displayName: 'A' };
  const samples: [keyof typeof PUBLIC_SCHEMAS, unknown][] = [
    [
      'provider-descriptor',
      {
        ...identity,
        workspace: { requires: 'none' },
      },
    ],
    [
      'provider-descriptor',
      {
        ...identity,
        workspace: {},
      },
    ],
    [
      'provider-descriptor',
      {
        ...identity,
        workspace: { requires: 'none' },
        recovery: { resumesFromRecoveryRecord: true },
      },
    ],
    ['turn-input', { parts: [{ type: 'file_ref', path: 'src/a.ts' }] }],
    ['turn-input', { parts: [{ type: 'file_ref', path: '../a.ts' }] }],
    ['turn-input', { parts: [{ type: 'file_ref', path: 'C:/a.ts' }] }],
    ['turn-input', { parts: [{ type: 'text', text: 'hi' }], metadata: { a: [1, { b: null }] } }],
    ['provider-event-input', { payload: { type: 'run.usage', usage: { inputTokens: 1 } } }],
    [
      'provider-event-input',
      { payload: { type: 'run.usage', usage: { inputTokens: 1 } }, sequence: 1 },
    ],
    ['interaction-response', { kind: 'question_set', answers: { a: { type: 'text', text: 'x' } } }],
    [
      'interaction-response',
      { kind: 'question_set', answers: { 'bad key': { type: 'text', text: 'x' } } },
    ],
    ['interaction-settlement', { outcome: 'cancelled', settledAt: '2026-12-01T05:00:00Z' }],
    ['interaction-settlement', { outcome: 'cancelled', settledAt: '2026-02-30T05:00:00Z' }],
    ['interaction-settlement', { outcome: 'cancelled', settledAt: '2026-12-01 05:00' }],
    ['agent-error', { code: 'internal', message: 'm', details: { x: 1 } }],
    ['agent-error', { code: 'nope', message: 'm' }],
  ];

  it.each(samples)('%s: sample %# gives the same verdict', (name, sample) => {
    expect(validator(name)(sample)).toBe(PUBLIC_SCHEMAS[name].safeParse(sample).success);
  });
});
