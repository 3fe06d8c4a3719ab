import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, NagRuleCompliance, type IApplyRule } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SreAgentStack } from '../../cdk/sre-agent-stack.ts';
import { stepNames } from '../../lib/workflow/control.ts';
import { cdkJsonContext } from './cdk-context.ts';

/**
 * cdk-nag 3 is a CDK validation plugin: registered with Validations.of(app).addPlugins(...), it
 * runs during synthesis and fails it on any unacknowledged error-level finding. Findings that
 * cannot be fixed are acknowledged in the stack code with Validations.of(construct).acknowledge().
 */
const EXPECTED_ACKNOWLEDGEMENTS = [
  'AwsSolutions-IAM5[Resource::*]', // X-Ray, Step Functions log delivery, the investigation tools' read APIs
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:*:<AWS::AccountId>:log-group:*]', // Logs Insights over the log groups an investigation finds
  'AwsSolutions-IAM5[Resource::<…Function….Arn>:*]', // LambdaInvoke qualifiers, one per step
  'AwsSolutions-L1', // nodejs22.x pinned by design
  'AwsSolutions-SQS3', // the DLQ itself
  'AwsSolutions-APIG2', // bodies and queries are validated by the app (zod)
  'AwsSolutions-APIG3', // WAF is the deployer's account-level choice
  'AwsSolutions-APIG6', // execution logging needs the account-wide API Gateway role
  'AwsSolutions-APIG4', // the PagerDuty webhook is HMAC-signed, not IAM
  'AwsSolutions-COG4', // IAM auth, no Cognito
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:<WorkflowStateMachine8F1B1C15.Name>:*]', // cancel stops executions
];

interface Evaluation {
  readonly ruleId: string;
  readonly path: string;
  /** Rule ids (with the finding suffix, e.g. `AwsSolutions-IAM5[Resource::*]`) the rule raised, before acknowledgements. */
  readonly findings: readonly string[];
}

/** The AwsSolutions pack, recording every rule it evaluates and what each found before acknowledgements apply. */
class RecordingAwsSolutionsChecks extends AwsSolutionsChecks {
  readonly evaluations: Evaluation[] = [];

  protected override applyRule(params: IApplyRule): void {
    const ruleSuffix = params.ruleSuffixOverride ?? params.rule.name;
    const ruleId = `AwsSolutions-${ruleSuffix}`;
    const rule = (node: CfnResource) => {
      let result: ReturnType<IApplyRule['rule']>;
      try {
        result = params.rule(node);
      } catch (error) {
        this.evaluations.push({ ruleId, path: node.node.path, findings: [ruleId] });
        throw error;
      }
      const findings = result === NagRuleCompliance.NON_COMPLIANT ? [ruleId] : Array.isArray(result) ? result.map((finding) => `${ruleId}[${finding}]`) : [];
      this.evaluations.push({ ruleId, path: node.node.path, findings });
      return result;
    };
    super.applyRule({ ...params, ruleSuffixOverride: ruleSuffix, rule });
  }
}

let app: App;
let stack: SreAgentStack;
let synthError: unknown;

