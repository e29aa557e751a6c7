/**
 * The operating system's preferred languages, as the renderer receives them: canonical
 * BCP 47 tags, most preferred first. What the OS reports is not trusted blindly (some
 * platforms answer `C`, `POSIX` or an empty string), so anything that is not a valid tag
 * is dropped rather than passed on.
 */
const MAX_LANGUAGES = 10;

export function systemLanguageTags(reported: readonly string[]): string[] {
  const tags: string[] = [];
  for (const raw of reported) {
    // Linux locales arrive as `ar_SA.UTF-8`: the part before the dot, with a hyphen.
    const candidate = raw.split('.')[0]!.replace(/_/g, '-').trim();
    if (!candidate) continue;
    try {
      const [tag] = Intl.getCanonicalLocales(candidate);
      if (tag && !tags.includes(tag)) tags.push(tag);
    } catch {
      // Not a language tag: skip it.
    }
    if (tags.length === MAX_LANGUAGES) break;
  }
  return tags;
}
