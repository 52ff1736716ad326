/**
 * Copies the console's API reference from the repository's docs/ into this package, so the
 * tarball a host installs carries it (the README links to it). The copy is not committed.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const here = join(import.meta.dirname, '..');
mkdirSync(join(here, 'docs'), { recursive: true });
copyFileSync(join(here, '..', '..', 'docs', 'console.md'), join(here, 'docs', 'console.md'));
