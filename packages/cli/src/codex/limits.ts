/**
 * The account's rate limits, asked of codex itself (`provider.readRateLimits()`), and how a
 * person reads them. codex has them only for a ChatGPT login: anything else is said as such,
 * not as a failure.
 */
import type {
  CodexProvider,
  CodexRateLimits,
  CodexRateLimitsRead,
} from '@relvo-labs/agent-provider-codex';
import { askChecked, type Checked } from './login.js';

export type LimitsCheck = Checked<CodexRateLimitsRead>;
type LimitWindow = NonNullable<CodexRateLimits['primary']>;

/** Never throws: a codex that cannot be asked is reported, and the caller decides. */
export function checkLimits(provider: CodexProvider, cwd: string): Promise<LimitsCheck> {
  return askChecked(() => provider.readRateLimits({ cwd }));
}

/** 300 → `5h`, 10080 → `7d`, 90 → `90m`. */
export function windowLength(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}

function describeWindow(label: string, w: LimitWindow): string {
  const span = w.windowMinutes === undefined ? '' : ` of ${windowLength(w.windowMinutes)}`;
  const reset =
    w.resetsAt === undefined
      ? ''
      : `, resets ${new Date(w.resetsAt * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `${label} ${w.usedPercent}% used${span}${reset}`;
}

/** One line for a person: the windows, or why there are none. */
export function describeLimits(check: LimitsCheck): string {
  if (!check.checked) return `not checked (${check.error})`;
  if (!check.available) {
    return 'unavailable (not a ChatGPT login: codex reads rate limits for ChatGPT logins only)';
  }
  const { primary, secondary, limitReached } = check.limits;
  const parts = [
    ...(primary === undefined ? [] : [describeWindow('primary', primary)]),
    ...(secondary === undefined ? [] : [describeWindow('secondary', secondary)]),
    ...(limitReached === undefined ? [] : [`reached: ${limitReached}`]),
  ];
  return parts.length === 0 ? 'no limit reported' : parts.join('; ');
}
