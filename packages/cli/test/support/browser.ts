/**
 * Debian's Chromium driven by playwright-core: the system browser, never a downloaded one, on
 * a fresh profile folder removed afterwards. Without the background-networking flags Chromium
 * waits on services a closed network never answers. Missing Chromium skips a test locally and
 * fails it in CI (`CI=true`), where `.ci/run` installs it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.RELVO_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Whether the browser tests run here; throws in CI when Chromium is missing. */
export function chromiumAvailable(
  path: string = CHROMIUM,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (existsSync(path)) return true;
  if (env.CI === 'true') {
    throw new Error(`${path} is missing: in CI the browser tests must run (.ci/run installs it)`);
  }
  return false;
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** `profile`: a user-data-dir of the caller's, left in place on close (to read what it kept). */
export async function launchChromium(
  options: { readonly profile?: string } = {},
): Promise<Browser> {
  const kept = options.profile !== undefined;
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), 'relvo-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      viewport: { width: 1280, height: 820 },
      timeout: 30_000,
    });
  } catch (error) {
    if (!kept) rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      if (!kept) rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: number;
}

/** axe-core's accessibility violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // evaluated over the protocol: the page's CSP (script by hash) stays as it is
  await page.evaluate(axe);
  return page.evaluate(async () => {
    const found = (window as unknown as { axe: { run: (ctx: Document) => Promise<unknown> } }).axe;
    const result = (await found.run(document)) as {
      violations: { id: string; impact: string | null; nodes: unknown[] }[];
    };
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
}

/** Only the violations axe calls serious or critical. */
export function serious(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
