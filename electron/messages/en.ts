/**
 * The main process's own words, in English: the reference catalogue. Everything the main
 * process says that the cashier sees is here (field errors of settings and bridge payloads,
 * refused links, the bridge's own refusals); what the loyalty service says is passed on as
 * it said it. Keys are written out whole where they are used (`msg('…')`), so the
 * catalogue check can find them. `{name}` is a parameter.
 */
export const en = {
  // Field errors in general.
  'fields.notAccepted': 'This field is not accepted here.',
  'fields.check': 'Please check: {fields}.',
  'fields.invalidRequest': 'The request was not valid.',
  'text.controlCharacters':
    'This contains invisible control characters (such as NUL, ESC or a text-direction override). Retype it.',

  // Settings.
  'settings.serviceUrl.tooLong': 'The service URL is too long.',
  'settings.serviceUrl.notUrl': 'Enter the full service URL, such as https://loyalty.example.com.',
  'settings.serviceUrl.notHttps':
    'The service URL must start with https:// (plain http is allowed only for 127.0.0.1 or localhost).',
  'settings.serviceUrl.credentials': 'Do not put a user name or password in the service URL: set the API key instead.',
  'settings.serviceUrl.queryOrFragment': 'The service URL must not contain ? or #.',
  'settings.callbackUrl.tooLong': 'The callback URL is too long.',
  'settings.callbackUrl.notUrl': 'Enter the full callback URL, such as http://127.0.0.1:8080/loyalty.',
  'settings.callbackUrl.notHttps':
    'The callback URL must start with https:// (plain http is allowed only for 127.0.0.1 or localhost).',
  'settings.callbackUrl.credentials': 'Do not put a user name or password in the callback URL.',
  'settings.callbackUrl.fragment': 'The callback URL must not contain #.',
  'settings.country': 'Choose a two-letter country code, such as SA or GB.',
  'settings.branchId': 'The branch id must be a UUID, as issued by the loyalty service.',
  'settings.tillName.missing': 'Give the till a name.',
  'settings.tillName.tooLong': 'The till name can be at most 60 characters.',
  'settings.yesOrNo': 'Choose yes or no.',
  'settings.programId': 'The programme id must be a UUID, as the loyalty service shows it on cards.',
  'settings.theme': 'Choose system, light or dark.',
  'settings.currency': 'Choose a three-letter ISO 4217 currency code, such as SAR or EUR.',
  'settings.language': "Choose one of the till's languages: {values}.",
  'settings.arabicDigits': 'Choose Arabic-Indic (arab) or Latin (latn) digits.',
  'settings.cacheRefresh.wholeHours': 'Choose a whole number of hours.',
  'settings.cacheRefresh.atMostHourly': 'At most once an hour.',
  'settings.cacheRefresh.atLeastWeekly': 'At least once a week.',
  'settings.cacheRefresh.hour': 'Choose an hour from 0 to 23.',
  'settings.shopPeers.address': 'Name each till as host:port, such as till-2.local:47231 or 192.168.1.12:47231.',
  'settings.shopPeers.tooMany': 'Name at most 16 tills.',
  'settings.shopLedgerPort': 'Choose a port from 1024 to 65535.',
  'settings.cashiers.name': "A cashier's name is 1 to 60 characters.",
  'settings.cashiers.number': "A cashier's number is 1 to 20 letters, digits or dashes.",
  'settings.cashiers.tooMany': 'List at most 50 cashiers.',

  // The manager PIN.
  'pin.format': 'The manager PIN is 4 to 12 digits.',
  'pin.required': 'A manager must approve this: enter the manager PIN.',

  // Bridge payloads.
  'payload.customerId.uuid': 'The customer id must be a UUID.',
  'payload.branchId.uuid': 'The branch id must be a UUID.',
  'payload.phone.missing': 'Enter a phone number.',
  'payload.phone.tooLong': 'The phone number is too long.',
  'payload.phone.characters': 'A phone number may contain only digits, spaces, brackets, dots, dashes and a leading +.',
  'payload.phone.tooShort': 'The phone number is too short.',
  'payload.phone.country': 'Give the phone in international form (starting with +), or with its country calling code.',
  'payload.countryCode.digits': 'The country calling code is 1 to 4 digits, without +.',
  'payload.countryCode.needsPhone': 'A country code is only used together with a phone number.',
  'payload.rewardCode.missing': 'Enter the reward code.',
  'payload.rewardCode.tooLong': 'The reward code is too long.',
  'payload.rewardCode.shape': 'A reward code looks like RW- followed by letters and digits.',
  'payload.name.missing': 'Enter the name.',
  'payload.name.tooLong': 'The name can be at most 200 characters.',
  'payload.email.tooLong': 'The email address is too long.',
  'payload.email.invalid': 'Enter a valid email address.',
  'payload.birthday.format': 'Enter the birthday as YYYY-MM-DD.',
  'payload.birthday.future': 'The birthday cannot be in the future.',
  'payload.search.empty': 'Type something to search for.',
  'payload.search.tooLong': 'The search is too long.',
  'payload.orderReference.empty': 'The order reference is empty.',
  'payload.orderReference.tooLong': 'The order reference can be at most 100 characters.',
  'payload.page.whole': 'The page must be a whole number.',
  'payload.page.fromOne': 'Pages start at 1.',
  'payload.perPage.whole': 'Results per page must be a whole number.',
  'payload.perPage.atLeastOne': 'At least 1 per page.',
  'payload.perPage.atMost': 'At most 100 per page.',
  'payload.entityTag.tooLong': 'The entity tag is too long.',
  'payload.entityTag.invalid': 'Not an entity tag.',
  'payload.update.nothing': 'Nothing to change: give a name, email or birthday.',
  'payload.apiKey.missing': 'Enter the API key.',
  'payload.apiKey.tooShort': 'That is too short to be an API key.',
  'payload.apiKey.tooLong': 'That is too long to be an API key.',
  'payload.apiKey.characters': 'An API key has no spaces or special characters; paste it exactly as issued.',
  'payload.linkId.uuid': 'The link id must be a UUID.',
  'payload.outcome': 'The outcome is redeemed, queued or refused.',
  'payload.balance.whole': 'The balance must be a whole number.',
  'payload.none': 'This operation takes no data.',
  'payload.activity.inFlight': 'The number of requests under way is a whole number from 0 to 1000.',
  'payload.fileName': 'The file name is letters, digits, dots and dashes, ending in .pdf.',
  'payload.errorReport.message': 'The error report needs a message.',
  'payload.shopReport.since': 'The report’s start is a time as the till writes it (UTC, milliseconds).',
  'payload.shopReport.until': 'The report’s end is a time as the till writes it (UTC, milliseconds).',
  'payload.shopReport.answer': 'Not a till’s report as the shop’s report carries it.',

  // The API key's safe keeping.
  'apiKey.noEncryption':
    'The API key was not saved: this computer offers no encryption for secrets, so it cannot be kept safely.',
  'apiKey.encryptionFailed': 'The API key was not saved: encryption failed on this computer.',

  // POS links.
  'link.refused': 'A link was refused: {reason}',
  'link.tooMany': 'Too many links arrived at once; this one was ignored.',
  'link.notText': 'The link is not text.',
  'link.tooLong': 'The link is longer than {max} characters.',
  'link.wrongScheme': 'The link does not start with {scheme}://.',
  'link.controlCharacters': 'The link contains control characters.',
  'link.malformed': 'The link is not a well-formed URL.',
  'link.noRoute': 'The link must start with {scheme}:// and a route.',
  'link.credentials': 'The link must not carry a user name, password or port.',
  'link.fragment': 'The link must not carry a # fragment.',
  'link.path': 'The link has a path after its route; only ?parameters may follow.',
  'link.unknownRoute': 'Unknown route "{route}": the routes are {routes}.',
  'link.parameterEncoding': 'A parameter name is badly percent-encoded.',
  'link.unknownParameter': 'Unknown parameter "{parameter}" for {route}.',
  'link.repeatedParameter': 'The parameter "{parameter}" is given more than once.',
  'link.valueEncoding': 'The value of "{parameter}" is badly percent-encoded.',
  'link.valueControlCharacters': 'The value of "{parameter}" contains control characters.',
  'link.countryNeedsPhone': 'A country is only used together with a phone number.',
  'link.outcomeUnknown': 'No reward link with this id is waiting for its outcome.',

  // The till's own words about the loyalty service, when the service said none.
  'service.refusedKey': 'The loyalty service refused the API key. Check the key in Settings.',
  'service.notFound': 'Not found.',
  'service.tookTooLong': 'The loyalty service took too long to answer.',
  'service.busy': 'The loyalty service is busy (too many requests). Try again shortly.',
  'service.problem': 'The loyalty service had a problem (HTTP {status}). Try again shortly.',
  'service.rewardUnavailable': 'This reward is not available.',
  'service.notAccepted': 'The loyalty service did not accept the request.',
  'service.unexpectedAnswer': 'The loyalty service gave an unexpected answer (HTTP {status}).',
  'service.noAnswerInTime': 'The loyalty service did not answer in time. Check the connection and try again.',
  'service.dns': 'The loyalty service could not be found (DNS). Check the connection and the service URL.',
  'service.unreadable': 'The loyalty service sent an answer that could not be read.',
  'service.certificate': "The loyalty service's security certificate was not accepted.",
  'service.unreachable': 'The loyalty service cannot be reached. Check the connection.',
  'service.notJson': 'The loyalty service answered with something that is not JSON.',
  'service.unexpectedFormat': 'The loyalty service answered in an unexpected format.',
  'service.unexpectedShape': 'The loyalty service answered with data in an unexpected shape.',

  // The bridge's own failures.
  'bridge.notConfigured':
    'No loyalty service is set up yet: enter the service URL and API key in Settings, or try the demo.',
  'bridge.demoUnavailable': 'The demo service could not be started. See the log for details.',
  'bridge.demoNotStarted': 'The demo could not be started. See the log for details.',
  'bridge.forbiddenSender': "Refused: the request did not come from the till's own page.",
  'bridge.tooDeep': 'The loyalty service answered with data nested too deeply to read.',
  'bridge.internal': 'Something went wrong inside the till app. See the log for details.',
  // The organisation's policy (electron/policy).
  'settings.managed': 'Your organisation sets this on every till; it cannot be changed here.',
  'policy.version': 'The policy must say "schemaVersion": 1.',
  'policy.updates.feedUrl':
    'The update feed must be an https:// address (http only for 127.0.0.1 or localhost), without a user name or password.',
  'policy.updates.channel': 'The update channel is a short lowercase word, such as latest or beta.',
  'policy.updates.version': 'Give the version as three numbers, such as 1.4.2.',
  'policy.health.whole': 'Give a whole number within the range the health check allows (docs/operations.md).',
  'policy.managerPinHash': 'The manager PIN hash must be a PHC scrypt string ($scrypt$ln=…,r=…,p=…$salt$hash).',
  // A field named with its problem, in one line of several.
  'problem.ofField': '{field}: {message}',
  'policy.notApplied':
    "The organisation's policy ({origin}) was not applied: {why} This till uses its own settings until it is fixed.",
  'policy.unreadable': 'it could not be read ({code}).',
  'policy.tooLarge': 'it is larger than {max} KiB.',
  'policy.notJson': 'it is not valid JSON.',
  'policy.notObject': 'it is not a JSON object.',
  'policy.unknownVersion': 'this till reads policies of schema version {version} only.',
  'policy.invalid': 'some of its values are not accepted:',

  // Importing the API key from a deployment script (--import-api-key).
  'keyImport.stored': 'The API key was stored, encrypted, for this user account.',
  'keyImport.storedWeakly':
    'The API key was stored for this user account, but NOT protected by the operating system (see the log).',
  'keyImport.empty': 'No API key came on standard input; nothing was stored.',
  'keyImport.terminal':
    'Standard input is a terminal. Pipe the key in from the deployment script, so it is never shown; nothing was stored.',
  'keyImport.tooLong': 'Standard input holds more than {max} bytes, far more than an API key; nothing was stored.',
  'keyImport.refused': 'The API key was refused: {why} Nothing was stored.',
  'keyImport.failed': 'The API key could not be stored ({reason}).',

  // The manager's boundary: policy PIN hashes and policy files read safely.
  'policy.managerPinHashCost':
    'The manager PIN hash’s cost or lengths are outside what this till checks: ln=15 or 16 with r=8 and p=1 (or ln=15, p=2), a salt of 16 to 64 bytes and a hash of 32 bytes.',
  'policy.notRegularFile': 'it is not a regular file (a pipe, a device, a socket or a link is not read).',
  'policy.tooSlow': 'reading it did not finish within {seconds} seconds.',
  'payload.csvFileName': 'The file name is letters, digits, dots and dashes, ending in .csv.',
  'payload.exportTooLarge': 'The export is larger than the till saves at once.',
  'export.notAvailable': 'This till cannot save files here.',
  // The main process's copy of the outbox and the journal (electron/work-copy/).
  'payload.workCopy.record': 'This record of the outbox or the journal is not one the till can keep.',
  'payload.workCopy.tooMany': 'Too many changes at once.',
  'payload.workCopy.page': 'Ask for a page of the journal by a whole start and a length.',
  'workCopy.notKept':
    "The till could not save this on its disk ({reason}); nothing was queued. Try again; if it fails again, don't hand the reward over and call for help.",
  // The till's health (electron/health/).
  'payload.health.cache': "The offline cache's report is not one the till can read.",
  'payload.health.userAgent': "The browser's name is too long or holds characters the till does not accept.",
  'health.supportFileFailed': 'The support file could not be made ({reason}).',
  // The customer display's settings.
  'settings.customerDisplayId': 'Choose one of the screens listed, or none.',
  'settings.displayIdleSeconds': 'Choose between 10 and 600 seconds.',
  'settings.journalPersonalDays': 'Choose 1 to 3650 whole days.',
  // Forgetting the till's data (electron/work-copy/forgetting.ts).
  'forget.waiting':
    'Items wait in the outbox ({count}): forgetting this till’s data would delete them before they reach the service. Send them first, or confirm that they are to be lost.',
} as const;

export type MainMessageKey = keyof typeof en;
