/** Where the repository and its checked-in fixtures are, for the tests that read them. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
/** The pinned app-server JSON Schemas, a folder per release (`npm run protocol:pin`). */
export const SCHEMAS_DIR = join(REPO_ROOT, 'fixtures', 'codex-app-server');
/** The recorded transcripts, a folder per release (`npm run protocol:record`). */
export const TRANSCRIPTS_DIR = join(REPO_ROOT, 'fixtures', 'transcripts');
