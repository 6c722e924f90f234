// Starts the console with the extended models (a file rather than an inline script: the
// page's Content-Security-Policy allows scripts from the site only).
import init from './full/oncall-sim-web.js';
init();
