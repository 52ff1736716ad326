/**
 * docs/observability.md lists every span, span event, attribute and metric the runtime's
 * telemetry emits: its tables hold exactly the names of `src/telemetry/names.ts`, and a turn
 * that touches every kind of span (content recorded) emits no name outside them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ATTR, METRIC, SPAN, SPAN_EVENT } from '../src/telemetry/names.js';
import { approvedTurn, sinkFor } from './telemetry-turn.js';

const DOC = readFileSync(new URL('../../../docs/observability.md', import.meta.url), 'utf8');

/** The backticked names in the first column of the table under `heading`. */
function firstColumn(heading: string): string[] {
  const start = DOC.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const rest = DOC.slice(start + heading.length + 2);
  const end = rest.search(/\n#{2,3} /);
  const section = end === -1 ? rest : rest.slice(0, end);
  return section.split('\n').flatMap((line) => /^\| `([^`]+)` \|/.exec(line)?.slice(1, 2) ?? []);
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('docs/observability.md and the names the code emits', () => {
  it('each table lists exactly the names in names.ts', () => {
    expect(sorted(firstColumn('## Spans'))).toEqual(sorted(Object.values(SPAN)));
    expect(sorted(firstColumn('### Span events'))).toEqual(sorted(Object.values(SPAN_EVENT)));
    expect(sorted(firstColumn('### Attributes'))).toEqual(sorted(Object.values(ATTR)));
    expect(sorted(firstColumn('## Metrics'))).toEqual(sorted(Object.values(METRIC)));
  });

  it('a turn with a tool call, an answered approval and usage (content on) emits only documented names', async () => {
    const sink = sinkFor();
    await approvedTurn({
      tracerProvider: sink.tracerProvider,
      meterProvider: sink.meterProvider,
      recordContent: true,
    });

    const spans = sink.spans();
    const documentedSpans = new Set<string>(Object.values(SPAN));
    const documentedAttrs = new Set<string>(Object.values(ATTR));
    for (const span of spans) {
      // a tool span is named `execute_tool <tool name>`
      expect(documentedSpans).toContain(span.name.split(' ')[0]);
      for (const key of Object.keys(span.attributes)) expect(documentedAttrs).toContain(key);
      for (const event of span.events) {
        expect(new Set<string>(Object.values(SPAN_EVENT))).toContain(event.name);
        for (const key of Object.keys(event.attributes ?? {})) {
          expect(documentedAttrs).toContain(key);
        }
      }
    }
    expect(sorted(spans.map((s) => s.name.split(' ')[0]!))).toEqual(sorted(Object.values(SPAN)));
    const metrics = await sink.metrics();
    for (const [name, metric] of metrics) {
      expect(new Set<string>(Object.values(METRIC))).toContain(name);
      for (const point of metric.dataPoints) {
        for (const key of Object.keys(point.attributes)) expect(documentedAttrs).toContain(key);
      }
    }
    expect(metrics.size).toBeGreaterThanOrEqual(6);
  });
});
