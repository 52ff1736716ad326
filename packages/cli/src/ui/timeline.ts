/**
 * One stored session as a person reads it (`relvo-codex log`): what was asked, the model's
 * text, tool activity, each approval and how it ended, usage and outcomes, with the time of day.
 */
import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import { describeResponse } from '../turn/answers.js';
import { describeTermination } from '../turn/summary.js';
import { describeToolActivity } from './activity.js';
import { neutraliseLine as n } from './neutralise.js';
import type { Output } from './output.js';

function clock(iso: string): string {
  // 2026-12-02T11:40:12.345Z → 11:40:12
  return iso.slice(11, 19);
}

function seconds(fromIso: string, toIso: string): string {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '?';
}

export function printTimeline(events: readonly EventEnvelope[], out: Output): void {
  const { c } = out;
  let text = '';
  let turns = 0;
  let usage = '';
  const asked = new Map<string, string>();
  const line = (at: string, body: string): void => {
    flush();
    out.print(`${c.dim(clock(at))} ${body}`);
  };
  const flush = (): void => {
    if (text === '') return;
    const body = text.endsWith('\n') ? text : `${text}\n`;
    text = '';
    out.text(body);
  };
  for (const e of events) {
    const p = e.payload;
    switch (p.type) {
      case 'session.opened':
        line(e.occurredAt, `session ${e.sessionId} opened · workspace ${n(p.workspace.root)}`);
        break;
      case 'turn.started': {
        turns += 1;
        const prompt = p.input.parts.map((part) =>
          part.type === 'text' ? part.text : `@${part.path}`,
        );
        line(
          e.occurredAt,
          `${c.bold(`turn ${turns}`)} on ${n(p.profile)} · you: ${n(prompt.join(' '))}`,
        );
        out.print(c.bold('codex:'));
        break;
      }
      case 'run.message_delta':
        text += p.text;
        break;
      case 'run.tool_activity':
        line(e.occurredAt, n(describeToolActivity(p)));
        break;
      case 'interaction.requested': {
        asked.set(p.interactionId, e.occurredAt);
        const r = p.request;
        const what =
          r.kind === 'approval'
            ? `approval: ${n(r.subject.summary)}`
            : r.kind === 'question'
              ? `question: ${n(r.prompt)}`
              : `${r.questions.length} question(s)`;
        line(e.occurredAt, `${c.cyan('?')} ${what}`);
        break;
      }
      case 'interaction.settled': {
        const s = p.settlement;
        const outcome = s.response === undefined ? s.outcome : describeResponse(s.response);
        const since = asked.get(p.interactionId);
        const waited = since === undefined ? '' : c.dim(` after ${seconds(since, e.occurredAt)}`);
        line(e.occurredAt, `  → ${outcome}${waited}`);
        break;
      }
      case 'run.usage':
        usage = `${p.usage.inputTokens ?? 0} in, ${p.usage.outputTokens ?? 0} out, ${p.usage.totalTokens ?? 0} total`;
        break;
      case 'run.finished':
        line(e.occurredAt, `run ${describeTermination(p.termination)}`);
        if (usage !== '') out.print(`${' '.repeat(9)}tokens ${usage}`);
        usage = '';
        break;
      case 'turn.settled':
        line(e.occurredAt, `turn ${p.state}${p.error === undefined ? '' : `: ${p.error.code}`}`);
        break;
      case 'diagnostic':
        if (p.level !== 'debug' && p.level !== 'info')
          line(e.occurredAt, c.dim(`codex ${p.level}: ${n(p.message)}`));
        break;
      case 'session.closed':
        line(e.occurredAt, `session closed (${p.reason})`);
        break;
      default:
        break;
    }
  }
  flush();
}
