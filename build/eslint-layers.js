// @ts-check
/**
 * The layers as allow-lists (eslint.config.js gives the tables): every folder of `electron/`,
 * of `renderer/` and of the offline core is a room with a row naming the rooms it may import.
 * An import of a room not in the row is an error, and so is a file in a room with no row, or
 * an import of one: a new folder is refused until it is given a row, so it never starts with
 * no rules at all.
 *
 * A room is the longest key of the table that is the file's path or a folder above it (so
 * `renderer/offline/db/schema.ts` can be a room of its own inside `renderer/offline/db`).
 * Imports inside a room are free; relative imports are resolved against the importing file,
 * and only those that land in a domain the table covers (`electron/`, `renderer/`) are judged:
 * `common/`, `sandbox/` and packages are the other rules' business.
 */
import { dirname, relative, resolve, sep } from 'node:path';

/** The room of a path relative to the repository, or null when no row covers it. */
function roomOf(path, rooms) {
  let best = null;
  for (const room of rooms) {
    if ((path === room || path.startsWith(`${room}/`)) && (best === null || room.length > best.length)) best = room;
  }
  return best;
}

/**
 * The room an import lands in: a file that is a room of its own is named without its ending
 * (`./schema` for `schema.ts`), and a folder by its index (`../offline` for `offline/index.ts`).
 */
function targetRoom(target, rooms) {
  for (const candidate of [target, `${target}.ts`, `${target}.vue`, `${target}/index.ts`]) {
    if (rooms.includes(candidate)) return candidate;
  }
  return roomOf(target, rooms);
}

/** The path a relative import names, as written, without an extension guessed. */
function resolveImport(fromFile, source, cwd) {
  return relative(cwd, resolve(dirname(fromFile), source))
    .split(sep)
    .join('/');
}

/** @type {import('eslint').Rule.RuleModule} */
const allowedImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder imports only the folders its row allows (docs/code-checks.md).' },
    schema: [
      {
        type: 'object',
        properties: {
          domains: { type: 'array', items: { type: 'string' } },
          rows: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      noRow: '{{room}} has no row in the layer tables of eslint.config.js: give it one (docs/code-checks.md).',
      targetNoRow: "'{{source}}' lands in {{room}}, which has no row in the layer tables of eslint.config.js.",
      notAllowed: "{{from}} may not import {{to}} ('{{source}}'); its row allows {{allowed}} (docs/code-checks.md).",
    },
  },
  create(context) {
    const { domains, rows } = context.options[0];
    const rooms = Object.keys(rows);
    const cwd = context.cwd;
    const file = relative(cwd, context.filename).split(sep).join('/');
    const inDomain = (path) => domains.some((domain) => path.startsWith(`${domain}/`));
    if (!inDomain(file)) return {};
    const from = roomOf(file, rooms);

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.') || from === null) return;
      const target = resolveImport(context.filename, source, cwd);
      if (!inDomain(target)) return;
      const to = targetRoom(target, rooms);
      if (to === null) {
        context.report({ node, messageId: 'targetNoRow', data: { source, room: target.split('/', 2).join('/') } });
        return;
      }
      if (to === from || rows[from].includes(to)) return;
      const allowed = rows[from].length > 0 ? rows[from].join(', ') : 'nothing outside itself';
      context.report({ node, messageId: 'notAllowed', data: { from, to, source, allowed } });
    }

    return {
      Program(node) {
        if (from === null) {
          const room = file.split('/').slice(0, -1).join('/') || file;
          context.report({ node, messageId: 'noRow', data: { room } });
        }
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'allowed-imports': allowedImports } };
