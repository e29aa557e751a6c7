import { createApp } from 'vue';
import { i18n } from '../i18n';
import DisplayApp from './DisplayApp.vue';
import '../styles.css';
import './display.css';

// The customer display's page: its own small app, no store of the till's, no IndexedDB, no
// storage, no history. It knows `window.tillDisplay` only (the display preload, or the browser
// shell's display bridge), never `window.till`.
createApp(DisplayApp).use(i18n).mount('#display');
