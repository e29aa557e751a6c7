// The Group Policy templates (ADMX, with an ADML per language) for the registry key the till
// reads its policy from (electron/policy/windows-registry.ts, docs/operations.md#2-the-policy).
// Generated from the table below by `npm run policy-templates` into build/policy-templates/;
// test/build/policy-templates.test.ts fails when the committed files are stale or a key the
// policy schema knows has no template.
import { ARABIC_DIGITS, INTERFACE_LANGUAGES, THEMES } from '../common/settings-choices';

export const POLICY_KEY = 'Software\\Policies\\Loyalty Till';
export const TEMPLATE_NAME = 'loyalty-till';
/** The languages of the ADML files, as Windows names their folders. */
export const ADML_LANGUAGES = { en: 'en-US', ar: 'ar-SA' } as const;
type Language = keyof typeof ADML_LANGUAGES;
type Words = Record<Language, string>;

type Element =
  | { kind: 'text'; valueName: string; key?: string; maxLength?: number }
  | { kind: 'number'; valueName: string; key?: string; min: number; max: number }
  | { kind: 'list'; valueName: string; key?: string }
  | { kind: 'choice'; valueName: string; key?: string; values: readonly string[] };

export interface TemplatePolicy {
  /** The policy's name: the JSON key it sets (`settings.baseUrl` …). */
  name: string;
  category: 'settings' | 'updates' | 'health' | 'manager';
  /** The subkey under the policy key that the values go in. */
  key: string;
  title: Words;
  explain: Words;
  /** A yes/no policy has no element: enabled writes 1, disabled 0, to `valueName`. */
  yesNo?: { valueName: string };
  elements?: Array<Element & { label: Words }>;
}

const CATEGORIES: Record<TemplatePolicy['category'] | 'root', Words> = {
  root: { en: 'Loyalty Till', ar: 'نقطة بيع الولاء' },
  settings: { en: 'Settings (set and locked)', ar: 'الإعدادات (مضبوطة ومقفلة)' },
  updates: { en: 'Updates', ar: 'التحديثات' },
  health: { en: 'Health check', ar: 'فحص الحالة' },
  manager: { en: 'Manager', ar: 'المدير' },
};

/** The subkey each category's values go in; an object-valued policy adds its own below it. */
const KEYS: Record<TemplatePolicy['category'], string> = {
  settings: `${POLICY_KEY}\\settings`,
  updates: `${POLICY_KEY}\\updates`,
  health: `${POLICY_KEY}\\health`,
  manager: POLICY_KEY,
};

const w = (en: string, ar: string): Words => ({ en, ar });
type Labelled = Element & { label: Words };
const text = (valueName: string, maxLength: number, label: Words): Labelled => ({
  kind: 'text',
  valueName,
  maxLength,
  label,
});
const number = (valueName: string, min: number, max: number, label: Words): Labelled => ({
  kind: 'number',
  valueName,
  min,
  max,
  label,
});
const list = (valueName: string, label: Words): Labelled => ({ kind: 'list', valueName, label });
const choice = (valueName: string, values: readonly string[], label: Words): Labelled => ({
  kind: 'choice',
  valueName,
  values,
  label,
});
const FROM_HOUR = w('From hour', 'من الساعة');
const TO_HOUR = w('To hour', 'إلى الساعة');
const EVERY_HOURS = w('Every (hours)', 'كل (ساعات)');
const ADDRESS = w('Address', 'العنوان');

/**
 * One row of the table: the JSON key the policy sets (its category is the part before the
 * dot; `managerPinHash` is the manager's), its title and explanation, and either `yes/no`
 * (enabled writes 1, disabled 0, to the key's last part) or its elements. An object-valued
 * policy (`object`) keeps its elements in a subkey of its own name.
 */
function row(name: string, title: Words, explain: Words, value: 'yes/no' | Labelled[], object = false): TemplatePolicy {
  const [first, last = first] = name.split('.') as [string, string?];
  const category = first === 'settings' || first === 'updates' || first === 'health' ? first : 'manager';
  const key = object ? `${KEYS[category]}\\${last}` : KEYS[category];
  const shape = value === 'yes/no' ? { yesNo: { valueName: last } } : { elements: value };
  return { name, category, key, title, explain, ...shape };
}

