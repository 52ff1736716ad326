/**
 * OTLP export from the CLI (docs/observability.md): `relvo-codex run` with the standard OTEL_*
 * variables pointed at a receiver on 127.0.0.1 (OTLP/HTTP, JSON bodies) sends the runtime's
 * spans and metrics of a real codex turn; and the variables' refusals, each one line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { CliExit, EXIT } from '../src/exit-codes.js';
import { CODEX_MEMORY_METRIC, startOtlpExport } from '../src/host/otlp.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, runCli, startCli, survivorsAfter, until } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

/** An OTLP/HTTP receiver on loopback: keeps every request, answers 200 with an empty JSON object. */
async function otlpReceiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  );
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, received };
}

interface OtlpSpan {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes?: readonly { key: string; value: Record<string, unknown> }[];
}

function spansOf(received: readonly Received[]): OtlpSpan[] {
  return received
    .filter((r) => r.path === '/v1/traces')
    .flatMap((r) => {
      const body = JSON.parse(r.body) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      return body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
    });
}

function metricNames(received: readonly Received[]): string[] {
  return received
    .filter((r) => r.path === '/v1/metrics')
    .flatMap((r) => {
      const body = JSON.parse(r.body) as {
        resourceMetrics: { scopeMetrics: { metrics: { name: string }[] }[] }[];
      };
      return body.resourceMetrics.flatMap((rm) =>
        rm.scopeMetrics.flatMap((sm) => sm.metrics.map((m) => m.name)),
      );
    });
}

/** Every value the receiver got for a gauge (OTLP JSON: `asInt` as a string or number). */
function gaugeValues(received: readonly Received[], name: string): number[] {
  return received
    .filter((r) => r.path === '/v1/metrics')
    .flatMap((r) => {
      const body = JSON.parse(r.body) as {
        resourceMetrics: {
          scopeMetrics: {
            metrics: {
              name: string;
              gauge?: { dataPoints: { asInt?: string | number; asDouble?: number }[] };
            }[];
          }[];
        }[];
      };
      return body.resourceMetrics.flatMap((rm) =>
        rm.scopeMetrics.flatMap((sm) =>
          sm.metrics
            .filter((m) => m.name === name)
            .flatMap((m) => m.gauge?.dataPoints ?? [])
            .map((p) => Number(p.asInt ?? p.asDouble ?? 0)),
        ),
      );
    });
}

const attr = (span: OtlpSpan | undefined, key: string): unknown =>
  span?.attributes?.find((a) => a.key === key)?.value;

describe('relvo-codex run exports OTLP when the OTEL_* variables ask', () => {
  it('the spans and metrics of a real turn with a denied approval reach a receiver on 127.0.0.1; no prompt in them', async () => {
    const receiver = await otlpReceiver();
    const { env, mark } = cliEnv({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'relvo-otlp-test',
        // collections while the turn runs, so that codex's memory is read while it is alive
        OTEL_METRIC_EXPORT_INTERVAL: '100',
      },
    });
    const s = await scriptedRunSetup(env);
    cleanups.push(() => s.cleanup());
    s.server.enqueue(
      execCommandStep('touch canary-command-file', { callId: 'call_o', escalate: true }),
      textStep('ok', { usage: scriptedUsage(30, 2, 0, 0) }),
    );
    const prompt = 'canary-prompt-4410 touch it';
    const result = await runCli(['run', prompt, ...s.runArgs], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('denied');

    expect(receiver.received.every((r) => r.contentType.startsWith('application/json'))).toBe(true);
    const spans = spansOf(receiver.received);
    const one = (name: string) => spans.filter((x) => x.name === name);
    expect(one('relvo.session')).toHaveLength(1);
    expect(one('relvo.turn')).toHaveLength(1);
    expect(one('relvo.interaction.wait')).toHaveLength(1);
    const [session] = one('relvo.session');
    const [turn] = one('relvo.turn');
    const [wait] = one('relvo.interaction.wait');
    expect(turn?.parentSpanId).toBe(session?.spanId);
    expect(wait?.parentSpanId).toBe(turn?.spanId);
    expect(attr(wait, 'relvo.approval.decision')).toEqual({ stringValue: 'denied' });
    expect(attr(turn, 'relvo.turn.outcome')).toEqual({ stringValue: 'completed' });
    const traces = receiver.received.find((r) => r.path === '/v1/traces')!.body;
    expect(traces).toContain('"relvo-otlp-test"');
    expect(metricNames(receiver.received)).toEqual(
      expect.arrayContaining([
        'relvo.turns',
        'gen_ai.client.token.usage',
        'gen_ai.client.operation.duration',
        'relvo.interaction.wait.duration',
        'relvo.store.append.duration',
      ]),
    );
    // codex's resident memory, read while it ran: some collection saw more than nothing
    expect(Math.max(...gaugeValues(receiver.received, CODEX_MEMORY_METRIC))).toBeGreaterThan(
      1024 * 1024,
    );
    const everything = receiver.received.map((r) => r.body).join('\n');
    for (const canary of ['canary-prompt', 'canary-command', s.iso.workspace]) {
      expect(everything).not.toContain(canary);
    }
    expect(await survivorsAfter(mark)).toEqual([]);
  });
});

