// `npm run policy-templates`: writes the Group Policy templates (build/policy-templates.ts) into
// build/policy-templates/, for IT departments to copy into their PolicyDefinitions store.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPolicyTemplates } from './policy-templates';

const OUT = fileURLToPath(new URL('policy-templates', import.meta.url));

for (const [path, text] of Object.entries(renderPolicyTemplates())) {
  const file = join(OUT, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
