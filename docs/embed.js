// The sample lesson page's script (docs/embed.html): builds the two frames' addresses from the
// simulator's address, sends the buttons' commands to the frames and logs what the frames send.
//
// The simulator's address comes from the page's own link (?app=<url>), so anyone can write it:
// the page frames only an http(s) address (a path on this site, or another site over http or
// https), and builds the frames through DOM properties. Anything else is refused with a notice,
// and the frames show the simulator beside this page (./, where the build puts this file).

const DEFAULT_APP = './';

// The characters an address may hold as written (RFC 3986: unreserved, reserved, and '%' for
// escapes). Spaces, control characters, quotes, angle brackets, backslashes and letters
// outside ASCII must be percent-encoded in an address: a value holding one is refused before
// it is parsed, so the URL parser's leniency (it drops leading spaces and control characters,
// tabs and newlines anywhere, and reads '\' as '/') never decides what is framed.
const ADDRESS_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/**
 * The simulator's address written as `raw`, resolved against this page, or null when it is
 * not one this page frames: it must parse, its scheme must be http or https (a relative
 * address on this site resolves to this page's scheme; `//host/` to this page's scheme on that
 * host), and it must not carry a user name or password.
 */
function appAddress(raw) {
  if (!ADDRESS_CHARACTERS.test(raw)) return null;
  let url;
  try {
    url = new URL(raw, location.href);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url;
}

const requested = new URLSearchParams(location.search).get('app');
let app = requested ? appAddress(requested) : null;
if (!app) {
  app = new URL(DEFAULT_APP, location.href);
  if (requested) {
    // Never the refused value itself: the notice is the page's text, not the link's.
    const notice = document.getElementById('app-refused');
    notice.textContent =
      'The simulator address in this link (app=) was refused: it must be an http or https ' +
      'address, or a path on this site. The frames below show the simulator from this site.';
    notice.hidden = false;
  }
}

const frames = {};
for (const frame of document.querySelectorAll('iframe[data-run]')) {
  const src = new URL(app.href);
  src.search = `${frame.dataset.run}&embed=1&origins=${encodeURIComponent(location.origin)}`;
  frame.src = src.href;
  frames[frame.id] = frame;
}

for (const group of document.querySelectorAll('.commands')) {
  group.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-command]');
    if (!button) return;
    const command = { type: button.dataset.command };
    if (button.dataset.action) command.action = button.dataset.action;
    // To the simulator's origin only: if the frame has gone elsewhere, the browser drops it.
    frames[group.dataset.frame].contentWindow.postMessage(command, app.origin);
  });
}

const log = document.getElementById('log');
window.addEventListener('message', (event) => {
  // Only the simulator's messages, from the simulator's origin, from one of this page's frames.
  if (event.origin !== app.origin || event.data?.source !== 'oncall-sim') return;
  const from = Object.keys(frames).find((id) => frames[id].contentWindow === event.source);
  if (from === undefined) return;
  const { type, source, record, summary, ...rest } = event.data;
  const details = { ...rest };
  if (record) details.error_rate = record.error_rate;
  if (summary) details.budget_spent = summary.budget_spent;
  // Text, never markup: the fields are whatever the frame sent.
  const item = document.createElement('li');
  item.dataset.type = String(type);
  item.dataset.frame = from;
  item.textContent = `${from}: ${type} ${JSON.stringify(details)}`;
  log.append(item);
  log.scrollTop = log.scrollHeight;
});
