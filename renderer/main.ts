import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { installScanListener } from './lib/scanner';
import { useErrorLogStore } from './stores/error-log';
import { useScansStore } from './stores/scans';
import './styles.css';

const app = createApp(App);
const pinia = createPinia();
app.use(pinia);

const errorLog = useErrorLogStore(pinia);
app.config.errorHandler = (error, _instance, info) => errorLog.report(error, `vue: ${info}`);
window.addEventListener('unhandledrejection', (event) => errorLog.report(event.reason, 'unhandledrejection'));

app.mount('#app');

// Scans work from every screen, whatever has focus: the listener sits on the window.
const scans = useScansStore(pinia);
installScanListener(window, (text, context) => scans.handle(text, context));
