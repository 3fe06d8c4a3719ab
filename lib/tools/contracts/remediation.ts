import { z } from 'zod';
import { defineContract, type ToolContract } from './contract.ts';

/** What a remediation call will do, said before it runs: for the approver, the transcript and the report. */
export interface CallDescription {
  /** The resource it acts on (an ECS service, a Lambda alias, an Automation document). */
  target: string;
  /** One sentence: the change, in the words an approver needs. */
  summary: string;
}

/** Every remediation tool's result: what changed, on what, from what to what. */
export const remediationResult = z.object({
  action: z.string(),
  target: z.string(),
  /** The value before the change, as read just before it (null when the action has none, such as a new deployment). */
  previousValue: z.string().nullable(),
  newValue: z.string().nullable(),
  /** `recorded` when the source only records what it would do (a scenario), `executed` when it acted. */
  status: z.enum(['executed', 'recorded']),
  detail: z.string(),
});
export type RemediationResult = z.infer<typeof remediationResult>;

export interface RemediationContract<Input extends z.ZodType = z.ZodType> extends ToolContract<Input, typeof remediationResult> {
  describeCall: (input: z.infer<Input>) => CallDescription;
}

export const defineRemediationContract = <Input extends z.ZodType>(contract: Omit<RemediationContract<Input>, 'output'>): RemediationContract<Input> => ({
  ...defineContract({ ...contract, output: remediationResult }),
  describeCall: contract.describeCall,
});

export const ecsServiceInput = {
  cluster: z.string().min(1).describe('The ECS cluster (name or ARN).'),
  service: z.string().min(1).describe('The ECS service (name or ARN).'),
};

export const ecsTarget = (input: { cluster: string; service: string }): string => `ECS service ${input.service} in cluster ${input.cluster}`;
