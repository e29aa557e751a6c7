/**
 * Plural forms by CLDR, for every language: a plural message lists the forms of the
 * categories its language has, in the fixed order zero, one, two, few, many, other. English
 * has two (one | other); Arabic all six. vue-i18n's built-in rule knows only the English
 * pattern, so each shipped language gets this rule.
 */
const CATEGORY_ORDER: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The categories a language's plural messages must list, in order. */
export function pluralCategories(language: string): Intl.LDMLPluralRule[] {
  const used = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  return CATEGORY_ORDER.filter((category) => used.includes(category));
}

/** The vue-i18n rule for a language: the index of the form for `choice`. */
export function pluralRuleFor(language: string): (choice: number, choicesLength: number) => number {
  const rules = new Intl.PluralRules(language);
  const categories = pluralCategories(language);
  return (choice, choicesLength) => {
    const index = categories.indexOf(rules.select(Math.abs(choice)));
    // A message with fewer forms than the language has (the catalogue check forbids it) still shows one.
    return Math.max(0, Math.min(index, choicesLength - 1));
  };
}
