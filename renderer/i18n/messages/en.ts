/**
 * English: the reference catalogue. Every other language has exactly these keys
 * (`MessageSchema` makes a missing one a type error, and the catalogue check a test failure).
 *
 * vue-i18n message syntax: `{name}` is a parameter; `a | b` are plural forms, in CLDR order
 * (zero, one, two, few, many, other; only the categories the language has; see plural-rules.ts).
 * `@`, `$`, `{`, `}` and `|` are special: write them as {'@'} and so on.
 */
export const en = {
  errors: {
    notFound: {
      customer: { title: 'No such customer.', advice: 'Search again by phone number or name.' },
      reward: {
        title: 'No reward with this code for this phone number.',
        advice: 'Check the code and that the phone number is the customer’s own.',
      },
      settings: {
        title: 'The loyalty service address does not answer as expected.',
        advice: 'Check the service URL in Settings.',
      },
      general: { title: 'Not found.', advice: 'Check what you typed and try again.' },
    },
    offline: {
      title: 'Can’t reach the loyalty service.',
      advice: 'Check the till’s network connection, then try again. Finish the sale as usual meanwhile.',
    },
    timeout: { title: 'The loyalty service is taking too long to answer.', advice: 'Try again in a moment.' },
    unauthorized: {
      title: 'This till isn’t allowed to use the loyalty service.',
      advice: 'The API key is missing or was refused. Ask a manager to check Settings.',
    },
    validation: {
      title: 'Some details need correcting.',
      advice: 'Check the highlighted fields; nothing you typed has been lost.',
    },
    rewardUnavailable: {
      title: 'This reward can’t be used.',
      advice: 'It has already been used, has expired, or the card has too few points.',
    },
    server: { title: 'The loyalty service had a problem.', advice: 'Try again. If it keeps happening, tell a manager.' },
    badResponse: {
      title: 'The loyalty service sent an answer the till can’t read.',
      advice: 'Try again. If it keeps happening, tell a manager.',
    },
    rateLimited: {
      title: 'The loyalty service is busy.',
      adviceSeconds: 'Try again in {seconds} second. | Try again in {seconds} seconds.',
      adviceMoment: 'Try again in a moment.',
    },
  },
  expiry: {
    none: 'No expiry',
    today: 'Expires today',
    expiredOn: 'Expired on {date}',
    expiresOn: 'Expires on {date}',
    unreadable: 'Expires {date}',
  },
  connection: {
    online: 'Connected',
    keyRefused: 'Connected, key refused',
    problem: 'Service reports a problem',
    offline: 'Service unreachable: working from the cache',
    checking: 'Checking…',
    unconfigured: 'Not set up',
    unknown: 'Not checked yet',
    lostNetwork: 'The network connection was lost.',
    unreachable: 'The service cannot be reached.',
    notCachedCustomer: 'The service cannot be reached and this customer is not in the cache.',
  },
  customers: {
    fields: {
      nameMissing: 'Enter the customer’s name.',
      phoneMissing: 'Enter the customer’s phone number.',
      phoneUnreadable: 'This doesn’t read as a full phone number (local numbers are read as {country}).',
      birthdayFormat: 'Use the date picker (YYYY-MM-DD).',
      birthdayFuture: 'A birthday can’t be in the future.',
      emailFormat: "This doesn’t read as an email address (name{'@'}example.com).",
    },
    notice: {
      created: '{name} is now registered.',
      existing: 'This phone number was already registered, to {name}. Showing the existing customer; nothing was changed.',
      queued:
        '{name} is saved on this till and can be served now. The registration is sent to the loyalty service when the till reconnects.',
      knownHere: 'This phone number is already known on this till, as {name}. Showing that customer; nothing was changed.',
      unchanged: 'Nothing was changed: the details are as they were.',
      saved: 'Details saved.',
    },
  },
  rewards: {
    fields: {
      codeMissing: 'Enter or scan the reward code.',
      codeShape: 'A reward code starts with RW- followed by letters and digits.',
      phoneUnreadable: 'This doesn’t read as a full phone number (local numbers are read as {country}).',
      phoneMissing: 'Enter the phone number of the customer showing the code.',
    },
    refusal: {
      offlineRedemptionOff:
        'This reward can’t be redeemed while the loyalty service is unreachable: redeeming offline is turned off in Settings. Try again once the till is connected.',
      alreadyQueued: 'A redemption of this reward is already queued on this till. Do not apply it again.',
    },
    unavailable: {
      usedMaybeOurs:
        'This reward was already used on {date} — possibly by your earlier attempt that got no answer. Do not apply it again.',
      used: 'This reward was already used on {date}. It can’t be used again.',
      expired: 'This reward expired on {date}. It can’t be used.',
      tooFewPoints:
        'This reward costs {points} point and the card doesn’t have enough. It can’t be used now. | This reward costs {points} points and the card doesn’t have enough. It can’t be used now.',
      unknown: 'This reward can’t be used: it has already been used, has expired, or the card has too few points.',
    },
    offlineCheck: {
      available: 'Available, according to the cached rewards (the service cannot be reached).',
      pending: 'A redemption of this reward is already queued on this till.',
      redeemed: 'Already redeemed, according to the cached rewards.',
      expired: 'Expired, according to the cached rewards.',
      noLongerListed: 'No longer available: the service stopped listing it since it was cached.',
      wrongCustomer: 'This code does not belong to this phone number.',
      unverifiable: 'This code cannot be verified offline: it is not in the cache.',
      invalidPhone: 'That is not a complete phone number.',
    },
  },
  scans: {
    notRecognised: 'Scanned “{text}”: not a reward code or a phone number.',
  },
  settings: {
    key: {
      notSet: 'not set',
      set: 'set',
      setEndingIn: 'set, ending in {lastFour}',
    },
  },
  journalCsv: {
    header: {
      time: 'time',
      code: 'code',
      customer: 'customer',
      orderReference: 'order reference',
      branch: 'branch',
      outcome: 'outcome',
      serviceTime: 'service time',
    },
  },
};

/** The shape every catalogue has: the English keys, each a string. */
export type MessageSchema = typeof en;
