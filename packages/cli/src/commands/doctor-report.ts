/**
 * What `relvo-codex doctor` found (`DoctorReport`, also its `--json` output), the exit code it
 * leads to, and its text rendering. Apart from `doctor.ts`, which runs the checks: the report's
 * shape and its presentation change for other reasons than how codex is probed.
 */
import { describeLimits, type LimitsCheck } from '../codex/limits.js';
import type { CodexSource } from '../codex/locate.js';
import { describeLogin, type LoginCheck } from '../codex/login.js';
import type { ReachCheck } from '../codex/reach.js';
import { windowRange, type WindowPosition } from '../codex/version.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { Output } from '../ui/output.js';

export interface DoctorProblem {
  readonly problem: string;
  readonly nextStep: string;
}

export interface DoctorReport {
  readonly codex: {
    readonly found: boolean;
    readonly path: string | null;
    readonly kind: 'native' | 'launcher' | null;
    readonly source: CodexSource;
    readonly version: string | null;
    /** Why `codex --version` gave no version, when it did not. */
    readonly versionError?: string;
  };
  readonly inWindow: boolean;
  /** Where the release found stands: inside, newer (review it), older (upgrade), or between. */
  readonly windowPosition: WindowPosition | null;
  readonly window: {
    readonly baseline: string;
    readonly min: string;
    readonly max: string;
    readonly supported: readonly string[];
  };
  readonly installHint: string | null;
  readonly handshake:
    | { readonly ok: true; readonly ms: number }
    | { readonly ok: false; readonly error: string }
    | { readonly ok: false; readonly skipped: string };
  readonly resources: {
    readonly rssBytes: number;
    readonly cpuPercent: number;
    readonly processes: number;
  } | null;
  readonly login: LoginCheck | { readonly checked: false; readonly skipped: string };
  /** The account's rate limits, or why codex has none (informational: never a problem). */
  readonly limits: LimitsCheck | { readonly checked: false; readonly skipped: string };
  /** The model provider's host: TCP connect and TLS handshake, nothing sent. */
  readonly reach: ReachCheck;
  readonly eventLog: {
    readonly path: string;
    readonly exists: boolean;
    readonly writable: boolean;
  };
  readonly problems: readonly DoctorProblem[];
}

export function doctorExitCode(report: DoctorReport): ExitCode {
  if (!report.codex.found || !report.inWindow) return EXIT.codex;
  return report.problems.length === 0 ? EXIT.ok : EXIT.failed;
}

function formatBytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function printDoctorReport(report: DoctorReport, out: Output): void {
  const { c } = out;
  const ok = (b: boolean): string => (b ? c.green('ok') : c.red('problem'));
  out.print(c.bold('relvo-codex doctor'));
  out.print(
    `  codex      ${report.codex.path ?? '(none)'}${report.codex.kind ? ` (${report.codex.kind}, ${report.codex.source})` : ''}`,
  );
  out.print(`  version    ${report.codex.version ?? report.codex.versionError ?? '(unknown)'}`);
  out.print(
    `  window     ${ok(report.inWindow)}  reviewed: ${windowRange()}, baseline ${report.window.baseline}`,
  );
  const hs = report.handshake;
  out.print(
    `  handshake  ${hs.ok ? `${ok(true)}  ${hs.ms} ms to a ready session` : 'skipped' in hs ? `skipped (${hs.skipped})` : `${ok(false)}  ${hs.error}`}`,
  );
  if (report.resources !== null) {
    out.print(
      `  resources  ${formatBytes(report.resources.rssBytes)} RSS, ${report.resources.cpuPercent}% CPU over ${report.resources.processes} process(es) of the app-server group`,
    );
  }
  out.print(
    `  login      ${'skipped' in report.login ? `skipped (${report.login.skipped})` : describeLogin(report.login)}`,
  );
  out.print(
    `  limits     ${'skipped' in report.limits ? `skipped (${report.limits.skipped})` : describeLimits(report.limits)}`,
  );
  const r = report.reach;
  out.print(
    `  model host ${!r.checked ? `not checked (${r.skipped})` : r.ok ? `${ok(true)}  ${r.url} reachable (TCP${r.url.startsWith('https:') ? ' + TLS' : ''}, ${r.ms} ms)` : `${ok(false)}  ${r.url}: ${r.stage} failed (${r.error})`}`,
  );
  out.print(
    `  event log  ${report.eventLog.path} (${report.eventLog.exists ? 'exists' : 'not created yet'}${report.eventLog.writable ? '' : ', NOT writable'})`,
  );
  if (report.problems.length === 0) {
    out.print(c.green('No problem found.'));
    return;
  }
  for (const p of report.problems) {
    out.print(`${c.red('✗')} ${p.problem}`);
    out.print(`  ${c.bold('next step:')} ${p.nextStep}`);
  }
}
