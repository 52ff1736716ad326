/** Writes packages/agent-provider/schemas/*.json. Run: npm run schemas:generate -w @relvo-labs/agent-provider */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchemaFiles } from './schema-files.js';

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
mkdirSync(outDir, { recursive: true });
const files = buildSchemaFiles();
// Remove files for schemas that no longer exist, so the folder mirrors the source.
for (const existing of readdirSync(outDir)) {
  if (existing.endsWith('.json') && !files.has(existing)) rmSync(join(outDir, existing));
}
for (const [name, text] of files) writeFileSync(join(outDir, name), text);
process.stdout.write(`wrote ${files.size} schema files to ${outDir}\n`);
