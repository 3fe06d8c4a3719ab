import { describe, expect, it, vi } from 'vitest';
import { createProgram, EXIT, main } from '../../local/cli/main.ts';

/** Runs the CLI in this process (no bad option reaches an action, so nothing is started). */
const run = async (...args: string[]): Promise<{ code: number; stderr: string }> => {
  const written: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    written.push(String(text));
    return true;
  });
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await main(['node', 'sre-agent', ...args]);
    return { code, stderr: written.join('') };
  } finally {
    stderr.mockRestore();
    stdout.mockRestore();
  }
};


const missingDirectory = '/no/such/scenarios-dir';

/** [command line, what the message must say (it names the option), the help it points to]. */
const badInput: [string[], RegExp, string][] = [
  [[], /Usage: sre-agent/, ''],
  [['no-such-command'], /unknown command 'no-such-command'/, 'sre-agent --help'],

  [['investigate'], /nothing to investigate: give --scenario <fileOrId>, or --event <file> with --tools aws/, 'sre-agent investigate --help'],
  [['investigate', '--event'], /option '--event <file>' argument missing/, 'sre-agent investigate --help'],
  [['investigate', '--event', '/no/such/event.json'], /option '--event <file>' argument '\/no\/such\/event\.json' is invalid\. cannot read/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--tools', 'gcp'], /option '--tools <source>' argument 'gcp' is invalid\. Allowed choices are replay, aws/, 'sre-agent investigate --help'],
  [['investigate', '--scenario'], /option '--scenario <fileOrId>' argument missing/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--max-iterations', '0'], /option '--max-iterations <n>' argument '0' is invalid\. expected a positive whole number/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--max-iterations', 'abc'], /option '--max-iterations <n>' argument 'abc' is invalid/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--max-iterations', '-3'], /option '--max-iterations <n>' argument '-3' is invalid/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--max-iterations', '2.5'], /option '--max-iterations <n>' argument '2\.5' is invalid/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--max-iterations', '1e3'], /option '--max-iterations <n>' argument '1e3' is invalid/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--max-iterations'], /option '--max-iterations <n>' argument missing/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--provider', 'gpt'], /option '--provider <name>' argument 'gpt' is invalid\. Allowed choices are offline, openai, anthropic, bedrock/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--data-dir'], /option '--data-dir <dir>' argument missing/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', '--senario', 'y'], /unknown option '--senario'/, 'sre-agent investigate --help'],
  [['investigate', '--scenario', 'x', 'extra'], /too many arguments for 'investigate'/, 'sre-agent investigate --help'],

  [['transcript'], /missing required argument 'id'/, 'sre-agent transcript --help'],
  [['transcript', 'some-id', '--data-dir'], /option '--data-dir <dir>' argument missing/, 'sre-agent transcript --help'],
  [['transcript', 'some-id', '--jsn'], /unknown option '--jsn'/, 'sre-agent transcript --help'],
  [['transcript', 'some-id', 'other-id'], /too many arguments for 'transcript'/, 'sre-agent transcript --help'],

  [['list', '--data-dir'], /option '--data-dir <dir>' argument missing/, 'sre-agent list --help'],
  [['list', '--limit', '3'], /unknown option '--limit'/, 'sre-agent list --help'],
  [['list', 'extra'], /too many arguments for 'list'/, 'sre-agent list --help'],

  [['eval', '--repeat', '0'], /option '--repeat <n>' argument '0' is invalid\. expected a positive whole number/, 'sre-agent eval --help'],
  [['eval', '--repeat', 'twice'], /option '--repeat <n>' argument 'twice' is invalid/, 'sre-agent eval --help'],
  [['eval', '--repeat'], /option '--repeat <n>' argument missing/, 'sre-agent eval --help'],
  [['eval', '--scenarios', missingDirectory], /option '--scenarios <dir>' argument '\/no\/such\/scenarios-dir' is invalid\. no such directory/, 'sre-agent eval --help'],
  [['eval', '--scenarios'], /option '--scenarios <dir>' argument missing/, 'sre-agent eval --help'],
  [['eval', '--provider', 'gpt'], /option '--provider <name>' argument 'gpt' is invalid\. Allowed choices are offline, openai, anthropic, bedrock/, 'sre-agent eval --help'],
  [['eval', '--json'], /option '--json <file>' argument missing/, 'sre-agent eval --help'],
  [['eval', '--data-dir'], /option '--data-dir <dir>' argument missing/, 'sre-agent eval --help'],
  [['eval', '--basline'], /unknown option '--basline'/, 'sre-agent eval --help'],
  [['eval', 'extra'], /too many arguments for 'eval'/, 'sre-agent eval --help'],
  [['eval', '--coarsen', '0'], /option '--coarsen <factor>' argument '0' is invalid\. expected a positive whole number/, 'sre-agent eval --help'],
  [['eval', '--coarsen'], /option '--coarsen <factor>' argument missing/, 'sre-agent eval --help'],
  [['eval', '--tools', 'gcp'], /option '--tools <source>' argument 'gcp' is invalid/, 'sre-agent eval --help'],

  [['serve'], /required option '--scenario <fileOrId>' not specified/, 'sre-agent serve --help'],
  [['serve', '--scenario', 'x', '--port', 'abc'], /option '--port <n>' argument 'abc' is invalid\. expected a port from 0/, 'sre-agent serve --help'],
  [['serve', '--scenario', 'x', '--port', '70000'], /option '--port <n>' argument '70000' is invalid/, 'sre-agent serve --help'],
  [['serve', '--scenario', 'x', '--max-iterations', '0'], /option '--max-iterations <n>' argument '0' is invalid/, 'sre-agent serve --help'],
  [['serve', '--scenario', 'x', '--provider', 'gpt'], /option '--provider <name>' argument 'gpt' is invalid/, 'sre-agent serve --help'],

  [['console', '--port', 'abc'], /option '--port <n>' argument 'abc' is invalid\. expected a port from 0/, 'sre-agent console --help'],
  [['console', '--port', '70000'], /option '--port <n>' argument '70000' is invalid/, 'sre-agent console --help'],
  [['console', '--api'], /option '--api <url>' argument missing/, 'sre-agent console --help'],
  [['console', '--api', 'not a url'], /option '--api <url>' argument 'not a url' is invalid\. expected a URL such as http:\/\/127\.0\.0\.1:8787/, 'sre-agent console --help'],
  [['console', '--api', 'ftp://127.0.0.1/'], /option '--api <url>' argument 'ftp:\/\/127\.0\.0\.1\/' is invalid\. expected an http or https URL/, 'sre-agent console --help'],
  [['console', '--api', 'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/prod?stage=x'], /is invalid\. give the API's base URL without user, password, query or fragment/, 'sre-agent console --help'],
  [['console', '--api', 'http://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/prod'], /error: http:\/\/a1b2c3d4e5\.execute-api\.eu-west-1\.amazonaws\.com is not local.*use https/, 'sre-agent console --help'],
  [['console', '--api', 'https://sre.example.com/'], /error: sre\.example\.com is neither API Gateway .* add --region <region>/, 'sre-agent console --help'],
  [['console', '--api', 'http://127.0.0.1:8787', '--region', 'eu-west-1'], /error: --region signs requests for API Gateway, but http:\/\/127\.0\.0\.1:8787 is a local API.*drop --region/, 'sre-agent console --help'],
  [['console', '--region', 'Ireland'], /option '--region <region>' argument 'Ireland' is invalid\. expected an AWS region such as eu-west-1/, 'sre-agent console --help'],
  [['console', 'extra'], /too many arguments for 'console'/, 'sre-agent console --help'],
];

