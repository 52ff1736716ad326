/**
 * `npm run docs:architecture`: rewrites the numbers of docs/architecture.md's source-folder
 * table from the tree (files and `wc -l` lines of the `.ts` files directly in each folder under a
 * package's `src/`). A folder new to the tree gets a row to describe; a row whose folder is gone
 * is dropped and named.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  parseFolderTable,
  regenerate,
  sourceFolders,
  UNDESCRIBED,
} from './lib/architecture-tree.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const page = join(root, 'docs', 'architecture.md');
const before = readFileSync(page, 'utf8');
const tree = sourceFolders(root);
const after = regenerate(before, tree);
const gone = parseFolderTable(before).filter((row) => !tree.some((f) => f.folder === row.folder));
for (const row of gone) console.log(`dropped: ${row.folder} (no longer in the tree)`);
for (const row of parseFolderTable(after).filter((r) => r.what === UNDESCRIBED)) {
  console.log(`describe: ${row.folder}`);
}
if (after === before) console.log('docs/architecture.md: the folder table is current');
else {
  writeFileSync(page, after);
  console.log('docs/architecture.md: folder table rewritten');
}
