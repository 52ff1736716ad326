/**
 * The scripted model outlives the host it serves: it runs as a process of its own
 * (`startScriptedModelProcess`), a host process drives the real codex against it with a SQLite
 * log, the test SIGKILLs the host mid-turn, and a new host resumes the session; the same model
 * process serves the resumed turn to completion, and what it received shows the same thread.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createIsolatedCodexHome,
  requireCodexBinary,
  requestInputItems,
  startScriptedModelProcess,
  textStep,
} from '../../src/testing/index.js';
import { onCleanup } from '../../packages/agent-runtime/test/support.js';
import { testEnv } from '../support/processes.js';
import { scriptArgv } from '../../packages/agent-runtime/test/script-bundle.js';
import { Host, LEASE_MS, type HostSpec } from './harness.js';

const MAIN = fileURLToPath(new URL('../../src/testing/scripted-model-main.ts', import.meta.url));

describe('an out-of-process scripted model across a host kill (SQLite)', () => {
  it('the host is SIGKILLed mid-turn; a new host resumes and the same model process serves its turn', async () => {
    const binary = requireCodexBinary({ kind: 'native' });
    const iso = createIsolatedCodexHome('relvo-model-proc-');
    onCleanup(() => {
      iso.dispose();
    });
    const modelProcess = await startScriptedModelProcess({
      command: [process.execPath, ...scriptArgv(MAIN)],
      env: testEnv(),
    });
    onCleanup(() => modelProcess.stop());
    const model = modelProcess.model;
    const host = (spec: HostSpec): Host =>
      new Host(
        [
          JSON.stringify({
            ...spec,
            url: '',
            schema: '',
            sqlite: join(iso.root, 'log.sqlite'),
            leaseMs: LEASE_MS,
            baseUrl: model.baseUrl,
            executable: binary.path,
            workspace: iso.workspace,
          }),
        ],
        iso.env(testEnv()),
        'model-process',
      );

    const word = `PAPAYA-${Date.now()}`;
    // the first turn's answer stalls after one delta: the host dies while it streams
    await model.enqueue(textStep(['thinking', ' more'], { stallAfterDeltas: 1 }));
    const owner = host({ mode: 'turn', prompt: `remember ${word}` });
    const sessionId = (await owner.line((l) => l.startsWith('SESSION '), 'the session')).slice(8);
    await model.waitForRequests(1, 30_000);
    await owner.saw('run.started', 'the first turn');
    owner.signal('SIGKILL');
    await owner.exited;

    await model.enqueue(textStep(['You said ', word]));
    const resumed = host({ mode: 'turn', sessionId, prompt: 'what did I say?', finish: true });
    await resumed.line((l) => l.startsWith(`RESUMED ${sessionId} `), 'the resume', LEASE_MS * 10);
    expect(await resumed.line((l) => l.startsWith('DONE '), 'the resumed turn')).toBe(
      'DONE succeeded',
    );
    await resumed.line((l) => l === 'CLOSED', 'the close');

    // one model process served both hosts, and the resumed turn carried the first one's prompt
    expect((await model.status()).pid).toBe(modelProcess.pid);
    const requests = await model.readRequests();
    expect(requests).toHaveLength(2);
    const second = requests[1];
    expect(second === undefined ? '' : JSON.stringify(requestInputItems(second))).toContain(
      `remember ${word}`,
    );
    expect((await model.status()).pending).toBe(0);
  });
});
