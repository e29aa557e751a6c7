/**
 * Semantic versions compared as semver.org orders them (1.2.3 < 1.10.0; 2.0.0-beta.2 <
 * 2.0.0-beta.10 < 2.0.0; build metadata ignored). Small enough to keep here rather than
 * import a library for one comparison; null for anything that is not a version, so a
 * garbled feed is never read as newer.
 */
const VERSION =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

interface Version {
  core: [number, number, number];
  pre: string[];
}

export function parseVersion(text: string): Version | null {
  const match = VERSION.exec(text.trim());
  if (!match) return null;
  const [, major = '', minor = '', patch = '', pre] = match;
  return { core: [Number(major), Number(minor), Number(patch)], pre: pre ? pre.split('.') : [] };
}

/** Negative when `a` is older than `b`, 0 when the same, positive when newer; null when either is not a version. */
export function compareVersions(a: string, b: string): number | null {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) return null;
  for (let i = 0; i < 3; i++) {
    const diff = left.core[i]! - right.core[i]!;
    if (diff !== 0) return Math.sign(diff);
  }
  // A pre-release is older than its release.
  if (left.pre.length === 0 || right.pre.length === 0) return Math.sign(right.pre.length - left.pre.length);
  for (let i = 0; i < Math.max(left.pre.length, right.pre.length); i++) {
    const x = left.pre[i];
    const y = right.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const xNumeric = /^\d+$/.test(x);
    const yNumeric = /^\d+$/.test(y);
    if (xNumeric && yNumeric) return Math.sign(Number(x) - Number(y));
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
