/**
 * The page's script is TypeScript under src/console/browser, bundled into page-script.ts: the
 * committed bundle is what esbuild makes of today's sources, and the page inlines it whole.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLE_MODULE, consolePageModule, NOTICE } from '../../scripts/console-page.js';
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

  it("names what it bundles of others; the package ships marked's licence as marked ships it", () => {
    expect(PAGE_SCRIPT.startsWith(`${NOTICE}\n`)).toBe(true);
    const resolve = (path: string) => fileURLToPath(import.meta.resolve(path));
    const marked = JSON.parse(readFileSync(resolve('marked/package.json'), 'utf8')) as {
      version: string;
    };
    const notices = readFileSync(new URL('../../THIRD-PARTY-NOTICES.md', import.meta.url), 'utf8');
    expect(notices).toContain(`**marked** ${marked.version}`);
    expect(notices).toContain(
      readFileSync(join(dirname(resolve('marked/package.json')), 'LICENSE'), 'utf8'),
    );
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { files: string[] };
    expect(manifest.files).toContain('THIRD-PARTY-NOTICES.md');
  });
});
