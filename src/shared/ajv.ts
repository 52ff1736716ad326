/**
 * ajv, loaded on first use: a host that never hands the adapter a JSON Schema (an output schema,
 * a host tool's input schema) never pays its start-up.
 */
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';

let ajvClass: typeof AjvClass | undefined;

function loadAjv(): typeof AjvClass {
  ajvClass ??= (createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass }).Ajv;
  return ajvClass;
}

/**
 * Compiles a host's schema; throws when it does not compile. No remote refs and no code
 * generation from formats: the schema is the host's, not trusted code.
 */
export function compileHostSchema(schema: object, allErrors = false): ValidateFunction {
  const Ajv = loadAjv();
  return new Ajv({ strict: false, allErrors, validateFormats: false }).compile(schema);
}

export type { ValidateFunction };
