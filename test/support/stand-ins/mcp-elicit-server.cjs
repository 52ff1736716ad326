// A stdio MCP server (the MCP SDK) whose tools ask the client through elicitation. argv: <log>.
// `plain` answers `pong` without asking.
// Each tools/list and each elicitation result is appended to the log as one JSON line, so a
// test can see when codex has listed the tools and what codex answered the server.
'use strict';
const { appendFileSync } = require('node:fs');
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} = require('@modelcontextprotocol/sdk/types.js');

const logPath = process.argv[2];
const log = (entry) => appendFileSync(logPath, `${JSON.stringify(entry)}\n`);

const FORMS = {
  ask_form: {
    message: 'Who are you?',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Your name', minLength: 1 },
        color: { type: 'string', title: 'Colour', enum: ['red', 'green'] },
        age: { type: 'integer', title: 'Age', minimum: 0 },
        agree: { type: 'boolean', title: 'Agree', default: false },
      },
      required: ['name'],
    },
  },
  // 70 choices: more than a neutral question may offer (codex itself refuses shapes outside its
  // typed schema, such as a nested object, and never forwards them)
  ask_many: {
    message: 'Pick one',
    requestedSchema: {
      type: 'object',
      properties: {
        pick: {
          type: 'string',
          title: 'Pick',
          enum: Array.from({ length: 70 }, (_, i) => `v${i}`),
        },
      },
      required: ['pick'],
    },
  },
  ask_url: {
    mode: 'url',
    elicitationId: 'el-url-1',
    // credentials in the address, and an address without a scheme in the message: neither may
    // reach a person or a log
    url: 'https://user:PASSWORD@example.invalid/consent?token=TOKEN1&step=2',
    message: 'Open this page to continue, or example.invalid/login?code=CODE2',
  },
};

const server = new Server(
  { name: 'elicit-test', version: '0.0.1' },
  { capabilities: { tools: {} } },
);
const empty = { type: 'object', properties: {} };

server.setRequestHandler(ListToolsRequestSchema, async () => {
  log({ listed: true });
  return {
    tools: [
      { name: 'plain', description: 'Returns pong', inputSchema: empty },
      ...Object.keys(FORMS).map((name) => ({
        name,
        description: `Elicits (${name})`,
        inputSchema: empty,
      })),
    ],
  };
});

server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const name = req.params.name;
  // whether the env a host configured for this server reached it (its value is a test marker)
  log({ called: name, envProbe: process.env.RELVO_MCP_PROBE ?? null });
  const form = FORMS[name];
  if (form === undefined) return { content: [{ type: 'text', text: 'pong' }] };
  try {
    const result = await server.elicitInput(form);
    log({ tool: name, result });
    return { content: [{ type: 'text', text: `elicitation: ${result.action}` }] };
  } catch (error) {
    log({ tool: name, error: String(error?.message ?? error) });
    return { isError: true, content: [{ type: 'text', text: 'elicitation failed' }] };
  }
});

void server.connect(new StdioServerTransport());
