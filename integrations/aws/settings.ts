import { z } from 'zod';

/** The AWS tools' names, as the contracts give them; each can be switched off. */
export const awsToolNames = [
  'list_alarms',
  'get_dependencies',
  'list_changes',
  'query_logs',
  'get_metrics',
  'get_traces',
  'describe_service',
  'search_runbooks',
  'analyze_incident',
] as const;
export type AwsToolName = (typeof awsToolNames)[number];

/**
 * The remediation tools' names (lib/tools/contracts/remediation-contracts.ts). They change
 * production, so none is enabled unless listed in `enabledTools`, and listing one needs the
 * remediation role (`remediation.roleName`) they change things through.
 */
export const awsRemediationToolNames = [
  'ecs_force_new_deployment',
  'ecs_set_desired_count',
  'ecs_rollback_task_definition',
  'lambda_rollback_alias',
  'lambda_set_reserved_concurrency',
  'ssm_start_automation',
] as const;
export type AwsRemediationToolName = (typeof awsRemediationToolNames)[number];

/**
 * How the AWS tools find and read a service's telemetry. Every field has a default, so an empty
 * object works against an account that tags its resources with `service`.
 */
export const awsToolSettings = z
  .object({
    region: z.string().optional().describe('Region of the resources; defaults to the trigger\'s, then the environment\'s.'),
    /** Tools to offer: every read tool by default, and no remediation tool unless listed (opt-in). */
    enabledTools: z.array(z.enum([...awsToolNames, ...awsRemediationToolNames])).default([...awsToolNames]),
    /**
     * The role the remediation tools assume in the investigated account to make an approved change,
     * each time with a session policy that allows that one action on that one resource.
     */
    remediation: z.object({ roleName: z.string().min(1), externalId: z.string().min(1).optional() }).optional(),
    /** The tag whose value names a resource's service (Resource Groups Tagging API). */
    serviceTagKey: z.string().min(1).default('service'),
    /** Extra log groups per service, beyond the ones found by tags and naming conventions. */
    logGroups: z.record(z.string(), z.array(z.string().min(1))).default({}),
    /** Look-back before the onset when a tool is asked for "recent" data. */
    lookbackMinutes: z.number().int().positive().default(240),
    /** Cross-account: the read-only role assumed in the alarm's account when it is not the stack's. */
    crossAccount: z
      .object({ roleName: z.string().min(1), externalId: z.string().min(1).optional(), sessionSeconds: z.number().int().min(900).max(3600).default(900) })
      .optional(),
    /** Runbooks: markdown files in a folder deployed with the stack, or under an S3 prefix (`s3://bucket/prefix/`). */
    runbooks: z.object({ directory: z.string().optional(), s3Uri: z.string().regex(/^s3:\/\/[^/]+\/?.*$/, 'expected s3://bucket/prefix/').optional() }).default({}),
    /** Logs Insights: the longest a query is polled before its id is handed back for a later call. */
    insightsDeadlineSeconds: z.number().int().positive().max(600).default(45),
  })
  .superRefine((settings, context) => {
    const remediation = settings.enabledTools.filter((name) => (awsRemediationToolNames as readonly string[]).includes(name));
    if (remediation.length > 0 && !settings.remediation) {
      context.addIssue({
        code: 'custom',
        path: ['remediation'],
        message: `enabledTools lists ${remediation.join(', ')}, which change things through the remediation role, but none is configured: set remediation.roleName (or remove them from enabledTools)`,
      });
    }
  });
export type AwsToolSettings = z.infer<typeof awsToolSettings>;
