import type { z } from 'zod';
import type { ToolContract } from './contracts/contract.ts';
import type { CallDescription } from './contracts/remediation.ts';

/**
 * How much a tool can change the world. `read-only` runs freely; `mutating` changes production and
 * `external` acts outside it (a page, a post): both run only after a human approves.
 */
export type SideEffect = 'read-only' | 'mutating' | 'external';

export interface ToolContext {
  /** The incident's wall clock: tools return nothing after it. */
  now: Date;
}

export interface ToolResult<Data = unknown> {
  /** One line for humans and for the model's first glance. */
  summary: string;
  /** The structured result, in the shape of the contract's output. */
  data: Data;
}

/** A tool as a source implements it: the contract, its side-effect level and the IAM actions it needs on AWS. */
export interface ToolDefinition<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> extends ToolContract<Input, Output> {
  sideEffect: SideEffect;
  iamActions: readonly string[];
  /** Per call: whether this input needs a human approval (read-only tools never do unless this says so). */
  needsApproval?: (input: z.infer<Input>) => boolean;
  /** What a call that changes something will do, against which resource (remediation contracts say it). */
  describeCall?: (input: z.infer<Input>) => CallDescription;
  /** Reads, without changing anything, the value a call would change: the approver sees it before deciding. */
  preview?: (input: z.infer<Input>, context: ToolContext) => Promise<{ previousValue: string | null }>;
  run(input: z.infer<Input>, context: ToolContext): Promise<ToolResult<z.input<Output>>>;
}

export interface ToolImplementation<Input extends z.ZodType, Output extends z.ZodType> {
  sideEffect: SideEffect;
  iamActions: readonly string[];
  needsApproval?: (input: z.infer<Input>) => boolean;
  preview?: (input: z.infer<Input>, context: ToolContext) => Promise<{ previousValue: string | null }>;
  run(input: z.infer<Input>, context: ToolContext): Promise<ToolResult<z.input<Output>>>;
}

/** A source's implementation of a contract: the contract's name, description and schemas stay the contract's. */
export const implementTool = <Input extends z.ZodType, Output extends z.ZodType>(
  contract: ToolContract<Input, Output>,
  implementation: ToolImplementation<Input, Output>,
): ToolDefinition<Input, Output> => ({ ...contract, ...implementation });

/** Whether this call may run without a human: read-only and not flagged by the tool's own predicate. Fail closed. */
export const runsWithoutApproval = <Input extends z.ZodType>(tool: Pick<ToolDefinition<Input>, 'sideEffect' | 'needsApproval'>, input: z.infer<Input>): boolean =>
  tool.sideEffect === 'read-only' && !(tool.needsApproval?.(input) ?? false);
