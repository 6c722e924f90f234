// The sample lesson page's script (docs/embed.html): builds the two frames' addresses from the
// simulator's address, sends the buttons' commands to the frames and logs what the frames send.

const params = new URLSearchParams(location.search);
const app = new URL(params.get('app') || './', location.href);
const frames = {};
for (const frame of document.querySelectorAll('iframe[data-run]')) {
  const src = new URL(app);
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
    frames[group.dataset.frame].contentWindow.postMessage(command, app.origin);
  });
}

const log = document.getElementById('log');
window.addEventListener('message', (event) => {
  // Only the simulator's messages, from the simulator's origin.
  if (event.origin !== app.origin || event.data?.source !== 'oncall-sim') return;
  const from = Object.keys(frames).find((id) => frames[id].contentWindow === event.source);
  const { type, source, record, summary, ...rest } = event.data;
  const details = { ...rest };
  if (record) details.error_rate = record.error_rate;
  if (summary) details.budget_spent = summary.budget_spent;
  const item = document.createElement('li');
  item.dataset.type = type;
  item.dataset.frame = from ?? '';
  item.textContent = `${from}: ${type} ${JSON.stringify(details)}`;
  log.append(item);
  log.scrollTop = log.scrollHeight;
});
