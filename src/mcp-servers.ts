/**
 * `mcpServers`: the MCP servers a provider's sessions get, handed to codex as its own config
 * (`config.mcp_servers` on `thread/start`, `thread/resume` and `thread/fork`; measured on 0.171.0:
 * per thread, not remembered across a resume, so it is sent every time). A stdio server
 * (`command`, `args`, `env`, `cwd`) or a streamable-HTTP one (`url`, a bearer token's env var).
 * Names are unique. Env values are secrets: never in the descriptor, an error or a log.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import { z } from 'zod';

const nameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);
/**
 * `ask`: codex asks before each tool call (an MCP elicitation: bridged with `mcpElicitations:
 * 'bridge'`, else declined); `approve`: the host approves every tool of the server in advance.
 */
const toolsSchema = z.enum(['ask', 'approve']).default('ask');

const stdioServerSchema = z.strictObject({
  name: nameSchema,
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(32_768)).max(256).default([]),
  env: z.record(envNameSchema, z.string().max(32_768)).optional(),
  /** Absolute; default: codex's. */
  cwd: z.string().regex(/^\//).max(4096).optional(),
  tools: toolsSchema,
});

const httpServerSchema = z.strictObject({
  name: nameSchema,
  url: z.url({ protocol: /^https?$/ }).max(4096),
  /** The env var codex reads the bearer token from (the token itself never passes here). */
  bearerTokenEnvVar: envNameSchema.optional(),
  tools: toolsSchema,
});

export const mcpServerSchema = z.union([stdioServerSchema, httpServerSchema]);
export type McpServerOptions = z.input<typeof mcpServerSchema>;

export const mcpServersSchema = z
  .array(mcpServerSchema)
  .max(64)
  .superRefine((servers, ctx) => {
    const seen = new Set<string>();
    servers.forEach((s, i) => {
      if (seen.has(s.name))
        ctx.addIssue({ code: 'custom', message: 'duplicate MCP server name', path: [i, 'name'] });
      seen.add(s.name);
    });
  });
export type ResolvedMcpServers = z.output<typeof mcpServersSchema>;

/** codex's `mcp_servers` table for `config` (its config.toml keys). */
export function codexMcpConfig(servers: ResolvedMcpServers): JsonObject {
  const table: JsonObject = {};
  for (const s of servers) {
    const approval = s.tools === 'approve' ? 'approve' : 'prompt';
    table[s.name] =
      'command' in s
        ? {
            command: s.command,
            args: [...s.args],
            ...(s.env === undefined ? {} : { env: { ...s.env } }),
            ...(s.cwd === undefined ? {} : { cwd: s.cwd }),
            default_tools_approval_mode: approval,
          }
        : {
            url: s.url,
            ...(s.bearerTokenEnvVar === undefined
              ? {}
              : { bearer_token_env_var: s.bearerTokenEnvVar }),
            default_tools_approval_mode: approval,
          };
  }
  return { mcp_servers: table };
}
