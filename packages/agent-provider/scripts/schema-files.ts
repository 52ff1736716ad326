/**
 * Builds the checked-in JSON Schema files from the zod schemas (the single
 * source of truth). Shared by the generator script and the drift test.
 */
import { z } from 'zod';
import { WIRE_VERSION, jsonObjectSchema } from '../src/index.js';
import { jsonValueSchema } from '../src/schemas/json.js';
import { PUBLIC_SCHEMAS } from '../src/schemas/public.js';
import { schemaId } from '../src/wire.js';

type JsonSchemaNode = Record<string, unknown>;

const JSON_VALUE_REF = '#/$defs/json-value';

// Any parsed JSON document is a JSON value; the nesting is spelled out for readers.
const JSON_VALUE_DEF: JsonSchemaNode = {
  anyOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'array', items: { $ref: JSON_VALUE_REF } },
    { type: 'object', additionalProperties: { $ref: JSON_VALUE_REF } },
  ],
};

/** The JSON carriers are zod customs (docs/spi.md §2 guard); give them their JSON Schema shape. */
function overrideCarriers(ctx: { zodSchema: unknown; jsonSchema: JsonSchemaNode }): void {
  if (ctx.zodSchema === jsonValueSchema) {
    ctx.jsonSchema.$ref = JSON_VALUE_REF;
  } else if (ctx.zodSchema === jsonObjectSchema) {
    ctx.jsonSchema.type = 'object';
    ctx.jsonSchema.additionalProperties = { $ref: JSON_VALUE_REF };
  }
}

export function buildSchemaDocument(name: string, schema: z.ZodType): JsonSchemaNode {
  // io 'input': the wire form, where members with defaults may be omitted.
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: overrideCarriers,
  }) as JsonSchemaNode;
  const { $schema, ...body } = generated;
  const doc: JsonSchemaNode = {
    $schema,
    $id: schemaId(name),
    title: name,
    'x-wire-version': WIRE_VERSION,
    ...body,
  };
  if (JSON.stringify(body).includes(JSON_VALUE_REF)) {
    const defs = (body.$defs ?? {}) as JsonSchemaNode;
    doc.$defs = { ...defs, 'json-value': JSON_VALUE_DEF };
  }
  return doc;
}

/** File name -> exact file text, in a stable order. */
export function buildSchemaFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, schema] of Object.entries(PUBLIC_SCHEMAS)) {
    files.set(`${name}.json`, `${JSON.stringify(buildSchemaDocument(name, schema), null, 2)}\n`);
  }
  return files;
}
