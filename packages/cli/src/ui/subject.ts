/**
 * Everything an answer grants, as lines for the terminal before the question is asked: the
 * summary is only a heading, so a long command, a permission list or a patch's targets are
 * never replaced by a count. Known detail shapes are laid out (network first, paths one per
 * line); any other detail key is still shown, as JSON, so nothing a provider sent is hidden.
 * All text is neutralised; long values are wrapped, never cut.
 */
import type { InteractionRequest, JsonValue } from '@relvo-labs/agent-provider';
import { jsonForTerminal, neutraliseLine } from './neutralise.js';

const INDENT = '    ';
const MIN_WIDTH = 40;
/** Not a terminal (no column count): lines as wide as a common terminal. */
const DEFAULT_WIDTH = 100;

type Detail = Readonly<Record<string, JsonValue>>;

/**
 * `text` neutralised and cut into lines of at most `width` characters after the indent,
 * preferring to break before a space, so that the lines with the indent removed join back into
 * exactly the text (a terminal capture keeps a leading space, not a trailing one).
 */
export function wrapped(text: string, width: number, indent = INDENT): string[] {
  const chars = Array.from(neutraliseLine(text));
  const room = Math.max(MIN_WIDTH, width) - indent.length;
  const lines: string[] = [];
  let at = 0;
  while (at < chars.length) {
    let end = Math.min(chars.length, at + room);
    if (end < chars.length) {
      const space = chars.lastIndexOf(' ', end - 1);
      if (space > at + room / 2) end = space;
    }
    lines.push(indent + chars.slice(at, end).join(''));
    at = end;
  }
  return lines.length > 0 ? lines : [indent];
}

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function records(value: JsonValue | undefined): Detail[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is Detail => typeof v === 'object' && v !== null && !Array.isArray(v));
}

const OUTSIDE = ' (OUTSIDE the workspace)';

function pathLine(entry: Detail, verb: string): string {
  const moved = str(entry['movedTo']);
  const where = `${str(entry['path']) ?? '?'}${moved === undefined ? '' : ` → ${moved}`}`;
  return `${verb.padEnd(6)} ${where}${entry['outsideWorkspace'] === true ? OUTSIDE : ''}`;
}

/** A labelled value: on its line when short, below it (wrapped) when long. */
function field(label: string, value: string, width: number): string[] {
  const one = `  ${label}: ${neutraliseLine(value)}`;
  if (one.length <= Math.max(MIN_WIDTH, width)) return [one];
  return [`  ${label} (${String(value.length)} characters):`, ...wrapped(value, width)];
}

function permissionLines(detail: Detail, width: number, used: Set<string>): string[] {
  used.add('paths').add('network').add('scopes');
  const lines = [
    detail['network'] === true
      ? '  NETWORK: yes — commands may reach the network'
      : '  network: not requested',
  ];
  const paths = records(detail['paths']);
  lines.push(`  paths (${String(paths.length)}):`);
  for (const p of paths) lines.push(...wrapped(pathLine(p, str(p['access']) ?? '?'), width));
  const scopes = detail['scopes'];
  if (typeof scopes === 'object' && scopes !== null && !Array.isArray(scopes)) {
    const once = str(scopes['once']);
    const session = str(scopes['session']);
    if (once !== undefined) lines.push(`  [y] grants this for the ${neutraliseLine(once)}`);
    if (session !== undefined) lines.push(`  [s] grants this for the ${neutraliseLine(session)}`);
  }
  return lines;
}

function changeLines(detail: Detail, width: number, used: Set<string>): string[] {
  used.add('changes').add('changeCount');
  const changes = records(detail['changes']);
  const total = typeof detail['changeCount'] === 'number' ? detail['changeCount'] : changes.length;
  const lines = [`  writes (${String(total)}):`];
  for (const c of changes) lines.push(...wrapped(pathLine(c, str(c['kind']) ?? '?'), width));
  if (total > changes.length)
    lines.push(
      `  WARNING: ${String(total - changes.length)} more change(s) not listed; approving applies them too`,
    );
  return lines;
}

function approvalLines(
  request: Extract<InteractionRequest, { kind: 'approval' }>,
  width: number,
): string[] {
  const detail: Detail = request.subject.detail ?? {};
  const used = new Set<string>();
  const lines: string[] = [];
  const text = (key: string, label: string) => {
    const value = str(detail[key]);
    if (value === undefined) return;
    used.add(key);
    lines.push(...field(label, value, width));
  };
  if (detail['outsideWorkspace'] === true) {
    used.add('outsideWorkspace');
    lines.push('  WARNING: reaches OUTSIDE the workspace');
  }
  const command = str(detail['command']);
  if (command !== undefined) {
    used.add('command').add('commandActions');
    lines.push(`  command (${String(command.length)} characters, all of it):`);
    lines.push(...wrapped(command, width));
    text('cwd', 'in');
  }
  if (Array.isArray(detail['paths'])) lines.push(...permissionLines(detail, width, used));
  if (Array.isArray(detail['changes'])) lines.push(...changeLines(detail, width, used));
  text('server', 'MCP server');
  text('tool', 'tool');
  text('arguments', 'arguments');
  text('message', 'message');
  text('url', 'address');
  if (detail['urlWithheld'] === true) {
    used.add('urlWithheld');
    lines.push('  address: withheld by the host settings');
  }
  text('reason', 'reason');
  // whatever else the provider sent is shown too
  for (const [key, value] of Object.entries(detail)) {
    if (used.has(key)) continue;
    lines.push(...field(key, typeof value === 'string' ? value : jsonForTerminal(value), width));
  }
  return lines;
}

function choiceLines(
  choices: readonly { label: string; description?: string | undefined }[],
  width: number,
): string[] {
  return choices.flatMap((c) =>
    wrapped(`- ${c.label}${c.description === undefined ? '' : ` — ${c.description}`}`, width),
  );
}

/** The lines shown under `? codex asks: <summary>` (already neutralised). */
export function subjectLines(request: InteractionRequest, columns: number | undefined): string[] {
  const width = columns === undefined || columns <= 0 ? DEFAULT_WIDTH : columns;
  switch (request.kind) {
    case 'approval':
      return approvalLines(request, width);
    case 'question':
      return choiceLines(request.choices ?? [], width);
    case 'question_set':
      return request.questions.flatMap((q, i) => [
        ...wrapped(
          `${String(i + 1)}. ${q.header === undefined ? '' : `${q.header}: `}${q.prompt}`,
          width,
          '  ',
        ),
        ...choiceLines(q.choices ?? [], width),
      ]);
    case 'tool_call':
      return wrapped(`input: ${jsonForTerminal(request.input)}`, width, '  ');
  }
}
