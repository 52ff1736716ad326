/** Runs `relvo-codex review` against the stand-in repository of test/fixtures/review-repo. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { runReview } from '../../src/commands/review.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'review-repo');
process.exitCode = await runReview(CODEX_APP_SERVER_VERSION, [], process.env, repo);