describe('sre-agent options', () => {
  it.each(badInput)('%j exits 2 and says what is wrong', async (args, message, help) => {
    const { code, stderr } = await run(...args);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toMatch(message);
    if (help) expect(stderr).toContain(`(see: ${help})`);
  });

  it('an eval --scenarios that is a file, not a directory, exits 2 naming the option', async () => {
    const { code, stderr } = await run('eval', '--scenarios', import.meta.filename);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toMatch(/option '--scenarios <dir>' argument '.*options\.test\.ts' is invalid\. no such directory/);
  });

  it('every subcommand, including any added later, rejects an unknown option with exit 2', async () => {
    const names = createProgram(() => undefined).commands.map((command) => command.name());
    expect(names).toEqual(expect.arrayContaining(['investigate', 'transcript', 'list', 'eval', 'serve', 'console']));
    for (const name of names) {
      const { code, stderr } = await run(name, '--no-such-option');
      expect(code, name).toBe(EXIT.badInput);
      // A missing required option may be reported first; either way the message names an option.
      expect(stderr, name).toMatch(/^error: (unknown option '--no-such-option'|required option '--[\w-]+ <\w+>' not specified|missing required argument|nothing to investigate)/);
      expect(stderr, name).toContain(`(see: sre-agent ${name} --help)`);
    }
  });

  it('asking for help is not an error', async () => {
    for (const args of [['--help'], ['investigate', '--help'], ['eval', '--help']]) {
      expect((await run(...args)).code, args.join(' ')).toBe(EXIT.ok);
    }
  });
});
