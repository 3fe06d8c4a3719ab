import { analyzeIncidentContract } from './analyze-incident.ts';
import type { ToolContract } from './contract.ts';
import { describeServiceContract } from './describe-service.ts';
import { getDependenciesContract } from './get-dependencies.ts';
import { getMetricsContract } from './get-metrics.ts';
import { getTracesContract } from './get-traces.ts';
import { listAlarmsContract } from './list-alarms.ts';
import { listChangesContract } from './list-changes.ts';
import { queryLogsContract } from './query-logs.ts';
import { searchRunbooksContract } from './search-runbooks.ts';

export { defineContract, type ContractInput, type ContractOutput, type ToolContract } from './contract.ts';
export {
  analyzeIncidentContract,
  describeServiceContract,
  getDependenciesContract,
  getMetricsContract,
  getTracesContract,
  listAlarmsContract,
  listChangesContract,
  queryLogsContract,
  searchRunbooksContract,
};

/** Every investigation tool, by contract; a tool source implements some or all of them. */
export const investigationContracts: readonly ToolContract[] = [
  listAlarmsContract,
  getDependenciesContract,
  listChangesContract,
  queryLogsContract,
  getMetricsContract,
  getTracesContract,
  describeServiceContract,
  searchRunbooksContract,
  analyzeIncidentContract,
];

const byName = new Map(investigationContracts.map((contract) => [contract.name, contract]));

export const contractNamed = (name: string): ToolContract | undefined => byName.get(name);
