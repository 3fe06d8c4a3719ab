import type { z } from 'zod';

/**
 * An investigation tool's contract, defined once: its name, when to use it, its input and the
 * shape of its result. Every tool source implements it, and every consumer reads results through
 * `output`, so a result that does not fit is an error someone sees, never evidence that vanishes.
 */
export interface ToolContract<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: Input;
  output: Output;
}

export const defineContract = <Input extends z.ZodType, Output extends z.ZodType>(
  contract: ToolContract<Input, Output>,
): ToolContract<Input, Output> => contract;

export type ContractInput<C extends ToolContract> = z.input<C['input']>;
export type ContractOutput<C extends ToolContract> = z.infer<C['output']>;