describe('relvo-codex serve exports OTLP too', () => {
  it('a session opened through the console and closed by SIGTERM reaches the receiver before exit', async () => {
    const receiver = await otlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'relvo-otlp-serve-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const token = 'otlp-serve-console-token-0123456789';
    const cli = startCli(['serve', '--no-config', '--cwd', dir, '--ephemeral'], {
      env: {
        RELVO_CODEX_CONSOLE_TOKEN: token,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'relvo-otlp-serve',
      },
    });
    let sessionId: string | undefined;
    try {
      await until(() => cli.stdout().includes('http://'), 'serve to print its address', 60_000);
      const base = /http:\/\/127\.0\.0\.1:\d+\//.exec(cli.stdout())?.[0] as string;
      const opened = await fetch(`${base}api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(opened.status).toBe(201);
      sessionId = ((await opened.json()) as { sessionId: string }).sessionId;
    } finally {
      process.kill(cli.pid, 'SIGTERM');
    }
    const result = await cli.result;
    expect(result.code).toBe(0);
    // shutdown closed the session, then the CLI flushed: the session's span and the gauge's return
    const [session] = spansOf(receiver.received).filter((x) => x.name === 'relvo.session');
    expect(attr(session, 'relvo.session.id')).toEqual({ stringValue: sessionId });
    expect(attr(session, 'relvo.session.close_reason')).toEqual({ stringValue: 'requested' });
    expect(metricNames(receiver.received)).toContain('relvo.sessions.live');
    expect(receiver.received.map((r) => r.body).join('\n')).not.toContain(dir);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  }, 90_000);
});

describe('which OTEL_* variables switch export on, and their refusals', () => {
  const refusal = async (env: Record<string, string>, importer?: (n: string) => Promise<unknown>) =>
    startOtlpExport(env, importer).then(
      () => undefined,
      (e: unknown) => e,
    );

  it('none set, or OTEL_SDK_DISABLED=true, or both exporters none: no export and nothing loaded', async () => {
    const loaded: string[] = [];
    const importer = (name: string) => {
      loaded.push(name);
      return Promise.reject(new Error('not here'));
    };
    expect(await startOtlpExport({}, importer)).toBeUndefined();
    expect(
      await startOtlpExport(
        { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' },
        importer,
      ),
    ).toBeUndefined();
    expect(
      await startOtlpExport(
        {
          OTEL_TRACES_EXPORTER: 'none',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
        },
        importer,
      ),
    ).toBeUndefined();
    expect(loaded).toEqual([]);
  });

  it("docs/observability.md lists the CLI's own metric under its heading", () => {
    const doc = readFileSync(new URL('../../../docs/observability.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf("### The CLI's own metric"));
    expect(section.split('\n## ')[0]).toContain(`| \`${CODEX_MEMORY_METRIC}\` |`);
  });

  it('missing optional packages: one line naming what to install, a usage exit', async () => {
    const error = await refusal({ OTEL_TRACES_EXPORTER: 'otlp' }, () =>
      Promise.reject(Object.assign(new Error('nope'), { code: 'ERR_MODULE_NOT_FOUND' })),
    );
    expect(error).toBeInstanceOf(CliExit);
    const exit = error as CliExit;
    expect(exit.code).toBe(EXIT.usage);
    expect(exit.message.split('\n')).toHaveLength(1);
    expect(exit.message).toContain('npm install @opentelemetry/api');
  });

  it('a protocol or exporter the CLI does not ship is refused, named, in one line', async () => {
    const grpc = await refusal({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect((grpc as CliExit).message).toBe(
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: relvo-codex exports OTLP as http/json',
    );
    const zipkin = await refusal({ OTEL_TRACES_EXPORTER: 'zipkin' });
    expect((zipkin as CliExit).code).toBe(EXIT.usage);
    expect((zipkin as CliExit).message).toContain('OTEL_TRACES_EXPORTER=zipkin');
  });
});
