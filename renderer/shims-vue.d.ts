// For plain `tsc` (the test project), which cannot read .vue files; vue-tsc reads the real ones.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
