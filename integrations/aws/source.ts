import { STSClient } from '@aws-sdk/client-sts';
import { analyzeIncident } from '../../lib/analyst/analyze-incident-tool.ts';
import type { Investigation } from '../../lib/domain/investigation.ts';
import type { InvestigationStore } from '../../lib/store/port.ts';
import type { ToolSource } from '../../lib/tools/source.ts';
import type { ToolDefinition } from '../../lib/tools/tool.ts';
import { Toolbox } from '../../lib/tools/toolbox.ts';
import { RecordedSnapshots } from '../scenario/recorded-snapshots.ts';
import type { ServiceCatalog } from './catalog.ts';
import { assumedRoleCredentials, AwsClients, type AwsBackend } from './clients.ts';
import { scenarioEmulations } from './emulation/index.ts';
import { narrowedByRole, type NarrowedClients, type RemediationFactory } from './remediation/index.ts';
import { awsRemediationToolNames, type AwsToolSettings } from './settings.ts';
import type { AwsToolDependencies, AwsToolFactory } from './tools.ts';

export interface AwsToolSourceOptions {
  store: InvestigationStore;
  settings: AwsToolSettings;
  /** The account and region the stack runs in: other accounts are reached through the cross-account role. */
  home: { accountId?: string; region: string };
  factories: Readonly<Record<string, AwsToolFactory>>;
  remediationFactories: Readonly<Record<string, RemediationFactory>>;
  catalog: (clients: AwsClients, settings: AwsToolSettings) => ServiceCatalog;
}

/** Serves the AWS tools for one investigation, against its account, live or answered from a recorded environment. */
export class AwsToolSource implements ToolSource {
  private readonly snapshots: RecordedSnapshots;

  constructor(private readonly options: AwsToolSourceOptions) {
    this.snapshots = new RecordedSnapshots(options.store);
  }

  async load(investigation: Investigation): Promise<{ toolbox: Toolbox; now: Date }> {
    const ref = investigation.toolSource;
    if (ref.kind !== 'aws') throw new Error(`the AWS tool source cannot serve a ${ref.kind} investigation`);
    const { settings, home } = this.options;
    const region = ref.region ?? settings.region ?? home.region;
    let backend: AwsBackend;
    let now: Date;
    if (ref.emulatedSnapshot !== undefined) {
      const recorded = await this.snapshots.load(ref.emulatedSnapshot);
      now = recorded.now;
      backend = { kind: 'emulated', environment: recorded, emulations: scenarioEmulations };
    } else {
      now = new Date();
      const crossAccount = ref.accountId !== undefined && home.accountId !== undefined && ref.accountId !== home.accountId;
      if (crossAccount && !settings.crossAccount) {
        throw new Error(
          `the alarm is in account ${ref.accountId} but the stack runs in ${home.accountId} and no cross-account role is configured (settings.crossAccount.roleName)`,
        );
      }
      backend =
        crossAccount && settings.crossAccount
          ? {
              kind: 'live',
              credentials: assumedRoleCredentials({
                roleArn: `arn:aws:iam::${ref.accountId}:role/${settings.crossAccount.roleName}`,
                sessionSeconds: settings.crossAccount.sessionSeconds,
                region,
                ...(settings.crossAccount.externalId ? { externalId: settings.crossAccount.externalId } : {}),
              }),
            }
          : { kind: 'live' };
    }
    const clients = new AwsClients(region, backend);
    const dependencies: AwsToolDependencies = {
      clients,
      catalog: this.options.catalog(clients, settings),
      settings,
      paced: backend.kind === 'live',
      ...(ref.accountId ? { accountId: ref.accountId } : {}),
    };
    const accountId = ref.accountId ?? home.accountId;
    const remediation = awsRemediation(this.options.remediationFactories, settings, { region, backend, ...(accountId ? { accountId } : {}) }, clients);
    return { toolbox: new Toolbox([...awsTools(this.options.factories, dependencies), ...remediation]), now };
  }
}

/** What an emulated account's remediation role is called when the settings name none: nothing is assumed there for real. */
const EMULATED_REMEDIATION_ROLE = 'sre-agent-remediation';

/**
 * The remediation tools offered: on a live account only those enabled (opt-in, through the
 * configured role); on an emulated account all of them, since its changes are answered and
 * recorded by the emulation and reach nothing.
 */
const awsRemediation = (
  factories: Readonly<Record<string, RemediationFactory>>,
  settings: AwsToolSettings,
  target: { region: string; backend: AwsBackend; accountId?: string },
  clients: AwsClients,
): ToolDefinition[] => {
  const emulated = target.backend.kind === 'emulated';
  const enabled = new Set<string>(emulated ? awsRemediationToolNames : settings.enabledTools);
  const chosen = Object.entries(factories).filter(([name]) => enabled.has(name));
  if (chosen.length === 0) return [];
  const roleName = settings.remediation?.roleName ?? (emulated ? EMULATED_REMEDIATION_ROLE : undefined);
  const narrowed: NarrowedClients = async (grant) => {
    if (!roleName) throw new Error(`${grant.action} needs the remediation role, and none is configured (settings.remediation.roleName)`);
    if (!target.accountId) throw new Error(`${grant.action} needs the remediation role in the investigated account, but the account is not known (the trigger names none and STACK_ACCOUNT_ID is unset)`);
    return narrowedByRole({
      roleArn: `arn:aws:iam::${target.accountId}:role/${roleName}`,
      region: target.region,
      ...(settings.remediation?.externalId ? { externalId: settings.remediation.externalId } : {}),
      // Emulated: the emulation answers AssumeRole too, and the narrowed clients are emulated like the rest.
      ...(emulated ? { sts: clients.get(STSClient), backend: () => target.backend } : {}),
    })(grant);
  };
  return chosen.map(([, factory]) => factory.create({ clients, narrowed, ...(target.accountId ? { accountId: target.accountId } : {}) }));
};

/** The enabled read tools, with analyze_incident over them when it is enabled. */
export const awsTools = (factories: Readonly<Record<string, AwsToolFactory>>, dependencies: AwsToolDependencies): ToolDefinition[] => {
  const enabled = new Set<string>(dependencies.settings.enabledTools);
  const tools = Object.entries(factories)
    .filter(([name]) => enabled.has(name))
    .map(([, factory]) => factory(dependencies));
  return enabled.has('analyze_incident') ? [...tools, analyzeIncident(tools) as ToolDefinition] : tools;
};
