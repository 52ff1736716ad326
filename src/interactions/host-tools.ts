/**
 * A session's host tools (docs/behaviour.md §9.11): the definitions the host declared, checked
 * and compiled once at `createSession`, what `thread/start.dynamicTools` carries, and the check
 * of a call's input against its tool's schema before the host may see it.
 */
import {
  HOST_TOOL_BOUNDS,
  hostToolsSchema,
  type HostToolDefinition,
  type JsonValue,
  type ProviderRejection,
} from '@relvo-labs/agent-provider';
import { compileHostSchema, type ValidateFunction } from '../shared/ajv.js';
import { codexRejection } from '../shared/codex-error.js';

/** What the model is told about an input that fails its schema: at most this many problems. */
const MAX_REPORTED_PROBLEMS = 8;

interface CompiledTool {
  readonly definition: HostToolDefinition;
  readonly validate: ValidateFunction;
}

export type ToolInputCheck =
  | { readonly ok: true; readonly input: JsonValue }
  | { readonly ok: false; readonly token: 'unknown_tool' | 'invalid_input'; readonly text: string };

export class HostToolSet {
  readonly #tools: ReadonlyMap<string, CompiledTool>;

  private constructor(tools: ReadonlyMap<string, CompiledTool>) {
    this.#tools = tools;
  }

  /** Refuses definitions that do not parse or whose input schema does not compile. */
  static compile(
    tools: unknown,
  ):
    | { readonly ok: true; readonly set: HostToolSet }
    | { readonly ok: false; readonly rejection: ProviderRejection } {
    const parsed = hostToolsSchema.safeParse(tools);
    if (!parsed.success) {
      return {
        ok: false,
        rejection: codexRejection('invalid_request', 'the host tool definitions are invalid', {
          details: { reason: 'invalid_definitions', maxTools: HOST_TOOL_BOUNDS.tools },
        }),
      };
    }
    const compiled = new Map<string, CompiledTool>();
    for (const [index, definition] of parsed.data.entries()) {
      try {
        compiled.set(definition.name, {
          definition,
          validate: compileHostSchema(definition.inputSchema, true),
        });
      } catch {
        return {
          ok: false,
          rejection: codexRejection(
            'invalid_request',
            'a host tool input schema does not compile',
            {
              // the position, never the host's schema or name
              details: { reason: 'input_schema_does_not_compile', tool: index },
            },
          ),
        };
      }
    }
    return { ok: true, set: new HostToolSet(compiled) };
  }

  get size(): number {
    return this.#tools.size;
  }

  /** `thread/start.dynamicTools`: every tool a plain function (never deferred, no namespace). */
  dynamicTools(): Record<string, unknown>[] {
    return [...this.#tools.values()].map(({ definition }) => ({
      type: 'function',
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
    }));
  }

  /**
   * A call's input against its tool: the text a refusal gives the model names the problems by
   * their place and ajv's message only, never a value.
   */
  check(tool: string, input: JsonValue): ToolInputCheck {
    const compiled = this.#tools.get(tool);
    if (compiled === undefined) {
      return { ok: false, token: 'unknown_tool', text: 'this tool is not offered by the host' };
    }
    if (compiled.validate(input)) return { ok: true, input };
    const problems = (compiled.validate.errors ?? [])
      .slice(0, MAX_REPORTED_PROBLEMS)
      .map(
        (e) => `${e.instancePath === '' ? '(input)' : e.instancePath} ${e.message ?? 'is invalid'}`,
      );
    return {
      ok: false,
      token: 'invalid_input',
      text: `the input does not match the tool's input schema: ${problems.join('; ')}`,
    };
  }
}