/** Every policy the templates offer; `defaults` (not locked) are for policy.json and profiles only. */
export const TEMPLATE_POLICIES: readonly TemplatePolicy[] = [
  row(
    'settings.baseUrl',
    w('Loyalty service address', 'عنوان خدمة الولاء'),
    w(
      'The address of the loyalty service, https:// (plain http only for 127.0.0.1 or localhost). Set and locked on the till.',
      'عنوان خدمة الولاء، يبدأ بـ https:// (يُسمح بـ http فقط لـ 127.0.0.1 أو localhost). يُضبط ويُقفل على نقطة البيع.',
    ),
    [text('baseUrl', 2048, ADDRESS)],
  ),
  row(
    'settings.branchId',
    w('Branch', 'الفرع'),
    w(
      'The branch id (a UUID from the loyalty service) sent with every redemption.',
      'معرّف الفرع (UUID من خدمة الولاء) الذي يُرسل مع كل استبدال.',
    ),
    [text('branchId', 36, w('Branch id', 'معرّف الفرع'))],
  ),
  row(
    'settings.tillName',
    w('Till name', 'اسم نقطة البيع'),
    w(
      'The name of the till, up to 60 characters. {computerName} is replaced by the computer name, for example "Till {computerName}". Use plain ASCII here; put names in other scripts in policy.json.',
      'اسم نقطة البيع، حتى ٦٠ حرفًا. يُستبدل {computerName} باسم الحاسوب، مثل "Till {computerName}". استخدم هنا أحرف ASCII فقط؛ وضع الأسماء بخطوط أخرى في policy.json.',
    ),
    [text('tillName', 60, w('Name', 'الاسم'))],
  ),
  row(
    'settings.defaultCountry',
    w('Default country', 'البلد الافتراضي'),
    w(
      'The two-letter country code used to read local phone numbers, such as SA or AE.',
      'رمز البلد المكوّن من حرفين لقراءة أرقام الهواتف المحلية، مثل SA أو AE.',
    ),
    [text('defaultCountry', 2, w('Country', 'البلد'))],
  ),
  row(
    'settings.language',
    w('Interface language', 'لغة الواجهة'),
    w('The language of the till’s screens.', 'لغة شاشات نقطة البيع.'),
    [choice('language', INTERFACE_LANGUAGES, w('Language', 'اللغة'))],
  ),
  row(
    'settings.arabicDigits',
    w('Digits in Arabic', 'الأرقام في العربية'),
    w(
      'Arabic-Indic (arab) or Latin (latn) digits while the interface is in Arabic.',
      'أرقام هندية (arab) أو لاتينية (latn) حين تكون الواجهة بالعربية.',
    ),
    [choice('arabicDigits', ARABIC_DIGITS, w('Digits', 'الأرقام'))],
  ),
  row(
    'settings.theme',
    w('Screen colours', 'ألوان الشاشة'),
    w('Follow the computer (system), light or dark.', 'اتباع الحاسوب (system) أو فاتح (light) أو داكن (dark).'),
    [choice('theme', THEMES, w('Colours', 'الألوان'))],
  ),
  row(
    'settings.allowOfflineRedemption',
    w('Redeem while offline', 'الاستبدال دون اتصال'),
    w(
      'Enabled: a redemption made while the service cannot be reached is queued. Disabled: it is refused.',
      'مفعّل: يُضاف الاستبدال الذي يتم أثناء تعذّر الوصول إلى الخدمة إلى قائمة الانتظار. معطّل: يُرفض.',
    ),
    'yes/no',
  ),
  row(
    'settings.posCallbackUrl',
    w('POS callback address', 'عنوان رد نظام نقاط البيع'),
    w(
      'Where the outcome of a redemption a POS link prepared is sent: https://, or http:// for this computer only.',
      'المكان الذي تُرسل إليه نتيجة استبدال جهّزه رابط من نظام نقاط البيع: https://، أو http:// لهذا الحاسوب فقط.',
    ),
    [text('posCallbackUrl', 2048, ADDRESS)],
  ),
  row(
    'settings.cacheRefresh',
    w('Offline cache refresh', 'تحديث النسخة دون اتصال'),
    w(
      'How often the offline cache is refreshed in full (hours), and the local hours of the window it happens in.',
      'عدد الساعات بين كل تحديث كامل للنسخة دون اتصال، والساعات المحلية للنافذة التي يتم فيها.',
    ),
    [
      number('everyHours', 1, 168, EVERY_HOURS),
      number('windowFromHour', 0, 23, FROM_HOUR),
      number('windowToHour', 0, 23, TO_HOUR),
    ],
    true,
  ),
  row(
    'settings.shopLedger',
    w('Shop ledger', 'سجل المتجر'),
    w(
      'Enabled: the till keeps the shop ledger of offline claims with the other tills of its shop.',
      'مفعّل: تحتفظ نقطة البيع بسجل المتجر للمطالبات دون اتصال مع نقاط البيع الأخرى في متجرها.',
    ),
    'yes/no',
  ),
  row(
    'settings.shopRedeemWhenSplit',
    w('Redeem offline while a till can’t be reached', 'الاستبدال دون اتصال حين يتعذّر الوصول إلى نقطة بيع'),
    w(
      'Enabled: while a till of the shop cannot be reached, a reward may still be redeemed offline, with the risk said.',
      'مفعّل: حين يتعذّر الوصول إلى نقطة بيع في المتجر، يظل الاستبدال دون اتصال ممكنًا مع بيان الخطر.',
    ),
    'yes/no',
  ),
  row(
    'settings.shopPeers',
    w('Tills of the shop', 'نقاط بيع المتجر'),
    w(
      'Tills to ask directly, one host:port a line, at most 16.',
      'نقاط البيع التي تُسأل مباشرة، عنوان host:port في كل سطر، ١٦ على الأكثر.',
    ),
    [list('shopPeers', w('Tills', 'نقاط البيع'))],
  ),
  row(
    'settings.shopLedgerPort',
    w('Shop ledger port', 'منفذ سجل المتجر'),
    w('The TCP port the shop ledger listens on.', 'منفذ TCP الذي يستمع عليه سجل المتجر.'),
    [number('shopLedgerPort', 1024, 65535, w('Port', 'المنفذ'))],
  ),
  row(
    'settings.journalPersonalDays',
    w('Customers’ details in the journal', 'تفاصيل العملاء في السجل'),
    w(
      'Days the journal keeps a customer’s name, phone and reward code (1 to 3650); after them it keeps counts only.',
      'عدد الأيام التي يحتفظ فيها السجل باسم العميل وهاتفه ورمز المكافأة (من ١ إلى ٣٦٥٠)؛ بعدها يحتفظ بالأعداد فقط.',
    ),
    [number('journalPersonalDays', 1, 3650, w('Days', 'الأيام'))],
  ),
  row(
    'updates.enabled',
    w('Updates', 'التحديثات'),
    w(
      'Disabled: the till never checks for, downloads or installs an update.',
      'معطّل: لا تبحث نقطة البيع عن تحديث ولا تنزّله ولا تثبّته أبدًا.',
    ),
    'yes/no',
  ),
  row(
    'updates.feedUrl',
    w('Update feed', 'مصدر التحديثات'),
    w(
      'The https:// folder holding latest.yml, instead of the one the build names.',
      'مجلد https:// الذي يحتوي latest.yml، بدلًا من المجلد الذي يحدده الإصدار.',
    ),
    [text('feedUrl', 2048, ADDRESS)],
  ),
  row(
    'updates.channel',
    w('Update channel', 'قناة التحديث'),
    w('The feed file read: <channel>.yml (latest by default).', 'ملف المصدر المقروء: <channel>.yml (latest افتراضيًا).'),
    [text('channel', 32, w('Channel', 'القناة'))],
  ),
  row(
    'updates.pinVersion',
    w('Pinned version', 'الإصدار المثبّت'),
    w(
      'Install this version (such as 1.4.2) and no other; never anything older than what is installed.',
      'ثبّت هذا الإصدار (مثل 1.4.2) دون غيره؛ ولا شيء أقدم مما هو مثبّت أبدًا.',
    ),
    [text('pinVersion', 64, w('Version', 'الإصدار'))],
  ),
  row(
    'updates.installWindow',
    w('Install window', 'نافذة التثبيت'),
    w(
      'The local hours in which an idle till installs a downloaded update (02 to 05 by default).',
      'الساعات المحلية التي تثبّت فيها نقطة البيع غير المشغولة تحديثًا منزّلًا (من ٠٢ إلى ٠٥ افتراضيًا).',
    ),
    [number('fromHour', 0, 23, FROM_HOUR), number('toHour', 0, 23, TO_HOUR)],
    true,
  ),
  row(
    'updates.checkEveryHours',
    w('Update checks', 'البحث عن التحديثات'),
    w('Hours between two looks at the feed (6 by default).', 'عدد الساعات بين كل بحثين في المصدر (٦ افتراضيًا).'),
    [number('checkEveryHours', 1, 168, EVERY_HOURS)],
  ),
  row(
    'health.waitingHours',
    w('Health: hours an item may wait', 'الحالة: ساعات انتظار العنصر'),
    w(
      'The health check says the till needs attention when a queued redemption or registration has waited longer than this (24 hours by default).',
      'يفيد فحص الحالة بأن نقطة البيع تحتاج إلى متابعة حين ينتظر استبدال أو تسجيل في قائمة الانتظار أطول من هذا (٢٤ ساعة افتراضيًا).',
    ),
    [number('waitingHours', 1, 720, w('Hours', 'الساعات'))],
  ),
  row(
    'health.unacknowledgedHours',
    w('Health: hours a failure may go unacknowledged', 'الحالة: ساعات بقاء الإخفاق دون إقرار'),
    w(
      'The health check says the till needs attention when a failed or conflicting item has not been acknowledged after this many hours (0, the default: at once).',
      'يفيد فحص الحالة بأن نقطة البيع تحتاج إلى متابعة حين لا يُقَرّ بعنصر فاشل أو متعارض بعد هذا العدد من الساعات (٠ افتراضيًا: فورًا).',
    ),
    [number('unacknowledgedHours', 0, 720, w('Hours', 'الساعات'))],
  ),
  row(
    'health.refreshDays',
    w('Health: days without a cache refresh', 'الحالة: أيام دون تحديث النسخة'),
    w(
      'The health check says the till needs attention when the offline cache has not been refreshed in full for this many days (7 by default).',
      'يفيد فحص الحالة بأن نقطة البيع تحتاج إلى متابعة حين لا تُحدَّث النسخة دون اتصال تحديثًا كاملًا طوال هذا العدد من الأيام (٧ افتراضيًا).',
    ),
    [number('refreshDays', 1, 90, w('Days', 'الأيام'))],
  ),
  row(
    'health.offlineHours',
    w('Health: hours without the service', 'الحالة: ساعات دون الخدمة'),
    w(
      'The health check says the till needs attention when the loyalty service has been unreachable for this many hours (24 by default).',
      'يفيد فحص الحالة بأن نقطة البيع تحتاج إلى متابعة حين يتعذّر الوصول إلى خدمة الولاء طوال هذا العدد من الساعات (٢٤ افتراضيًا).',
    ),
    [number('offlineHours', 1, 720, w('Hours', 'الساعات'))],
  ),
  row(
    'managerPinHash',
    w('Manager PIN', 'رمز المدير'),
    w(
      'The manager PIN as a PHC scrypt hash ($scrypt$ln=…,r=…,p=…$salt$hash). Never the PIN itself.',
      'رمز المدير على هيئة بصمة scrypt بصيغة PHC ($scrypt$ln=…,r=…,p=…$salt$hash). وليس الرمز نفسه أبدًا.',
    ),
    [text('managerPinHash', 300, w('Hash', 'البصمة'))],
  ),
];

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** An ADMX id: letters, digits and underscores. */
const id = (name: string) => name.replace(/[^A-Za-z0-9]/g, '_');

