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
  category: 'settings' | 'updates' | 'manager';
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
  manager: { en: 'Manager', ar: 'المدير' },
};

const SETTINGS = `${POLICY_KEY}\\settings`;
const UPDATES = `${POLICY_KEY}\\updates`;

/** Every policy the templates offer; `defaults` (not locked) are for policy.json and profiles only. */
export const TEMPLATE_POLICIES: readonly TemplatePolicy[] = [
  {
    name: 'settings.baseUrl',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Loyalty service address', ar: 'عنوان خدمة الولاء' },
    explain: {
      en: 'The address of the loyalty service, https:// (plain http only for 127.0.0.1 or localhost). Set and locked on the till.',
      ar: 'عنوان خدمة الولاء، يبدأ بـ https:// (يُسمح بـ http فقط لـ 127.0.0.1 أو localhost). يُضبط ويُقفل على نقطة البيع.',
    },
    elements: [{ kind: 'text', valueName: 'baseUrl', maxLength: 2048, label: { en: 'Address', ar: 'العنوان' } }],
  },
  {
    name: 'settings.branchId',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Branch', ar: 'الفرع' },
    explain: {
      en: 'The branch id (a UUID from the loyalty service) sent with every redemption.',
      ar: 'معرّف الفرع (UUID من خدمة الولاء) الذي يُرسل مع كل استبدال.',
    },
    elements: [{ kind: 'text', valueName: 'branchId', maxLength: 36, label: { en: 'Branch id', ar: 'معرّف الفرع' } }],
  },
  {
    name: 'settings.tillName',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Till name', ar: 'اسم نقطة البيع' },
    explain: {
      en: 'The name of the till, up to 60 characters. {computerName} is replaced by the computer name, for example "Till {computerName}". Use plain ASCII here; put names in other scripts in policy.json.',
      ar: 'اسم نقطة البيع، حتى ٦٠ حرفًا. يُستبدل {computerName} باسم الحاسوب، مثل "Till {computerName}". استخدم هنا أحرف ASCII فقط؛ وضع الأسماء بخطوط أخرى في policy.json.',
    },
    elements: [{ kind: 'text', valueName: 'tillName', maxLength: 60, label: { en: 'Name', ar: 'الاسم' } }],
  },
  {
    name: 'settings.defaultCountry',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Default country', ar: 'البلد الافتراضي' },
    explain: {
      en: 'The two-letter country code used to read local phone numbers, such as SA or AE.',
      ar: 'رمز البلد المكوّن من حرفين لقراءة أرقام الهواتف المحلية، مثل SA أو AE.',
    },
    elements: [{ kind: 'text', valueName: 'defaultCountry', maxLength: 2, label: { en: 'Country', ar: 'البلد' } }],
  },
  {
    name: 'settings.language',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Interface language', ar: 'لغة الواجهة' },
    explain: { en: 'The language of the till’s screens.', ar: 'لغة شاشات نقطة البيع.' },
    elements: [
      {
        kind: 'choice',
        valueName: 'language',
        values: INTERFACE_LANGUAGES,
        label: { en: 'Language', ar: 'اللغة' },
      },
    ],
  },
  {
    name: 'settings.arabicDigits',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Digits in Arabic', ar: 'الأرقام في العربية' },
    explain: {
      en: 'Arabic-Indic (arab) or Latin (latn) digits while the interface is in Arabic.',
      ar: 'أرقام هندية (arab) أو لاتينية (latn) حين تكون الواجهة بالعربية.',
    },
    elements: [
      { kind: 'choice', valueName: 'arabicDigits', values: ARABIC_DIGITS, label: { en: 'Digits', ar: 'الأرقام' } },
    ],
  },
  {
    name: 'settings.theme',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Screen colours', ar: 'ألوان الشاشة' },
    explain: {
      en: 'Follow the computer (system), light or dark.',
      ar: 'اتباع الحاسوب (system) أو فاتح (light) أو داكن (dark).',
    },
    elements: [{ kind: 'choice', valueName: 'theme', values: THEMES, label: { en: 'Colours', ar: 'الألوان' } }],
  },
  {
    name: 'settings.allowOfflineRedemption',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Redeem while offline', ar: 'الاستبدال دون اتصال' },
    explain: {
      en: 'Enabled: a redemption made while the service cannot be reached is queued. Disabled: it is refused.',
      ar: 'مفعّل: يُضاف الاستبدال الذي يتم أثناء تعذّر الوصول إلى الخدمة إلى قائمة الانتظار. معطّل: يُرفض.',
    },
    yesNo: { valueName: 'allowOfflineRedemption' },
  },
  {
    name: 'settings.posCallbackUrl',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'POS callback address', ar: 'عنوان رد نظام نقاط البيع' },
    explain: {
      en: 'Where the outcome of a redemption a POS link prepared is sent: https://, or http:// for this computer only.',
      ar: 'المكان الذي تُرسل إليه نتيجة استبدال جهّزه رابط من نظام نقاط البيع: https://، أو http:// لهذا الحاسوب فقط.',
    },
    elements: [{ kind: 'text', valueName: 'posCallbackUrl', maxLength: 2048, label: { en: 'Address', ar: 'العنوان' } }],
  },
  {
    name: 'settings.cacheRefresh',
    category: 'settings',
    key: `${SETTINGS}\\cacheRefresh`,
    title: { en: 'Offline cache refresh', ar: 'تحديث النسخة دون اتصال' },
    explain: {
      en: 'How often the offline cache is refreshed in full (hours), and the local hours of the window it happens in.',
      ar: 'عدد الساعات بين كل تحديث كامل للنسخة دون اتصال، والساعات المحلية للنافذة التي يتم فيها.',
    },
    elements: [
      {
        kind: 'number',
        valueName: 'everyHours',
        min: 1,
        max: 168,
        label: { en: 'Every (hours)', ar: 'كل (ساعات)' },
      },
      {
        kind: 'number',
        valueName: 'windowFromHour',
        min: 0,
        max: 23,
        label: { en: 'From hour', ar: 'من الساعة' },
      },
      { kind: 'number', valueName: 'windowToHour', min: 0, max: 23, label: { en: 'To hour', ar: 'إلى الساعة' } },
    ],
  },
  {
    name: 'settings.shopLedger',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Shop ledger', ar: 'سجل المتجر' },
    explain: {
      en: 'Enabled: the till keeps the shop ledger of offline claims with the other tills of its shop.',
      ar: 'مفعّل: تحتفظ نقطة البيع بسجل المتجر للمطالبات دون اتصال مع نقاط البيع الأخرى في متجرها.',
    },
    yesNo: { valueName: 'shopLedger' },
  },
  {
    name: 'settings.shopPeers',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Tills of the shop', ar: 'نقاط بيع المتجر' },
    explain: {
      en: 'Tills to ask directly, one host:port a line, at most 16.',
      ar: 'نقاط البيع التي تُسأل مباشرة، عنوان host:port في كل سطر، ١٦ على الأكثر.',
    },
    elements: [{ kind: 'list', valueName: 'shopPeers', label: { en: 'Tills', ar: 'نقاط البيع' } }],
  },
  {
    name: 'settings.shopLedgerPort',
    category: 'settings',
    key: SETTINGS,
    title: { en: 'Shop ledger port', ar: 'منفذ سجل المتجر' },
    explain: { en: 'The TCP port the shop ledger listens on.', ar: 'منفذ TCP الذي يستمع عليه سجل المتجر.' },
    elements: [
      {
        kind: 'number',
        valueName: 'shopLedgerPort',
        min: 1024,
        max: 65535,
        label: { en: 'Port', ar: 'المنفذ' },
      },
    ],
  },
  {
    name: 'updates.enabled',
    category: 'updates',
    key: UPDATES,
    title: { en: 'Updates', ar: 'التحديثات' },
    explain: {
      en: 'Disabled: the till never checks for, downloads or installs an update.',
      ar: 'معطّل: لا تبحث نقطة البيع عن تحديث ولا تنزّله ولا تثبّته أبدًا.',
    },
    yesNo: { valueName: 'enabled' },
  },
  {
    name: 'updates.feedUrl',
    category: 'updates',
    key: UPDATES,
    title: { en: 'Update feed', ar: 'مصدر التحديثات' },
    explain: {
      en: 'The https:// folder holding latest.yml, instead of the one the build names.',
      ar: 'مجلد https:// الذي يحتوي latest.yml، بدلًا من المجلد الذي يحدده الإصدار.',
    },
    elements: [{ kind: 'text', valueName: 'feedUrl', maxLength: 2048, label: { en: 'Address', ar: 'العنوان' } }],
  },
  {
    name: 'updates.channel',
    category: 'updates',
    key: UPDATES,
    title: { en: 'Update channel', ar: 'قناة التحديث' },
    explain: {
      en: 'The feed file read: <channel>.yml (latest by default).',
      ar: 'ملف المصدر المقروء: <channel>.yml (latest افتراضيًا).',
    },
    elements: [{ kind: 'text', valueName: 'channel', maxLength: 32, label: { en: 'Channel', ar: 'القناة' } }],
  },
  {
    name: 'updates.pinVersion',
    category: 'updates',
    key: UPDATES,
    title: { en: 'Pinned version', ar: 'الإصدار المثبّت' },
    explain: {
      en: 'Install this version (such as 1.4.2) and no other; never anything older than what is installed.',
      ar: 'ثبّت هذا الإصدار (مثل 1.4.2) دون غيره؛ ولا شيء أقدم مما هو مثبّت أبدًا.',
    },
    elements: [{ kind: 'text', valueName: 'pinVersion', maxLength: 64, label: { en: 'Version', ar: 'الإصدار' } }],
  },
  {
    name: 'updates.installWindow',
    category: 'updates',
    key: `${UPDATES}\\installWindow`,
    title: { en: 'Install window', ar: 'نافذة التثبيت' },
    explain: {
      en: 'The local hours in which an idle till installs a downloaded update (02 to 05 by default).',
      ar: 'الساعات المحلية التي تثبّت فيها نقطة البيع غير المشغولة تحديثًا منزّلًا (من ٠٢ إلى ٠٥ افتراضيًا).',
    },
    elements: [
      { kind: 'number', valueName: 'fromHour', min: 0, max: 23, label: { en: 'From hour', ar: 'من الساعة' } },
      { kind: 'number', valueName: 'toHour', min: 0, max: 23, label: { en: 'To hour', ar: 'إلى الساعة' } },
    ],
  },
  {
    name: 'updates.checkEveryHours',
    category: 'updates',
    key: UPDATES,
    title: { en: 'Update checks', ar: 'البحث عن التحديثات' },
    explain: {
      en: 'Hours between two looks at the feed (6 by default).',
      ar: 'عدد الساعات بين كل بحثين في المصدر (٦ افتراضيًا).',
    },
    elements: [
      {
        kind: 'number',
        valueName: 'checkEveryHours',
        min: 1,
        max: 168,
        label: { en: 'Every (hours)', ar: 'كل (ساعات)' },
      },
    ],
  },
  {
    name: 'managerPinHash',
    category: 'manager',
    key: POLICY_KEY,
    title: { en: 'Manager PIN', ar: 'رمز المدير' },
    explain: {
      en: 'The manager PIN as a PHC scrypt hash ($scrypt$ln=…,r=…,p=…$salt$hash). Never the PIN itself.',
      ar: 'رمز المدير على هيئة بصمة scrypt بصيغة PHC ($scrypt$ln=…,r=…,p=…$salt$hash). وليس الرمز نفسه أبدًا.',
    },
    elements: [{ kind: 'text', valueName: 'managerPinHash', maxLength: 300, label: { en: 'Hash', ar: 'البصمة' } }],
  },
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
    ...(['settings', 'updates', 'manager'] as const).map(
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
