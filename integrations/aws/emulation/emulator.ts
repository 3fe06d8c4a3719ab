import type { RecordedEnvironment } from '../../scenario/recorded-environment.ts';

/**
 * Answers one SDK command from a recorded environment, in the API's real response shape. It may
 * throw a service exception (an error with the API's `name`, e.g. `ThrottlingException` or
 * `AccessDeniedException`, and `$metadata.httpStatusCode`), which the SDK's retry strategy and the
 * tool's error handling then treat as they would on AWS.
 */
export type CommandAnswer = (input: never, environment: RecordedEnvironment) => unknown;

/** The commands of one AWS service the emulation answers, by command name (`StartQueryCommand`). */
export type ServiceEmulation = Readonly<Record<string, CommandAnswer>>;

/** A command's output as an answer gives it: the SDK adds `$metadata` itself. */
export type Answer<Output> = Omit<Output, '$metadata'>;

interface StackClient {
  middlewareStack: {
    add(
      middleware: (next: unknown, context: { commandName?: string; clientName?: string }) => (args: { input: unknown }) => Promise<unknown>,
      options: { step: 'deserialize'; name: string; priority: 'high' },
    ): void;
  };
}

/** A service exception as the SDK raises it for an HTTP error answer. */
export const serviceException = (name: string, message: string, httpStatusCode = 400): Error =>
  Object.assign(new Error(message), { name, $fault: httpStatusCode >= 500 ? 'server' : 'client', $metadata: { httpStatusCode, attempts: 1 } });

/**
 * Puts the emulation at the SDK boundary: the command's input is built, validated and serialized and
 * the retry strategy runs as on AWS; only the HTTP exchange and the response parsing are replaced
 * by an answer from the recorded environment. A command the emulation does not know fails loudly.
 */
export const attachEmulation = <Client extends StackClient>(client: Client, answers: ServiceEmulation, environment: RecordedEnvironment): Client => {
  client.middlewareStack.add(
    (_next, context) => async (args) => {
      const command = context.commandName ?? 'unknown command';
      const answer = answers[command];
      if (!answer) throw serviceException('UnsupportedOperation', `the scenario emulation of ${context.clientName ?? 'this client'} does not answer ${command}`);
      const output = (await answer(args.input as never, environment)) as Record<string, unknown>;
      return { output: { $metadata: { httpStatusCode: 200, attempts: 1 }, ...output }, response: { statusCode: 200, headers: {} } };
    },
    { step: 'deserialize', name: 'scenarioEmulation', priority: 'high' },
  );
  return client;
};
