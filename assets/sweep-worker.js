// A Web Worker of the comparison's module: it loads the console's extended build (without a
// page to mount) and does what the page asks (src/sweep_worker.rs). Each message has a `job`
// and a `kind`:
//   sweep  { search, fragment, seeds, from, to }  → { job, lines }
//   export { search, fragment, lang }             → { job, files: [run, csv, jsonl, events] }
//   import { text, lang }                         → { job, link }
// and the answer is { job, error } when it fails.
import init, { sweep_seeds, export_run, import_run, speak } from './full/oncall-sim-web.js';

const ready = init();
let spoken = 'en';

// The page's language, for the texts the worker writes (the event log, an error).
async function language(lang) {
  if (!lang || lang === spoken) return;
  spoken = lang;
  if (lang === 'en') return;
  const response = await fetch(new URL(`catalog-${lang}.json`, import.meta.url));
  if (response.ok) speak(lang, await response.text());
}

onmessage = async ({ data }) => {
  try {
    await ready;
    if (data.kind === 'export') {
      await language(data.lang);
      postMessage({ job: data.job, files: export_run(data.search, data.fragment) });
    } else if (data.kind === 'import') {
      await language(data.lang);
      postMessage({ job: data.job, link: import_run(data.text) });
    } else {
      const lines = sweep_seeds(data.search, data.fragment, data.seeds, data.from, data.to);
      postMessage({ job: data.job, lines });
    }
  } catch (error) {
    postMessage({ job: data.job, error: String(error) });
  }
};
