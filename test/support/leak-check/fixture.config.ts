import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../../..', import.meta.url).pathname,
    include: ['test/support/leak-check/leaks.fixture.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
