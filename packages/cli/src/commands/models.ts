/**
 * `relvo-codex models`: the models codex offers, asked of codex itself (`provider.listModels()`,
 * its `model/list`: the person's own codex and CODEX_HOME, plugin sync off, nothing sent to a
 * model). A table with codex's default marked, or one JSON object with `--json`. Every name shown
 * is codex's catalog text, neutralised before it reaches the terminal.
 */
import type { CodexModel, CodexModelList } from '@relvo-labs/agent-provider-codex';
import { requireReviewedCodex } from '../codex/gate.js';
import { accountProvider, errorToken } from '../codex/login.js';
import { CliExit, EXIT, type ExitCode } from '../exit-codes.js';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';

/** How long each request to codex may take. */
export const MODELS_TIMEOUT_MS = 30_000;

export interface ModelsOptions {
  readonly codex?: string | undefined;
  /** Include the models codex hides from its own picker. */
  readonly all: boolean;
  readonly json: boolean;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - text.length));
}

/** One row's cells, every one neutralised (catalog text is shown, never obeyed). */
function cells(model: CodexModel, all: boolean): string[] {
  const efforts = model.efforts.map((e) => (e === model.defaultEffort ? `${e}*` : e)).join(' ');
  return [
    model.isDefault ? '*' : '',
    model.id,
    model.displayName,
    efforts,
    ...(all ? [model.hidden ? 'hidden' : ''] : []),
  ].map(neutraliseLine);
}

/** The table a person reads: a header, one line per model, and what the marks mean. */
export function formatModelTable(list: CodexModelList, all: boolean): string[] {
  // the marker column is one wide even when no model is codex's default
  const header = [' ', 'MODEL', 'NAME', 'EFFORTS', ...(all ? ['SHOWN'] : [])];
  const rows = [header, ...list.models.map((m) => cells(m, all))];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : pad(cell, widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
  if (list.models.length === 0) lines.push('(codex listed no models)');
  lines.push('* codex’s default model; effort* the model’s default effort');
  if (list.truncated) lines.push('(more models than shown: the list was cut at the cap)');
  if (list.skipped > 0)
    lines.push(`(${list.skipped} entry(ies) codex sent did not fit and are left out)`);
  return lines;
}

export async function runModels(
  options: ModelsOptions,
  out: Output,
  env: NodeJS.ProcessEnv,
): Promise<ExitCode> {
  const codex = await requireReviewedCodex(options.codex, env);
  const provider = accountProvider(codex.path, env, MODELS_TIMEOUT_MS);
  let list: CodexModelList;
  try {
    list = await provider.listModels({ cwd: process.cwd(), includeHidden: options.all });
  } catch (error) {
    throw new CliExit(EXIT.failed, `codex could not list its models (${errorToken(error)})`);
  }
  if (out.json) out.jsonLine(list);
  else for (const line of formatModelTable(list, options.all)) out.print(line);
  return EXIT.ok;
}
