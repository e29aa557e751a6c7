import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, test } from 'vitest';
import { kindOf, startCpuSampler } from '../bench/cpu-sampler';

describe("the bench's processor sampler", () => {
  test('names a process by its Chromium type, with either separator Chromium leaves in a command line', () => {
    expect(kindOf('/usr/lib/chromium/chromium --type=renderer --lang=en-US')).toBe('renderer');
    expect(kindOf('/usr/lib/chromium/chromium\0--type=gpu-process\0--no-sandbox\0')).toBe('gpu-process');
    expect(
      kindOf('/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US'),
    ).toBe('utility:network');
    expect(kindOf('/usr/lib/chromium/chromium --headless --user-data-dir=/tmp/profile')).toBe('browser');
  });

  test('without /proc it says it cannot measure (the bench then notes so)', () => {
    const sampler = startCpuSampler();
    sampler.stop();
    expect(sampler.available).toBe(process.platform === 'linux');
  });

  test.runIf(process.platform === 'linux')(
    'on Linux, counts the processor time of a process below this one under its kind',
    async () => {
      const sampler = startCpuSampler();
      const started = Date.now();
      // Half a second of its own processor time, then it says so and waits to be let go.
      const burn =
        'const u = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e6; };' +
        "while (u() < 0.5); process.stdout.write('burnt\\n'); process.stdin.resume();";
      const child = spawn(process.execPath, ['-e', burn, '--', '--type=renderer'], {
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      await once(child.stdout, 'data');
      // Stopped while the child still runs: however busy the machine kept the sampler's
      // timer, its last sample reads the child.
      sampler.stop();
      const spent = sampler.between(started, Date.now());
      child.stdin.end();
      await once(child, 'exit');
      expect(spent.get('renderer')).toBeGreaterThanOrEqual(0.45);
      expect(spent.get('renderer')).toBeLessThan(1.5);
      // This process mostly waited.
      expect(spent.get('node')).toBeLessThan(0.45);
    },
  );
});
