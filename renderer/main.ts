import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { i18n } from './i18n';
import { followInterfaceLocale } from './i18n/interface-locale';
import { installScanListener } from './lib/scanner';
import { useActivityStore } from './stores/activity';
import { useCustomerDisplayStore } from './stores/customer-display';
import { useErrorLogStore } from './stores/error-log';
import { useScansStore } from './stores/scans';
import { useSettingsStore } from './stores/settings';
import { useStorageStore } from './stores/storage';
import './styles.css';

const app = createApp(App);
const pinia = createPinia();
app.use(pinia);
app.use(i18n);
// The document's lang and dir, the catalogues and the number formats follow the settings.
const settings = useSettingsStore(pinia);
followInterfaceLocale(
  () => ({ language: settings.interfaceLanguage, arabicDigits: settings.arabicDigits }),
  document.documentElement,
);

const errorLog = useErrorLogStore(pinia);
app.config.errorHandler = (error, _instance, info) => errorLog.report(error, `vue: ${info}`);
window.addEventListener('unhandledrejection', (event) => errorLog.report(event.reason, 'unhandledrejection'));

app.mount('#app');

// Scans work from every screen, whatever has focus: the listener sits on the window.
const scans = useScansStore(pinia);
installScanListener(window, (text, context) => scans.handle(text, context));

// The browser is asked to keep the page's storage for good (the queue does not depend on it).
void useStorageStore(pinia).ask();

// The updater installs only while the till is idle: the page tells the main process when it is.
useActivityStore(pinia).start();

// The customer display follows the till, and its keypad's entries come here.
useCustomerDisplayStore(pinia).start();
