import { z } from 'zod';
import type { ToolCall, ToolSpec } from '../model/port.ts';
import { runsWithoutApproval, type SideEffect, type ToolContext, type ToolDefinition } from './tool.ts';

export type ToolOutcome =
  | { ok: true; summary: string; data: unknown }
  | { ok: false; error: string };

/** The tools of one investigation: specs for the model, validated execution for the workflow. */
export class Toolbox {
  private readonly byName: Map<string, ToolDefinition>;

  constructor(readonly tools: readonly ToolDefinition[]) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  specs(): ToolSpec[] {
    return this.tools.map((tool) => ({
      name: tool.name,
      description: `${tool.description}${tool.sideEffect === 'read-only' ? '' : ' (changes production: runs only after a human approves)'}`,
      inputSchema: z.toJSONSchema(tool.input, { io: 'input', target: 'draft-7' }) as Record<string, unknown>,
    }));
  }

  sideEffectOf(name: string): SideEffect | undefined {
    return this.byName.get(name)?.sideEffect;
  }

  /** Whether this call waits for a human: a known tool, valid arguments, and not free to run. Bad calls run (and fail) as usual. */
  needsApproval(call: ToolCall): boolean {
    const tool = this.byName.get(call.name);
    const parsed = tool?.input.safeParse(call.arguments);
    return tool !== undefined && parsed !== undefined && parsed.success && !runsWithoutApproval(tool, parsed.data);
  }

  /** What a call that needs approval will do, on what, and the value it would change (read now, changing nothing). */
  async describeCall(call: ToolCall, context: ToolContext): Promise<{ target: string; summary: string; previousValue: string | null }> {
    const tool = this.byName.get(call.name);
    if (!tool) throw new Error(`unknown tool "${call.name}"`);
    const input = tool.input.parse(call.arguments);
    const described = tool.describeCall?.(input) ?? { target: call.name, summary: `Run ${call.name} with ${JSON.stringify(call.arguments)}.` };
    const preview = await tool.preview?.(input, context).catch((error: unknown) => ({ previousValue: `unknown (reading it failed: ${error instanceof Error ? error.message : String(error)})` }));
    return { ...described, previousValue: preview?.previousValue ?? null };
  }

  /** Runs a call a human approved: the caller has checked the approval covers this exact call. */
  async executeApproved(call: ToolCall, context: ToolContext): Promise<ToolOutcome> {
    return this.run(call, context, { approved: true });
  }

  /**
   * Runs a tool call that needs no approval. Bad input, a failing tool and a result that breaks the
   * tool's contract all become error results the model (and the transcript's reader) can see.
   */
  async execute(call: ToolCall, context: ToolContext): Promise<ToolOutcome> {
    return this.run(call, context, { approved: false });
  }

  private async run(call: ToolCall, context: ToolContext, { approved }: { approved: boolean }): Promise<ToolOutcome> {
    const tool = this.byName.get(call.name);
    if (!tool) return { ok: false, error: `unknown tool "${call.name}"; available: ${[...this.byName.keys()].join(', ')}` };
    const parsed = tool.input.safeParse(call.arguments);
    if (!parsed.success) {
      return { ok: false, error: `invalid arguments for ${call.name}: ${z.prettifyError(parsed.error)}` };
    }
    if (!approved && !runsWithoutApproval(tool, parsed.data)) {
      return { ok: false, error: `tool "${call.name}" changes production and needs a human approval; it was not run` };
    }
    let result;
    try {
      result = await tool.run(parsed.data, context);
    } catch (error) {
      return { ok: false, error: `${call.name} failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    const output = tool.output.safeParse(result.data);
    if (!output.success) {
      return { ok: false, error: `${call.name} returned a result that breaks its contract: ${z.prettifyError(output.error)}` };
    }
    return { ok: true, summary: result.summary, data: output.data };
  }
}
