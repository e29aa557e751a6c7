/**
 * npm run sandbox -- [--port 4010] [--key demo-key] [--bakery-key KEY] [--data FILE] [--customers N] [--seed N]
 *                    [--dialect spec|laravel]
 */
import { parseArgs } from 'node:util';
import { DIALECTS, isDialect, type Dialect } from './dialect';
import { startSandbox } from './index';

const USAGE =
  'npm run sandbox -- [--port 4010] [--key demo-key] [--bakery-key KEY] [--data FILE] [--customers N] [--seed N] ' +
  `[--dialect ${DIALECTS.join('|')}]`;

function readArgs() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        key: { type: 'string', default: 'demo-key' },
        'bakery-key': { type: 'string' },
        data: { type: 'string' },
        customers: { type: 'string' },
        seed: { type: 'string' },
        dialect: { type: 'string', default: 'spec' },
      },
    });
  } catch (error) {
    // A mistyped option gets one clear line and the usage, not a stack trace.
    console.error(`${(error as Error).message}\nUsage: ${USAGE}`);
    process.exit(2);
  }
}

const { values } = readArgs();

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    console.error(`--${name} takes a whole number, not "${value}".`);
    process.exit(2);
  }
  return Number(value);
}

function dialectOf(value: string): Dialect {
  if (!isDialect(value)) {
    console.error(`--dialect takes ${DIALECTS.join(' or ')}, not "${value}".`);
    process.exit(2);
  }
  return value;
}

const keys: Record<string, string> = { [values.key]: 'coffee-club' };
if (values['bakery-key']) keys[values['bakery-key']] = 'bakery';

try {
  const sandbox = await startSandbox({
    port: wholeNumber('port', values.port),
    keys,
    dataFile: values.data,
    customers: wholeNumber('customers', values.customers),
    seed: wholeNumber('seed', values.seed),
    dialect: dialectOf(values.dialect),
  });
  console.log(`Loyalty sandbox listening on ${sandbox.url}`);
  if (values.dialect !== 'spec') console.log(`  answers in the ${values.dialect} dialect`);
  for (const { key, programme } of sandbox.keys) console.log(`  accepts key "${key}" (earns on ${programme})`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`The sandbox could not start: ${(error as Error).message}`);
  process.exit(1);
}
