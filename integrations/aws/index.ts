import type { InvestigationStore } from '../../lib/store/port.ts';
import { taggedCatalog } from './catalog/tagged-catalog.ts';
import { listChanges } from './changes/list-changes.ts';
import { realTiming, type SpacerTiming } from './changes/request-spacer.ts';
import { defaultInsightsTiming } from './logs/insights-runner.ts';
import { defaultLimiterOptions } from './logs/query-limiter.ts';
import { getMetrics } from './cloudwatch/get-metrics.ts';
import { describeService } from './resources/describe-service.ts';
import { listAlarms } from './cloudwatch/list-alarms.ts';
import { queryLogs } from './logs/query-logs.ts';
import { searchRunbooks } from './runbooks/search-runbooks.ts';
import { getDependencies } from './xray/get-dependencies.ts';
import { getTraces } from './xray/get-traces.ts';
import { declaredIamActions } from './iam.ts';
import { awsRemediationFactories } from './remediation/index.ts';
import { declaredRemediationActions, type RemediationIamActions } from './remediation/iam.ts';
import type { AwsToolSettings } from './settings.ts';
import { AwsToolSource } from './source.ts';
import type { AwsToolFactory } from './tools.ts';

/** No waiting between calls: what an emulated account, which has no rate limits, is served with. */
const unpaced: SpacerTiming = { now: () => Date.now(), sleep: async () => undefined };

/** Every AWS tool, by contract name. */
export const awsToolFactories: Readonly<Record<string, AwsToolFactory>> = {
  list_alarms: listAlarms,
  get_dependencies: getDependencies,
  list_changes: (dependencies) => listChanges(dependencies, dependencies.paced === false ? unpaced : realTiming),
  query_logs: (dependencies) =>
    queryLogs(
      dependencies,
      dependencies.paced === false
        ? { insights: { pollIntervalsMs: [0] }, limiter: { ...defaultLimiterOptions, spacingMs: 0 } }
        : { insights: defaultInsightsTiming, limiter: defaultLimiterOptions },
    ),
  get_metrics: getMetrics,
  get_traces: getTraces,
  describe_service: describeService,
  search_runbooks: searchRunbooks,
};

export const awsToolSource = (options: { store: InvestigationStore; settings: AwsToolSettings; home: { accountId?: string; region: string } }): AwsToolSource =>
  new AwsToolSource({ ...options, factories: awsToolFactories, remediationFactories: awsRemediationFactories, catalog: taggedCatalog });

/** The IAM actions the enabled AWS tools need: the tool-running function's grant. */
export const awsToolIamActions = (settings: AwsToolSettings): string[] => declaredIamActions(awsToolFactories, settings);

/** The enabled remediation tools' actions: reads for the function that runs them, changes for the remediation role alone. */
export const awsRemediationIamActions = (settings: AwsToolSettings): RemediationIamActions => declaredRemediationActions(awsRemediationFactories, settings);
