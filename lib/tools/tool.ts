import { z } from 'zod';

/** How much a tool can change the world; anything but `read-only` waits for a human approval. */
export type SideEffect = 'read-only' | 'mutating' | 'destructive';

export interface ToolContext {
  /** The incident's wall clock: tools return nothing after it. */
  now: Date;
}

export interface ToolResult {
  /** One line for humans and for the model's first glance. */
  summary: string;
  /** The structured result, JSON-serializable. */
  data: unknown;
}

/** A tool declared once: zod input, description, side-effect level and the IAM actions it needs on AWS. */
export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Input;
  sideEffect: SideEffect;
  iamActions: readonly string[];
  run(input: z.infer<Input>, context: ToolContext): Promise<ToolResult>;
}

export const defineTool = <Input extends z.ZodType>(definition: ToolDefinition<Input>): ToolDefinition<Input> => definition;
