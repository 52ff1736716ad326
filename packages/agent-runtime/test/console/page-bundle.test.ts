/**
 * The page's script is TypeScript under src/console/browser, bundled into page-script.ts: the
 * committed bundle is what esbuild makes of today's sources, and the page inlines it whole.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUNDLE_MODULE, consolePageModule } from '../../scripts/console-page.js';
import { PAGE_SCRIPT } from '../../src/console/page-script.js';
import { renderPage } from '../../src/console/page.js';

describe('the console page bundle', () => {
  it('is fresh: `node --import tsx scripts/console-page.ts` rewrites it when this fails', async () => {
    expect(readFileSync(BUNDLE_MODULE, 'utf8')).toBe(await consolePageModule());
  });

  it('is inlined whole and admitted by its hash, with no script of its own besides', () => {
    const page = renderPage();
    expect(page.html).toContain(`<script>${PAGE_SCRIPT}</script>`);
    expect(page.html.match(/<script/g)).toHaveLength(1);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-[^']+'/);
    // the trade of a one-time code, never a token read from the address
    expect(PAGE_SCRIPT).toContain('/api/exchange');
    expect(PAGE_SCRIPT).not.toContain('#token=');
  });
});
