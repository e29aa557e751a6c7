// Which code signing and notarisation a build will do, read from the environment.
//
// electron-builder itself reads the certificate variables (CSC_LINK, WIN_CSC_LINK, ...);
// this module decides the settings it cannot infer (whether to notarise, whether to
// look for a macOS identity at all) and says in one line what the build will do.
// Secrets are only ever tested for presence: no value is copied, logged or returned.

export type Env = Readonly<Record<string, string | undefined>>;

export type NotarizeMethod = 'api-key' | 'apple-id' | 'keychain-profile';

export interface SigningPlan {
  /** The variable that supplies the Windows certificate, or null when the build is unsigned. */
  windows: 'WIN_CSC_LINK' | 'CSC_LINK' | null;
  /** The variable that supplies the macOS identity, or null when the build is unsigned. */
  mac: 'CSC_LINK' | 'CSC_NAME' | null;
  /** How the macOS build is notarised, or null when it is not. */
  notarize: NotarizeMethod | null;
}

/** A half-configured signing setup: building would silently ship something other than intended. */
export class SigningConfigError extends Error {
  override name = 'SigningConfigError';
}

// The credential sets @electron/notarize accepts, in electron-builder's order of preference.
const NOTARIZE_METHODS: ReadonlyArray<{ method: NotarizeMethod; vars: readonly string[] }> = [
  { method: 'api-key', vars: ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'] },
  { method: 'apple-id', vars: ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'] },
  { method: 'keychain-profile', vars: ['APPLE_KEYCHAIN', 'APPLE_KEYCHAIN_PROFILE'] },
];

const isSet = (env: Env, name: string) => (env[name] ?? '').trim() !== '';

export function readSigningPlan(env: Env): SigningPlan {
  const windows = isSet(env, 'WIN_CSC_LINK') ? 'WIN_CSC_LINK' : isSet(env, 'CSC_LINK') ? 'CSC_LINK' : null;
  const mac = isSet(env, 'CSC_LINK') ? 'CSC_LINK' : isSet(env, 'CSC_NAME') ? 'CSC_NAME' : null;

  let notarize: NotarizeMethod | null = null;
  for (const { method, vars } of NOTARIZE_METHODS) {
    const present = vars.filter((name) => isSet(env, name));
    if (present.length === 0) continue;
    if (present.length < vars.length) {
      const missing = vars.filter((name) => !isSet(env, name));
      throw new SigningConfigError(
        `Notarisation is half configured: ${present.join(', ')} set but ${missing.join(', ')} missing.`,
      );
    }
    notarize ??= method;
  }
  if (notarize && !mac) {
    throw new SigningConfigError(
      'Notarisation credentials are set but no macOS signing identity (CSC_LINK or CSC_NAME): Apple notarises only signed apps.',
    );
  }
  return { windows, mac, notarize };
}

/** One line for the build log: what this build will sign and notarise. */
export function describeSigning(plan: SigningPlan, platform: 'win' | 'mac'): string {
  if (platform === 'win') {
    return plan.windows
      ? `Signing: Windows installer and executables signed with the certificate from ${plan.windows}.`
      : 'Signing: none, building an unsigned Windows installer (set WIN_CSC_LINK or CSC_LINK to sign).';
  }
  if (!plan.mac) {
    return 'Signing: none, building an unsigned, un-notarised macOS app (set CSC_LINK or CSC_NAME to sign).';
  }
  const notarised = plan.notarize
    ? `notarised with the ${plan.notarize} credentials`
    : 'not notarised (set APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER to notarise)';
  return `Signing: macOS app signed with the identity from ${plan.mac}, ${notarised}.`;
}