beforeAll(() => {
  app = new App({ context: cdkJsonContext() });
  stack = new SreAgentStack(app, 'SreAgentNag', {
    modelSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/model-AbCdEf',
    // Remediation enabled, so the remediation role and the approval steps' grants are checked too.
    awsTools: { enabledTools: ['list_alarms', 'get_metrics', 'query_logs', 'ecs_force_new_deployment', 'lambda_rollback_alias'], remediation: { roleName: 'sre-agent-remediation' } },
    // Slack approval buttons: a second HMAC-signed open route.
    slackSigningSecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sre-agent/slack-signing-AbCdEf',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  try {
    app.synth();
  } catch (error) {
    synthError = error;
  }
});

function acknowledgements(root: IConstruct): Array<{ path: string; id: string; reason: string }> {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

describe('cdk-nag AwsSolutions', () => {
  it('synthesizes with the AwsSolutions plugin registered (no unacknowledged error)', () => {
    expect(synthError).toBeUndefined();
  });

  it('evaluates its rules on every resource of the stack, and every acknowledgement covers a real finding', () => {
    const pack = new RecordingAwsSolutionsChecks(undefined, { verbose: true });
    expect(pack.validateScope(stack).success).toBe(true);
    const resourcePaths = stack.node.findAll().filter((construct) => CfnResource.isCfnResource(construct)).map((construct) => construct.node.path);
    expect(resourcePaths.length).toBeGreaterThan(20);
    expect(new Set(pack.evaluations.map(({ path }) => path))).toEqual(new Set(resourcePaths));
    const rulesRun = new Set(pack.evaluations.map(({ ruleId }) => ruleId));
    for (const rule of ['AwsSolutions-IAM5', 'AwsSolutions-L1', 'AwsSolutions-SQS3', 'AwsSolutions-SQS4', 'AwsSolutions-SNS3', 'AwsSolutions-DDB3', 'AwsSolutions-SF1', 'AwsSolutions-KMS5']) {
      expect(rulesRun, rule).toContain(rule);
    }

    const findings = pack.evaluations.flatMap(({ path, findings }) => findings.map((ruleId) => ({ path, ruleId })));
    expect(findings.length).toBeGreaterThan(0);
    for (const { path, id } of acknowledgements(stack)) {
      const covered = findings.filter((finding) => finding.ruleId === id && (finding.path === path || finding.path.startsWith(`${path}/`)));
      expect(covered.length, `acknowledgement ${id} on ${path} matches no finding: remove it`).toBeGreaterThan(0);
    }
  });

  it('leaves no unacknowledged finding, errors or warnings', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    const summary = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(summary).toEqual([]);
    expect(report.success).toBe(true);
  });

  // cdk-nag 3 reports through validations (checked above), not annotations; CDK's own errors still do.
  it('has no CDK error annotation', () => {
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges only the expected rules, each with a specific reason', () => {
    const acks = acknowledgements(stack);
    const kinds = new Set(
      acks.map(({ id }) => id.replace(/^AwsSolutions-IAM5\[Resource::<\w+Function[0-9A-F]{8}\.Arn>:\*\]$/, 'AwsSolutions-IAM5[Resource::<…Function….Arn>:*]')),
    );
    expect([...kinds].sort()).toEqual([...EXPECTED_ACKNOWLEDGEMENTS].sort());
    for (const { path, id, reason } of acks) {
      expect(reason.length, `${path} ${id}`).toBeGreaterThan(60);
    }
    // One per-function LambdaInvoke acknowledgement per step, on the state machine; one for the sweep schedule invoking admission.
    const invoke = acks.filter(({ id }) => id.includes('Function') && id.endsWith('.Arn>:*]'));
    expect(invoke.filter(({ path }) => path === 'SreAgentNag/Workflow/StateMachine')).toHaveLength(stepNames.length);
    expect(invoke.filter(({ path }) => path !== 'SreAgentNag/Workflow/StateMachine').map(({ path }) => path)).toEqual(['SreAgentNag/Triggers/SweepSchedulerRole']);
  });

  it('fails synthesis when a finding is not acknowledged (the plugin is really wired)', () => {
    const probe = new App({ context: cdkJsonContext() });
    const probeStack = new Stack(probe, 'NagProbe');
    new sqs.Queue(probeStack, 'PlainQueue'); // no enforceSSL: AwsSolutions-SQS4 is an error
    Validations.of(probe).addPlugins(new AwsSolutionsChecks(probe));
    const originalError = console.error;
    console.error = () => undefined; // the plugin prints its report to stderr before throwing
    try {
      expect(() => probe.synth()).toThrow(/AwsSolutions-SQS4/);
    } finally {
      console.error = originalError;
    }
    // The validation report lists a plugin only when it found something: here it must.
    const reportFile = join(probe.outdir, 'validation-report.json');
    expect(existsSync(reportFile)).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: Array<{ violations?: Array<{ ruleName: string }> }> };
    expect(report.pluginReports.flatMap((plugin) => plugin.violations ?? []).map(({ ruleName }) => ruleName)).toContain('AwsSolutions-SQS4');
  });
});
