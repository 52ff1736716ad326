/** The scripted model server and config helpers on their own (plain HTTP, no codex). */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isStrippedEnvVar } from '../../src/testing/codex-config.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  functionCallOutput,
  httpErrorStep,
  rawStep,
  responseFailedStep,
  ScriptedModelServer,
  textStep,
} from '../../src/testing/index.js';
import { encodeSseEvent } from '../../src/testing/sse-script.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** True when the body ended with an error (connection dropped mid-body). */
  readonly aborted: boolean;
}

function post(url: string, body: unknown, onData?: (sofar: string) => void): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
          onData?.(text);
        });
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            aborted: false,
          });
        });
        res.on('error', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, aborted: true });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const events = (
  sse: string,
): Array<{ event: string; data: { type: string } & Record<string, unknown> }> =>
  sse
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return {
        event: eventLine!.replace('event: ', ''),
        data: JSON.parse(dataLine!.replace('data: ', '')),
      };
    });

describe('ScriptedModelServer', () => {
  it('listens on 127.0.0.1 only and serves text steps as named SSE events in FIFO order', async () => {
    server = await ScriptedModelServer.start();
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    server.enqueue(textStep(['a', 'b'], { itemId: 'msg_x', responseId: 'r1' }), textStep('second'));
    const first = await post(`${server.baseUrl}/responses`, { input: [] });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/event-stream');
    const parsed = events(first.body);
    expect(parsed.map((e) => e.event)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_item.done',
      'response.completed',
    ]);
    for (const e of parsed) expect(e.data.type).toBe(e.event);
    expect(parsed[2]!.data).toMatchObject({ item_id: 'msg_x', delta: 'a' });
    expect(parsed[4]!.data).toMatchObject({ item: { id: 'msg_x', content: [{ text: 'ab' }] } });
    expect(parsed[5]!.data).toMatchObject({ response: { id: 'r1', usage: { total_tokens: 107 } } });
    const second = await post(`${server.baseUrl}/responses`, {});
    expect(events(second.body)[2]!.data).toMatchObject({ delta: 'second' });
    expect(server.pending).toBe(0);
  });

  it('records method, path, headers and the parsed body of every request', async () => {
    server = await ScriptedModelServer.start();
    server.enqueue(textStep('x'));
    await post(`${server.baseUrl}/responses`, {
      input: [{ type: 'function_call_output', call_id: 'c1', output: 'out!' }],
    });
    const [req] = await server.waitForRequests(1);
    expect(req).toMatchObject({ index: 0, method: 'POST', path: '/v1/responses', step: 'text' });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(functionCallOutput(req!, 'c1')).toBe('out!');
    expect(functionCallOutput(req!, 'other')).toBeUndefined();
  });

  it('answers an empty queue with a diagnostic 500 and unknown routes with 404', async () => {
    server = await ScriptedModelServer.start();
    const empty = await post(`${server.baseUrl}/responses`, {});
    expect(empty.status).toBe(500);
    expect(JSON.parse(empty.body)).toMatchObject({ error: { type: 'scripted_queue_empty' } });
    const unknown = await post(`http://127.0.0.1:${server.port}/v1/models`, {});
    expect(unknown.status).toBe(404);
    expect(server.requests.map((r) => r.step)).toEqual([undefined, undefined]);
  });

  it('sends scripted HTTP errors with status, body and headers', async () => {
    server = await ScriptedModelServer.start();
    server.enqueue(httpErrorStep(429, { error: { message: 'slow down' } }, { 'retry-after': '1' }));
    const res = await post(`${server.baseUrl}/responses`, {});
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(JSON.parse(res.body)).toEqual({ error: { message: 'slow down' } });
  });

  it('drops the connection after N deltas without completing the body', async () => {
    server = await ScriptedModelServer.start();
    server.enqueue(textStep(['1', '2', '3'], { closeAfterDeltas: 1 }));
    const res = await post(`${server.baseUrl}/responses`, {});
    expect(res.aborted).toBe(true);
    const names = events(res.body).map((e) => e.event);
    expect(names).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
    ]);
  });

  it('paces slow streams through the injected sleep', async () => {
    const sleeps: number[] = [];
    server = await ScriptedModelServer.start({
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    server.enqueue(textStep(['a', 'b', 'c'], { delayMs: 250 }));
    const res = await post(`${server.baseUrl}/responses`, {});
    expect(events(res.body)).toHaveLength(7);
    expect(sleeps).toEqual([250, 250, 250]);
  });

  it('stalls after N deltas until close() ends the response', async () => {
    server = await ScriptedModelServer.start();
    server.enqueue(textStep(['1', '2'], { stallAfterDeltas: 1 }));
    let sawDelta: () => void = () => undefined;
    const deltaSeen = new Promise<void>((resolve) => (sawDelta = resolve));
    const pending = post(`${server.baseUrl}/responses`, {}, (sofar) => {
      if (sofar.includes('event: response.output_text.delta')) sawDelta();
    });
    await deltaSeen;
    await server.close();
    const res = await pending;
    expect(res.aborted).toBe(true);
    expect(
      events(res.body)
        .map((e) => e.event)
        .at(-1),
    ).toBe('response.output_text.delta');
    server = undefined;
  });

  it('sends response.failed and raw events verbatim', async () => {
    server = await ScriptedModelServer.start();
    server.enqueue(
      responseFailedStep('server_error', 'nope'),
      rawStep([{ type: 'custom.event', n: 1 }]),
    );
    const failed = events((await post(`${server.baseUrl}/responses`, {})).body);
    expect(failed.at(-1)!.data).toMatchObject({
      type: 'response.failed',
      response: { error: { message: 'nope' } },
    });
    const raw = await post(`${server.baseUrl}/responses`, {});
    expect(raw.body).toBe(encodeSseEvent({ type: 'custom.event', n: 1 }));
  });

  it('rejects a waitForRequests that is not met in time, with the counts', async () => {
    server = await ScriptedModelServer.start();
    await expect(server.waitForRequests(1, 20)).rejects.toThrow(
      'expected 1 request(s) within 20 ms, got 0',
    );
  });
});

