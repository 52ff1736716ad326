/**
 * The scripted model server against the REAL pinned codex (native binary): a text turn, an
 * accepted exec approval whose output reaches the model, and an HTTP 500 failing the turn.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppServerDriver,
  type DriverFrame,
  type Frame,
} from '../../scripts/lib/app-server-driver.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  execCommandStep,
  functionCallOutput,
  httpErrorStep,
  requireCodexBinary,
  ScriptedModelServer,
  scriptedUsage,
  textStep,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { testEnv } from '../support/processes.js';

const binary = requireCodexBinary({ kind: 'native' });

let driver: AppServerDriver | undefined;
let server: ScriptedModelServer | undefined;
let iso: IsolatedCodexHome | undefined;

afterEach(async () => {
  // close() ends stdin first and SIGKILLs the process group after 3 s.
  await driver?.close(3_000);
  await server?.close();
  iso?.dispose();
  driver = undefined;
  server = undefined;
  iso = undefined;
});

const isMethod = (method: string) => (f: DriverFrame) =>
  f.dir === 's2c' && f.frame.method === method;
const params = (f: DriverFrame): Record<string, unknown> =>
  f.frame.params as Record<string, unknown>;

async function startThread(
  approvalPolicy: string,
  sandbox: string,
): Promise<{ d: AppServerDriver; threadId: string }> {
  iso = createIsolatedCodexHome('relvo-ms-test-');
  server = await ScriptedModelServer.start();
  const d = new AppServerDriver({
    binary: binary.path,
    args: [...codexConfigArgs({ baseUrl: server.baseUrl }), 'app-server'],
    cwd: iso.workspace,
    env: iso.env(testEnv()),
  });
  driver = d;
  const init = await d.request('initialize', {
    clientInfo: { name: 'relvo_agent_runtime', title: 'Relvo Agent Runtime', version: '0.1.0' },
    capabilities: null,
  });
  expect(init.result).toMatchObject({
    userAgent: expect.stringMatching(
      new RegExp(`^relvo_agent_runtime/${binary.version.replaceAll('.', '\\.')} \\(`),
    ),
  });
  d.notify('initialized');
  const started = await d.request('thread/start', {
    cwd: iso.workspace,
    approvalPolicy,
    sandbox,
    ephemeral: true,
  });
  const threadId = (started.result as { thread: { id: string } }).thread.id;
  expect(threadId).toEqual(expect.any(String));
  return { d, threadId };
}

async function runTurn(d: AppServerDriver, threadId: string, text: string): Promise<DriverFrame> {
  const from = d.frames.length;
  await d.request('turn/start', { threadId, input: [{ type: 'text', text }] });
  return d.waitFor(isMethod('turn/completed'), {
    label: 'turn/completed',
    from,
    timeoutMs: 20_000,
  });
}

describe('ScriptedModelServer with the real codex under test', () => {
  it('streams a text turn and reports the scripted usage', async () => {
    const { d, threadId } = await startThread('never', 'read-only');
    server!.enqueue(
      textStep(['Hel', 'lo'], { itemId: 'msg_t1', usage: scriptedUsage(1200, 30, 200, 5) }),
    );
    const completed = await runTurn(d, threadId, 'hi');

    expect(params(completed).turn).toMatchObject({ status: 'completed', error: null });
    const deltas = d.frames.filter(isMethod('item/agentMessage/delta')).map((f) => params(f).delta);
    expect(deltas).toEqual(['Hel', 'lo']);
    const usage = d.frames.find(isMethod('thread/tokenUsage/updated'));
    expect(usage && params(usage).tokenUsage).toMatchObject({
      last: {
        totalTokens: 1230,
        inputTokens: 1200,
        cachedInputTokens: 200,
        outputTokens: 30,
        reasoningOutputTokens: 5,
      },
    });

    const [request] = await server!.waitForRequests(1);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/responses', step: 'text' });
    expect(request!.body).toMatchObject({ model: 'scripted-model', stream: true });
    expect(request!.headers.originator).toBe('relvo_agent_runtime');
  });

  it('accepts an exec approval and the command output reaches the second model request', async () => {
    const { d, threadId } = await startThread('on-request', 'read-only');
    const marker = `out-${randomUUID().slice(0, 8)}`;
    server!.enqueue(
      execCommandStep(`echo ${marker}`, {
        callId: 'call_exec_t',
        escalate: true,
        justification: 'scripted',
      }),
      textStep('done'),
    );
    const approvals: Frame[] = [];
    d.onFrame((f) => {
      if (f.dir !== 's2c' || f.frame.method !== 'item/commandExecution/requestApproval') return;
      approvals.push(f.frame);
      d.send({ id: f.frame.id, result: { decision: 'accept' } });
    });
    const completed = await runTurn(d, threadId, 'run it');

    expect(params(completed).turn).toMatchObject({ status: 'completed' });
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      id: 0,
      params: { itemId: 'call_exec_t', reason: 'scripted' },
    });
    const requests = await server!.waitForRequests(2);
    const output = functionCallOutput(requests[1]!, 'call_exec_t');
    expect(output).toContain('Process exited with code 0');
    expect(output).toContain(marker);
    // The first request carried no output: the command ran only after the approval.
    expect(functionCallOutput(requests[0]!, 'call_exec_t')).toBeUndefined();
  });

  it('fails the turn when the model answers HTTP 500', async () => {
    const { d, threadId } = await startThread('never', 'read-only');
    server!.enqueue(httpErrorStep(500, { error: { message: 'boom' } }));
    const completed = await runTurn(d, threadId, 'hi');

    expect(params(completed).turn).toMatchObject({
      status: 'failed',
      error: { codexErrorInfo: 'internalServerError' },
    });
    const error = d.frames.find(isMethod('error'));
    expect(error && params(error)).toMatchObject({
      willRetry: false,
      error: { codexErrorInfo: 'internalServerError' },
    });
    expect(server!.requests).toHaveLength(1);
  });
});
