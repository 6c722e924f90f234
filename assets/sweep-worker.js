// A Web Worker of the Monte Carlo debrief: it loads the console's extended build (without a
// page to mount) and replays the slices of seeds the page sends, answering with their lines
// (src/sweep_worker.rs). Each message: { job, search, fragment, seeds, from, to }.
import init, { sweep_seeds } from './full/oncall-sim-web.js';

const ready = init();

onmessage = async ({ data }) => {
  try {
    await ready;
    const lines = sweep_seeds(data.search, data.fragment, data.seeds, data.from, data.to);
    postMessage({ job: data.job, lines });
  } catch (error) {
    postMessage({ job: data.job, error: String(error) });
  }
};
