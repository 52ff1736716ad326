/** Session options and the workspace root: refused before spawning, or carried on thread/start. */
import type { ProviderSession } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createCodexProvider } from '../../src/index.js';
import { createProviderHarness, WORKSPACE } from '../support/provider-harness.js';
import { open, published, waitForRequest } from '../support/provider-frames.js';
import { rejectionOf, sessionInit } from '../support/session-handshake.js';

describe('session options and workspace', () => {
  for (const options of [
    { executable: '/bin/sh' },
    { model: 'gpt', env: {} },
    { sandboxMode: 'yolo' },
    { model: '' },
    { model: 'm'.repeat(201) },
  ]) {
    it(`refuses options ${JSON.stringify(options).slice(0, 40)} with invalid_request before spawning`, async () => {
      let calls = 0;
      const provider = createCodexProvider({
        transport: () => {
          calls += 1;
          throw new Error('must not be called');
        },
      });
      const error = await rejectionOf(provider.createSession(sessionInit(WORKSPACE, options)));
      expect(error.code).toBe('invalid_request');
      expect(calls).toBe(0);
    });
  }

  for (const root of ['relative/dir', './here', '', 'C:']) {
    it(`refuses workspace root ${JSON.stringify(root)} before the transport factory is called`, async () => {
      let calls = 0;
      const provider = createCodexProvider({
        transport: () => {
          calls += 1;
          throw new Error('must not be called');
        },
      });
      const error = await rejectionOf(provider.createSession(sessionInit(root)));
      expect(error.code).toBe('invalid_request');
      expect(published(error.message)).not.toContain(root === '' ? '\u0000' : root);
      expect(calls).toBe(0);
    });
  }

  const precedence: [Record<string, unknown>, Record<string, string>, Record<string, unknown>][] = [
    [{}, {}, { sandbox: 'read-only', approvalPolicy: 'never' }],
    [
      { model: 'p-model', sandboxMode: 'workspace-write' },
      {},
      { model: 'p-model', sandbox: 'workspace-write' },
    ],
    [
      { model: 'p-model', sandboxMode: 'workspace-write' },
      { model: 's-model', sandboxMode: 'danger-full-access' },
      { model: 's-model', sandbox: 'danger-full-access' },
    ],
    [
      { approvals: 'bridge' },
      { sandboxMode: 'workspace-write' },
      { approvalPolicy: 'on-request', sandbox: 'workspace-write' },
    ],
    [{ questions: 'bridge' }, {}, { approvalPolicy: 'never' }],
  ];
  for (const [providerOptions, sessionOptions, expected] of precedence) {
    it(`thread/start for provider ${JSON.stringify(providerOptions)} + session ${JSON.stringify(sessionOptions)}`, async () => {
      const h = createProviderHarness(providerOptions);
      let session: ProviderSession | undefined;
      const opening = open(h, sessionOptions).then((s) => (session = s));
      const frame = await waitForRequest(h.transport, 'thread/start');
      await opening;
      expect(frame.params).toMatchObject({ cwd: WORKSPACE, ephemeral: true, ...expected });
      if (!('model' in expected)) expect(frame.params).not.toHaveProperty('model');
      await session?.dispose();
    });
  }
});
