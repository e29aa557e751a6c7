// The test's side of a child in a namespace (test/support/netns/*.ts): it speaks JSON lines on
// standard output and takes one JSON command a line on standard input. Each command carries
// an `id`; the child answers `{"id":n,"result":…}` or `{"id":n,"error":"…"}`. Its first
// `{"ready":…}` line says it is up; every other line is an event for `onEvent`.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface CommandChild {
  readonly child: ChildProcess;
  /** Sends `{ id, do: what, ...fields }`; resolves with its result, rejects with its error. */
  ask<T>(what: string, fields?: Record<string, unknown>): Promise<T>;
  /** Sends `stop` and waits until the child has exited. */
  stop(): Promise<void>;
}

type Line = { ready?: unknown; id?: number; result?: unknown; error?: string } & Record<string, unknown>;

/** Resolves once the child says it is ready (with that line); rejects, with its standard error, if it exits first. */
export function commandChild(
  child: ChildProcess,
  label: string,
  onEvent: (event: Line) => void = () => undefined,
): Promise<{ client: CommandChild; ready: Line }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let next = 0;
  const waiting = new Map<number, { done: (value: unknown) => void; fail: (error: Error) => void }>();
  const ask = <T>(what: string, fields: Record<string, unknown> = {}): Promise<T> =>
    new Promise((done, fail) => {
      next += 1;
      waiting.set(next, { done: done as (value: unknown) => void, fail });
      child.stdin!.write(`${JSON.stringify({ id: next, do: what, ...fields })}\n`);
    });
  const client: CommandChild = {
    child,
    ask,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      await ask('stop');
      await exited;
    },
  };
  child.once('exit', (code, signal) => {
    for (const call of waiting.values()) call.fail(new Error(`${label} exited (${code ?? signal}): ${stderr}`));
    waiting.clear();
  });
  return new Promise((resolve, reject) => {
    const early = (code: number | null) =>
      reject(new Error(`${label} exited (${code}) before it was ready: ${stderr}`));
    child.once('exit', early);
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      if (line.ready !== undefined) {
        child.off('exit', early);
        resolve({ client, ready: line });
      } else if (line.id !== undefined) {
        const call = waiting.get(line.id);
        waiting.delete(line.id);
        if (line.error !== undefined) call?.fail(new Error(line.error));
        else call?.done(line.result);
      } else {
        onEvent(line);
      }
    });
  });
}

/**
 * The child's side: reads commands from standard input, runs each with `run`, and prints its
 * answer; after `stop` has been answered, the process exits.
 */
export function serveCommands(
  run: (command: { id: number; do: string } & Record<string, unknown>) => Promise<unknown>,
) {
  return (line: string): void => {
    const command = JSON.parse(line) as { id: number; do: string } & Record<string, unknown>;
    void run(command).then(
      (result) => {
        process.stdout.write(`${JSON.stringify({ id: command.id, result: result ?? null })}\n`);
        if (command.do === 'stop') process.exit(0);
      },
      (error: unknown) => process.stdout.write(`${JSON.stringify({ id: command.id, error: String(error) })}\n`),
    );
  };
}
