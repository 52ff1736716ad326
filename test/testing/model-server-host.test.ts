/** What a host's own tests need from the scripted model: a fixed port, its config, a reset. */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { codexConfigArgs, ScriptedModelServer, textStep } from '../../src/testing/index.js';

const servers: ScriptedModelServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(port?: number): Promise<ScriptedModelServer> {
  const server = await ScriptedModelServer.start(port === undefined ? {} : { port });
  servers.push(server);
  return server;
}

/** A port free on 127.0.0.1 right now (the OS picks it, then it is released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) =>
    probe.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('ScriptedModelServer for host tests', () => {
  it('listens on a fixed port when asked, on 127.0.0.1', async () => {
    const port = await freePort();
    const server = await start(port);
    expect(server.port).toBe(port);
    expect(server.baseUrl).toBe(`http://127.0.0.1:${String(port)}/v1`);
  });

  it('a fixed port already in use is an error, never another port', async () => {
    const first = await start();
    await expect(ScriptedModelServer.start({ port: first.port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    await expect(ScriptedModelServer.start({ port: 70_000 })).rejects.toThrow(RangeError);
  });

  it('hands back the codex config that points at it', async () => {
    const server = await start();
    expect(server.configArgs({ extra: ['model_providers.scripted.stream_max_retries=3'] })).toEqual(
      codexConfigArgs({
        baseUrl: server.baseUrl,
        extra: ['model_providers.scripted.stream_max_retries=3'],
      }),
    );
  });

  it('clear() drops the queued steps and says how many', async () => {
    const server = await start();
    server.enqueue(textStep('a'), textStep('b'));
    expect(server.clear()).toBe(2);
    expect(server.pending).toBe(0);
    expect(server.clear()).toBe(0);
  });
});
