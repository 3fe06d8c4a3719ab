import { severityOf } from '../../../lib/analysis/log-templates.ts';
import { templatesErrorsFirst } from '../../../lib/tools/log-template-summaries.ts';
import { toMillis } from '../../../lib/domain/time.ts';
import { queryLogsContract } from '../../../lib/tools/contracts/query-logs.ts';
import { implementTool } from '../../../lib/tools/tool.ts';
import { serviceMatches, type RecordedEnvironment } from '../recorded-environment.ts';
import { noData, sinceMinutes } from '../../../lib/tools/contracts/shared-inputs.ts';

export const queryLogs = (environment: RecordedEnvironment) =>
  implementTool(queryLogsContract, {
    sideEffect: 'read-only',
    iamActions: ['logs:StartQuery', 'logs:GetQueryResults', 'logs:FilterLogEvents'],
    run: async (input) => {
      if (!environment.has('logs')) return noData('no log data is available');
      const threshold = severityOf(input.minLevel);
      const needle = input.contains?.toLowerCase();
      const matched = environment
        .logs(input.from === undefined ? input.sinceMinutes : Math.max(0, (environment.nowMillis - toMillis(input.from)) / 60_000))
        .filter(
          (line) =>
            serviceMatches(input.service, line.service) &&
            (input.to === undefined || toMillis(line.timestamp) <= toMillis(input.to)) &&
            severityOf(line.level) >= threshold &&
            (needle === undefined || line.message.toLowerCase().includes(needle)),
        );
      const head = Math.ceil(input.limit / 2);
      const shown = matched.length <= input.limit ? matched : [...matched.slice(0, head), ...matched.slice(matched.length - (input.limit - head))];
      const templates = templatesErrorsFirst(
        matched.map((line) => ({ t: toMillis(line.timestamp), level: line.level, message: line.message, service: line.service })),
        25,
      );
      return {
        summary: `${matched.length} log lines matched${matched.length > shown.length ? `, showing the first and last ${shown.length}` : ''}; ${templates.length} templates shown, errors first`,
        data: {
          available: true,
          matched: matched.length,
          lines: shown.map(({ timestamp, service, level, message, fields }) => ({ timestamp, service, level, message, ...(fields ? { fields } : {}) })),
          templates,
        },
      };
    },
  });
