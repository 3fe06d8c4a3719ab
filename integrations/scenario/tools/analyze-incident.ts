import { z } from 'zod';
import { diagnose } from '../../../lib/analyst/diagnose.ts';
import { readEvidence } from '../../../lib/analyst/evidence-board.ts';
import type { ChatMessage } from '../../../lib/model/port.ts';
import { defineTool, type ToolDefinition } from '../../../lib/tools/tool.ts';
import { sinceMinutes } from './shared-inputs.ts';
import { surveyCalls } from './survey.ts';

/**
 * The deterministic analyzers the offline analyst decides with, offered to hosted models as one
 * tool: it gathers the same survey the analyst would, runs the analysis, and returns its summary.
 */
export const analyzeIncident = (survey: readonly ToolDefinition[]) =>
  defineTool({
    name: 'analyze_incident',
    description:
      'Runs the evidence analyzers over alarms, the service map, changes, logs, metrics and traces: metric onsets and change points, bursts of new log templates, changes just before the onset, and dependency propagation (the earliest failing service below the others). Returns the likely origin, the failure chain, the suspect change, a category and the strongest signals: a starting point to verify with the other tools.',
    input: z.object({
      alertingService: z.string().optional().describe('The service the alert or question is about, if known.'),
      alertText: z.string().optional().describe('The alert or question, for context.'),
      sinceMinutes: sinceMinutes(240),
    }),
    sideEffect: 'read-only',
    iamActions: [...new Set(survey.flatMap((tool) => tool.iamActions))],
    run: async (input, context) => {
      const calls = surveyCalls(input.sinceMinutes, 'WARN');
      const messages: ChatMessage[] = [{ role: 'user', content: [input.alertText, input.alertingService].filter(Boolean).join('\n') }];
      for (const [index, [name, args]] of calls.entries()) {
        const tool = survey.find((candidate) => candidate.name === name);
        if (!tool) continue;
        const result = await tool.run(tool.input.parse(args), context);
        const id = `survey_${index + 1}`;
        messages.push({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: args }] });
        messages.push({ role: 'tool', toolCallId: id, name, content: JSON.stringify({ ref: `S${index + 1}`, summary: result.summary, data: result.data }) });
      }
      const diagnosis = diagnose(readEvidence(messages));
      const strongest = [...diagnosis.signals]
        .filter((signal) => signal.kind !== 'alarm')
        .sort((a, b) => Number(b.substantial) - Number(a.substantial) || b.strength - a.strength)
        .slice(0, 12)
        .map((signal) => ({ service: signal.service, kind: signal.kind, at: new Date(signal.at).toISOString(), ongoing: signal.ongoing, what: signal.description }));
      return {
        summary: diagnosis.incident
          ? `likely origin ${diagnosis.root} (${diagnosis.category}); ${diagnosis.candidates.length} services involved`
          : 'no ongoing, substantial problem found',
        data: {
          incident: diagnosis.incident,
          likelyOrigin: diagnosis.root,
          category: diagnosis.category,
          alertingService: diagnosis.symptom,
          failureChainAndCandidates: diagnosis.candidates,
          suspectChange: diagnosis.suspectChange
            ? { service: diagnosis.suspectChange.service, at: diagnosis.suspectChange.timestamp, kind: diagnosis.suspectChange.kind, summary: diagnosis.suspectChange.summary }
            : null,
          explanation: diagnosis.draft.rootCause.summary,
          proposedRemediation: diagnosis.draft.remediation,
          strongestSignals: strongest,
        },
      };
    },
  });
