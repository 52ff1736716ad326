import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRuntimeError } from '../src/errors.js';
import { loadPgDriver } from '../src/store/postgres-driver.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the pg driver, an optional peer', () => {
  it('a host without pg gets store_driver_missing naming the install command', () => {
    // resolution from a folder with no node_modules above it: what a host without pg sees
    const host = mkdtempSync(join(tmpdir(), 'relvo-no-pg-'));
    dirs.push(host);
    let thrown: unknown;
    try {
      loadPgDriver(createRequire(join(host, 'host.js')));
    } catch (error) {
      thrown = error;
    }
    expect(isRuntimeError(thrown)).toBe(true);
    if (!isRuntimeError(thrown)) return;
    expect(thrown.reason).toBe('store_driver_missing');
    expect(thrown.error.code).toBe('store_unavailable');
    expect(thrown.error.retryable).toBe(false);
    expect(thrown.message).toContain('npm install pg@^8');
    expect(thrown.message).not.toContain(host);
  });

  it('loads the installed pg, and passes on a failure that is not a missing module', () => {
    const pg = loadPgDriver(createRequire(import.meta.url));
    expect(typeof pg.Pool).toBe('function');
    const broken = new Error('pg failed while loading');
    expect(() =>
      loadPgDriver(() => {
        throw broken;
      }),
    ).toThrow(broken);
  });
});
