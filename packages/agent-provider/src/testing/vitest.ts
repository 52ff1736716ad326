/**
 * `@relvo-labs/agent-provider/testing/vitest`: the conformance kit as vitest tests, one `it`
 * per applicable check. Needs vitest (an optional peer dependency).
 */
export { describeProviderConformance } from './conformance/vitest.js';