describe('codexConfigArgs', () => {
  it('emits -c pairs for the scripted provider with retries off and plugins disabled', () => {
    const args = codexConfigArgs({
      baseUrl: 'http://127.0.0.1:4000/v1',
      streamIdleTimeoutMs: 1500,
      extra: ['a.b=1'],
    });
    const pairs = args.filter((_, i) => i % 2 === 1);
    expect(args.filter((_, i) => i % 2 === 0).every((a) => a === '-c')).toBe(true);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'model_provider="scripted"',
        'model="scripted-model"',
        'model_providers.scripted.name="scripted"',
        'model_providers.scripted.base_url="http://127.0.0.1:4000/v1"',
        'model_providers.scripted.wire_api="responses"',
        'model_providers.scripted.requires_openai_auth=false',
        'model_providers.scripted.supports_websockets=false',
        'model_providers.scripted.request_max_retries=0',
        'model_providers.scripted.stream_max_retries=0',
        'model_providers.scripted.stream_idle_timeout_ms=1500',
        'features.plugins=false',
        'features.apps=false',
        'analytics.enabled=false',
        'a.b=1',
      ]),
    );
    expect(codexConfigArgs({ baseUrl: 'http://127.0.0.1:1/v1' }).join(' ')).not.toContain(
      'stream_idle_timeout_ms',
    );
  });

  it('refuses a base URL that is not loopback 127.0.0.1', () => {
    expect(() => codexConfigArgs({ baseUrl: 'http://localhost:1/v1' })).toThrow('127.0.0.1');
    expect(() => codexConfigArgs({ baseUrl: 'https://api.openai.com/v1' })).toThrow('127.0.0.1');
  });
});

describe('createIsolatedCodexHome', () => {
  it('makes fresh distinct dirs and strips credential and proxy variables', () => {
    const iso = createIsolatedCodexHome();
    try {
      expect(iso.codexHome.startsWith(iso.home + '/')).toBe(true);
      expect(iso.workspace.startsWith(iso.home)).toBe(false);
      const env = iso.env({
        PATH: '/bin',
        OPENAI_API_KEY: 'k',
        CODEX_API_KEY: 'k',
        HTTPS_PROXY: 'p',
        https_proxy: 'p',
        ALL_PROXY: 'p',
        ANTHROPIC_API_KEY: 'k',
        OPENAI_BASE_URL: 'u',
        HOME: '/root',
      });
      expect(env).toEqual({ PATH: '/bin', HOME: iso.home, CODEX_HOME: iso.codexHome });
      expect(isStrippedEnvVar('no_proxy')).toBe(true);
      expect(isStrippedEnvVar('TERM')).toBe(false);
    } finally {
      iso.dispose();
    }
  });
});
