import { z } from 'zod';
import { defineRemediationContract } from './remediation.ts';

export const ssmStartAutomationContract = defineRemediationContract({
  name: 'ssm_start_automation',
  description:
    'Starts an SSM Automation runbook (document) with parameters, for a remediation a team has written down as a runbook. Changes production: runs only after a human approves.',
  input: z.object({
    documentName: z.string().min(1).max(128).describe('The Automation document, for example "AWS-RestartEC2Instance".'),
    parameters: z.record(z.string(), z.array(z.string())).default({}).describe('Document parameters: each name to its list of values.'),
  }),
  describeCall: (input) => ({
    target: `SSM Automation document ${input.documentName}`,
    summary: `Start SSM Automation document ${input.documentName} with parameters ${JSON.stringify(input.parameters)}.`,
  }),
});
