/**
 * The customer display's side of the bridge (docs/screens.md, "The customer display"): the
 * hub that carries the till's sanitised model to the display's windows and the customer's
 * keypad entries back to the page, and the two operations the till's page calls.
 */
import { PAGE_PUSH_CHANNELS, type DisplayScreen } from '../../common/contract';
import type { PageDoor } from '../app-page/page-door';
import type { Logger } from '../log/log';
import type { Wording } from '../messages';
import * as payloads from '../validation/bridge-payloads';
import { operationMaker, type OperationTable } from '../validation/bridge-operation';
import { createDisplayHub, type DisplayHub } from './display-hub';
import { displayModelSchema } from './display-model-schema';
import { isDisplayPage } from './display-page';

export interface DisplayNeeds {
  log: Logger;
  wording: () => Wording;
  /** Where a keypad entry reaches the till's page, on a push channel of its own. */
  page: Pick<PageDoor, 'push'>;
  shell: {
    /** The display's own origin (`app://display`, the browser shell's display listener); none: no display is heard. */
    displayOrigin?: string;
    /** Where a browser opens the display (the browser shell's display listener, with its secret). */
    displayAddress?: string;
    /** The screens a display window can open on (Electron's `screen`); none where the shell has no windows. */
    screens?: () => DisplayScreen[];
  };
}

export function customerDisplay(needs: DisplayNeeds): {
  hub: DisplayHub;
  operations: OperationTable<'showOnDisplay' | 'listScreens' | 'displayAddress'>;
} {
  const { page, shell } = needs;
  const hub = createDisplayHub({
    log: needs.log,
    toTill: (entry) => page.push(PAGE_PUSH_CHANNELS.customerEntry, entry),
    isDisplaySender: (sender) => isDisplayPage(sender?.url, shell.displayOrigin),
  });
  const op = operationMaker(needs.wording);
  return {
    hub,
    operations: {
      showOnDisplay: op(displayModelSchema, async (model) => ({ ok: true, data: { displays: hub.show(model) } })),
      listScreens: op(payloads.noPayload, async () => ({ ok: true, data: shell.screens?.() ?? [] })),
      displayAddress: op(payloads.noPayload, async () => ({
        ok: true,
        data: { address: shell.displayAddress ?? null },
      })),
    },
  };
}
