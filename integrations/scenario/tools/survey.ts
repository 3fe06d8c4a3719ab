/** The broad look at everything: the calls the analyzers and the bare-model baseline both start from. */
export const surveyCalls = (sinceMinutes: number, minLevel: 'DEBUG' | 'WARN'): [string, Record<string, unknown>][] => [
  ['list_alarms', {}],
  ['get_dependencies', {}],
  ['list_changes', { sinceMinutes: Math.max(24 * 60, sinceMinutes) }],
  ['query_logs', { minLevel, sinceMinutes, limit: 200 }],
  ['get_metrics', { sinceMinutes }],
  ['get_traces', { sinceMinutes }],
];
