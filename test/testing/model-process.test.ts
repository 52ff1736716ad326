/**
 * The scripted model as a process of its own: its step API over the control URL, zod-checked
 * control messages, bounded control requests, and its stops (SIGTERM, the parent's end of stdin).
 */
import { createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  connectScriptedModel,
  httpErrorStep,
  ScriptedModelControlError,
  startScriptedModelProcess,
  textStep,
  type ScriptedModelProcess,
} from '../../src/testing/index.js';
import { onCleanup } from '../../packages/agent-runtime/test/support.js';
import { testEnv } from '../support/processes.js';
import { scriptArgv } from '../../packages/agent-runtime/test/script-bundle.js';

const MAIN = fileURLToPath(new URL('../../src/testing/scripted-model-main.ts', import.meta.url));

async function start(): Promise<ScriptedModelProcess> {
  const started = await startScriptedModelProcess({
    command: [process.execPath, ...scriptArgv(MAIN)],
    env: testEnv(),
    timeoutMs: 5_000,
  });
  onCleanup(() => started.stop());
  return started;
}

/** `exited` or a rejection after `ms`: a process that does not stop fails the test. */
function exitWithin(started: ScriptedModelProcess, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    started.exited,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error('the model process did not exit'));
      }, ms);
    }),
  ]).finally(() => {
    clearTimeout(timer);
  });
}

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(5_000),
  });

describe('the scripted model in its own process', () => {
  it('serves the queued steps and reports what it saw; a bad step is refused whole', async () => {
    const started = await start();
    const { model } = started;
    expect(model.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(model.configArgs()).toContain(`model_providers.scripted.base_url="${model.baseUrl}"`);
    await model.enqueue(textStep('hello'), httpErrorStep(429));
    expect((await model.status()).pending).toBe(2);

    const refused = await post(`${model.controlUrl}/enqueue`, {
      steps: [textStep('ok'), { kind: 'text', deltas: 'not an array' }],
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'bad_request' });
    expect((await model.status()).pending).toBe(2);

    const streamed = await post(`${model.baseUrl}/responses`, { input: [{ type: 'message' }] });
    expect(await streamed.text()).toContain('hello');
    expect((await post(`${model.baseUrl}/responses`, {})).status).toBe(429);
    const seen = await model.waitForRequests(2, 5_000);
    expect(seen.map((r) => [r.path, r.step])).toEqual([
      ['/v1/responses', 'text'],
      ['/v1/responses', 'httpError'],
    ]);
    expect(seen[0]?.body).toEqual({ input: [{ type: 'message' }] });
    expect(await model.readRequests()).toEqual(seen);

    await model.enqueue(textStep('unused'));
    expect(await model.clear()).toBe(1);
    const waited = await model.waitForRequests(3, 50).catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(ScriptedModelControlError);
    expect(waited).toMatchObject({ route: 'POST /wait', code: 'wait_timeout' });
  });

  it('stops on SIGTERM', async () => {
    const started = await start();
    process.kill(started.pid, 'SIGTERM');
    await exitWithin(started, 5_000);
    const gone = await connectScriptedModel(started.model.controlUrl, { timeoutMs: 1_000 }).catch(
      (e: unknown) => e,
    );
    expect(gone).toMatchObject({ code: 'unreachable' });
  });

  it('stops when the end of its stdin its parent held closes', async () => {
    const started = await start();
    started.closeLifeline();
    await exitWithin(started, 5_000);
    const gone = await connectScriptedModel(started.model.controlUrl, { timeoutMs: 1_000 }).catch(
      (e: unknown) => e,
    );
    expect(gone).toMatchObject({ code: 'unreachable' });
  });

  it('a control request that gets no answer times out', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => {
      silent.listen(0, '127.0.0.1', resolve);
    });
    onCleanup(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const started = Date.now();
    const refused = await connectScriptedModel(`http://127.0.0.1:${String(port)}`, {
      timeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ route: 'GET /status', code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(connectScriptedModel('http://example.com:1')).rejects.toThrow(/127\.0\.0\.1/);
  });
});
