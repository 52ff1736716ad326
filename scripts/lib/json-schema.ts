/**
 * Reading the JSON Schema that `codex app-server generate-json-schema` writes: the union files'
 * layout and an Ajv that knows the generated files' Rust numeric formats.
 */
import { Ajv } from 'ajv';

/** One variant of a ClientRequest/ServerRequest union: a method enum and a params reference. */
export interface Variant {
  readonly properties: {
    readonly method: { readonly enum: readonly string[] };
    readonly params?: { readonly $ref?: string };
  };
}
export interface UnionFile {
  readonly $schema?: string;
  readonly definitions?: Record<string, unknown>;
  readonly oneOf: readonly Variant[];
}

export function methodOf(variant: Variant): string {
  const method = variant.properties.method.enum[0];
  if (method === undefined) throw new Error('unexpected schema layout: a variant without a method');
  return method;
}

/** The generated files declare draft-07 and use Rust numeric formats; give those meaning. */
export function createSchemaAjv(options: { readonly allErrors: boolean }): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: options.allErrors });
  const integer = (n: number): boolean => Number.isInteger(n);
  const unsigned = (n: number): boolean => Number.isInteger(n) && n >= 0;
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => integer(n) && Math.abs(n) <= 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: integer });
  ajv.addFormat('uint', { type: 'number', validate: unsigned });
  ajv.addFormat('uint8', { type: 'number', validate: (n: number) => unsigned(n) && n < 2 ** 8 });
  ajv.addFormat('uint16', { type: 'number', validate: (n: number) => unsigned(n) && n < 2 ** 16 });
  ajv.addFormat('uint32', { type: 'number', validate: (n: number) => unsigned(n) && n < 2 ** 32 });
  ajv.addFormat('uint64', { type: 'number', validate: unsigned });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  return ajv;
}