function admxElement(element: Element, policy: TemplatePolicy): string {
  const key = element.key ?? policy.key;
  const common = `id="${id(element.valueName)}" key="${escape(key)}" valueName="${element.valueName}"`;
  switch (element.kind) {
    case 'text':
      return `<text ${common} required="true"${element.maxLength ? ` maxLength="${element.maxLength}"` : ''} />`;
    case 'number':
      return `<decimal ${common} required="true" minValue="${element.min}" maxValue="${element.max}" />`;
    case 'list':
      return `<multiText ${common} />`;
    case 'choice':
      return [
        `<enum ${common} required="true">`,
        ...element.values.map(
          (value) =>
            `            <item displayName="$(string.${id(policy.name)}_${id(value)})"><value><string>${value}</string></value></item>`,
        ),
        '          </enum>',
      ].join('\n');
  }
}

/** The ADMX: one policy per table row, each also writing `schemaVersion` 1 at the policy key. */
export function renderAdmx(): string {
  const policies = TEMPLATE_POLICIES.map((policy) => {
    const name = id(policy.name);
    const head = `    <policy name="${name}" class="Machine" displayName="$(string.${name})" explainText="$(string.${name}_Explain)" key="${escape(policy.key)}"${policy.yesNo ? ` valueName="${policy.yesNo.valueName}"` : ` presentation="$(presentation.${name})"`}>`;
    const body = [
      `      <parentCategory ref="${policy.category}" />`,
      '      <supportedOn ref="SUPPORTED_LoyaltyTill_0_1" />',
      ...(policy.yesNo
        ? [
            '      <enabledValue><decimal value="1" /></enabledValue>',
            '      <disabledValue><decimal value="0" /></disabledValue>',
          ]
        : []),
      '      <enabledList>',
      `        <item key="${escape(POLICY_KEY)}" valueName="schemaVersion"><value><decimal value="1" /></value></item>`,
      '      </enabledList>',
      ...(policy.elements
        ? [
            '      <elements>',
            ...policy.elements.map((element) => `        ${admxElement(element, policy)}`),
            '      </elements>',
          ]
        : []),
      '    </policy>',
    ];
    return [head, ...body].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!-- Generated by build/make-policy-templates.ts from build/policy-templates.ts: edit the table, not this file. -->',
    '<policyDefinitions xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0" schemaVersion="1.0" xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">',
    '  <policyNamespaces>',
    '    <target prefix="loyaltytill" namespace="LoyaltyTill.Policies" />',
    '  </policyNamespaces>',
    '  <resources minRequiredRevision="1.0" />',
    '  <supportedOn>',
    '    <definitions>',
    '      <definition name="SUPPORTED_LoyaltyTill_0_1" displayName="$(string.SUPPORTED_LoyaltyTill_0_1)" />',
    '    </definitions>',
    '  </supportedOn>',
    '  <categories>',
    '    <category name="root" displayName="$(string.Category_root)" />',
    ...(['settings', 'updates', 'health', 'manager'] as const).map(
      (category) =>
        `    <category name="${category}" displayName="$(string.Category_${category})"><parentCategory ref="root" /></category>`,
    ),
    '  </categories>',
    '  <policies>',
    ...policies,
    '  </policies>',
    '</policyDefinitions>',
    '',
  ].join('\n');
}

const SUPPORTED: Words = { en: 'Loyalty Till 0.1 and later', ar: 'نقطة بيع الولاء 0.1 وما بعده' };

/** The ADML of one language: every string and presentation the ADMX names. */
export function renderAdml(language: Language): string {
  const strings: Array<[string, string]> = [
    ['SUPPORTED_LoyaltyTill_0_1', SUPPORTED[language]],
    ...Object.entries(CATEGORIES).map(([name, words]): [string, string] => [`Category_${name}`, words[language]]),
  ];
  const presentations: string[] = [];
  for (const policy of TEMPLATE_POLICIES) {
    const name = id(policy.name);
    strings.push([name, policy.title[language]], [`${name}_Explain`, policy.explain[language]]);
    if (!policy.elements) continue;
    const controls = policy.elements.map((element) => {
      const label = escape(element.label[language]);
      const ref = id(element.valueName);
      if (element.kind === 'choice') {
        for (const value of element.values) strings.push([`${name}_${id(value)}`, value]);
        return `        <dropdownList refId="${ref}">${label}</dropdownList>`;
      }
      if (element.kind === 'number') return `        <decimalTextBox refId="${ref}">${label}</decimalTextBox>`;
      if (element.kind === 'list') return `        <multiTextBox refId="${ref}">${label}</multiTextBox>`;
      return `        <textBox refId="${ref}"><label>${label}</label></textBox>`;
    });
    presentations.push(`      <presentation id="${name}">`, ...controls, '      </presentation>');
  }
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!-- Generated by build/make-policy-templates.ts from build/policy-templates.ts: edit the table, not this file. -->',
    '<policyDefinitionResources xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0" schemaVersion="1.0" xmlns="http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions">',
    `  <displayName>${escape(CATEGORIES.root[language])}</displayName>`,
    `  <description>${escape(CATEGORIES.root[language])}</description>`,
    '  <resources>',
    '    <stringTable>',
    ...strings.map(([name, text]) => `      <string id="${name}">${escape(text)}</string>`),
    '    </stringTable>',
    '    <presentationTable>',
    ...presentations,
    '    </presentationTable>',
    '  </resources>',
    '</policyDefinitionResources>',
    '',
  ].join('\n');
}

/** The files, by path under build/policy-templates/. */
export function renderPolicyTemplates(): Record<string, string> {
  return {
    [`${TEMPLATE_NAME}.admx`]: renderAdmx(),
    ...Object.fromEntries(
      (Object.entries(ADML_LANGUAGES) as Array<[Language, string]>).map(([language, folder]) => [
        `${folder}/${TEMPLATE_NAME}.adml`,
        renderAdml(language),
      ]),
    ),
  };
}
