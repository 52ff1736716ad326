/**
 * Config is refused when it is loaded, by key: unknown keys named with the closest known one,
 * enums with their allowed values, a provider's options checked against its own schemas at
 * createAgentRuntime, a JSON syntax error with its line and column, a store folder created.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isConfigRefusal,
  isRuntimeError,
  loadRuntimeConfig,
  openSqliteEventStore,
  parseRuntimeConfig,
  type ProviderFactory,
  type RuntimeError,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onCleanup, tempDir, thrownRuntimeError as thrown } from './support.js';

/** A factory that, like createCodexProvider, carries its option schemas. */
const strictFactory: ProviderFactory = Object.assign(() => createScriptedProvider().provider, {
  optionSchemas: {
    providerOptions: z.strictObject({
      approvals: z.enum(['none', 'bridge']).default('none'),
      requestTimeoutMs: z.number().int().positive().optional(),
    }),
    sessionOptions: z.strictObject({ model: z.string().optional() }),
  },
});

async function creationRefusal(profile: Record<string, unknown>): Promise<RuntimeError> {
  const config = { defaultProfile: 'p', profiles: { p: { provider: 'scripted', ...profile } } };
  const created = await createAgentRuntime({
    providers: { scripted: strictFactory },
    config,
  }).then(
    async (runtime) => {
      await runtime.shutdown();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (!isRuntimeError(created)) throw new Error('createAgentRuntime did not refuse');
  return created;
}

describe("a provider's options are checked when the runtime is created", () => {
  it('names an unknown key with the closest known one', async () => {
    const error = await creationRefusal({ providerOptions: { approvalMode: 'bridge' } });
    expect(isConfigRefusal(error)).toBe(true);
    expect(error.reason).toBe('provider_options_refused');
    expect(error.error.retryable).toBe(false);
    expect(error.error.details).toMatchObject({
      profile: 'p',
      path: 'profiles.p.providerOptions.approvalMode',
      issues: [
        {
          path: 'profiles.p.providerOptions.approvalMode',
          code: 'unknown_key',
          key: 'approvalMode',
          suggestion: 'approvals',
        },
      ],
    });
    expect(error.message).toContain('unknown key "approvalMode" (did you mean "approvals"?)');
  });

  it('lists the allowed values of an enum and every issue at once, never the value given', async () => {
    const error = await creationRefusal({
      providerOptions: { approvals: 'sometimes', requestTimeoutMs: -5 },
      sessionOptions: {},
    });
    const issues = error.error.details?.issues;
    expect(issues).toEqual([
      {
        path: 'profiles.p.providerOptions.approvals',
        code: 'not_allowed',
        allowed: ['none', 'bridge'],
      },
      {
        path: 'profiles.p.providerOptions.requestTimeoutMs',
        code: 'too_small',
        origin: 'number',
        limit: 0,
        inclusive: false,
      },
    ]);
    expect(error.message).toContain('must be one of "none", "bridge"');
    expect(error.message).toContain('requestTimeoutMs: must be greater than 0');
    expect(JSON.stringify(error.error)).not.toContain('sometimes');
  });

  it('refuses session options by key too', async () => {
    const error = await creationRefusal({ sessionOptions: { modle: 'x' } });
    expect(error.reason).toBe('session_options_refused');
    expect(error.error.details).toMatchObject({
      path: 'profiles.p.sessionOptions.modle',
      issues: [{ code: 'unknown_key', key: 'modle', suggestion: 'model' }],
    });
  });
});

describe("the runtime's own config", () => {
  it('names an unknown profile key with the closest known one', () => {
    const error = thrown(() =>
      parseRuntimeConfig({
        defaultProfile: 'p',
        profiles: { p: { provider: 'scripted', providerOption: {} } },
      }),
    );
    expect(error.reason).toBe('config_invalid');
    expect(error.error.details).toMatchObject({
      profile: 'p',
      path: 'profiles.p.providerOption',
      issues: [{ code: 'unknown_key', key: 'providerOption', suggestion: 'providerOptions' }],
    });
  });

  it('a defaultProfile that names no profile suggests the closest one', () => {
    const error = thrown(() =>
      parseRuntimeConfig({
        defaultProfile: 'codex-readnly',
        profiles: { 'codex-readonly': { provider: 'codex' }, other: { provider: 'codex' } },
      }),
    );
    expect([error.reason, error.error.details?.suggestion]).toEqual([
      'unknown_profile',
      'codex-readonly',
    ]);
  });

  it('gives the line and column of a JSON syntax error', () => {
    const path = join(tempDir(), 'relvo.runtime.json');
    writeFileSync(path, '{\n  "defaultProfile": "p",\n  "profiles": {},\n}\n');
    const error = thrown(() => loadRuntimeConfig(path));
    expect(error.reason).toBe('config_invalid');
    expect(error.error.details).toMatchObject({ line: 4, column: 1 });
    expect(error.message).toBe('host config file is not valid JSON at line 4, column 1');
  });
});

describe('the line and column of other JSON syntax errors', () => {
  it.each([
    ['{"a" 1}', 1, 6],
    ['{\n  "a": "open\n}', 2, 13],
    ['[1,]', 1, 4],
    ['{"a": tru}', 1, 7],
    ['', 1, 1],
    ['{"a": 1} x', 1, 10],
  ])('%j', (text, line, column) => {
    const path = join(tempDir(), 'relvo.runtime.json');
    writeFileSync(path, text);
    expect(thrown(() => loadRuntimeConfig(path)).error.details).toMatchObject({ line, column });
  });
});

describe('the store path', () => {
  it('a missing folder is created', async () => {
    const path = join(tempDir(), 'not', 'yet', 'events.db');
    const store = openSqliteEventStore({ path });
    onCleanup(() => store.close());
    expect(existsSync(path)).toBe(true);
  });

  it('a folder that cannot be created is refused as such, not retryable', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const error = thrown(() => openSqliteEventStore({ path: join(file, 'events.db') }));
    expect([error.reason, error.error.retryable]).toEqual(['store_path_invalid', false]);
    expect(error.error.details?.errno).toMatch(/^E[A-Z]+$/);
    expect(error.message).not.toContain(file);
  });
});
