import { Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * A minimal menu: what a till needs (editing shortcuts for the form fields, zoom for
 * small screens, the logs for support) and nothing that loads other content.
 */
export function buildAppMenu(options: { openLogsFolder: () => void; isMac: boolean; devTools: boolean }): Menu {
  const help: MenuItemConstructorOptions = { label: 'Open Logs Folder', click: options.openLogsFolder };
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (options.devTools) view.push({ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' });

  const template: MenuItemConstructorOptions[] = [
    ...(options.isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    { label: 'File', submenu: [help, { type: 'separator' }, options.isMac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [help] },
  ];
  return Menu.buildFromTemplate(template);
}
