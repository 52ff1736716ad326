/** Wire version constants (docs/spi.md §1). The SPI package's version follows it (0.8.x). */

export const WIRE_VERSION = '0.8' as const;
export type WireVersion = typeof WIRE_VERSION;

export const WIRE_STABILITY = 'unstable' as const;

/** An identity for generated JSON Schema `$id`s, not a URL that must resolve. */
export const SCHEMA_ID_BASE = `https://schemas.relvo.dev/agent-runtime/${WIRE_VERSION}` as const;

export function schemaId(name: string): string {
  return `${SCHEMA_ID_BASE}/${name}.json`;
}
