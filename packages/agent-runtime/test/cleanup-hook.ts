/**
 * A setup file of the in-memory project (vitest.config.ts): vitest runs it before every test
 * file, so each file runs the runtime tests' cleanups after its tests, even when support.ts was
 * imported (and registered its own hook) for an earlier file in the same worker.
 */
import { afterEach } from 'vitest';
import { runCleanups } from './cleanups.js';

afterEach(runCleanups);
