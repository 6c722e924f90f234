// The sample course page's xAPI mapping (docs/course.html): each graded message of the
// simulator's frame becomes the statement a learning platform would store. A real page sends
// them to its learning record store (POST /statements) with the learner as the actor; this
// one lists them. docs/embed.md ("Courses and xAPI") states the same mapping.

const VERBS = {
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  progressed: 'http://adlnet.gov/expapi/verbs/progressed',
};

// The platform's learner; a placeholder here.
const ACTOR = { objectType: 'Agent', name: 'Trainee', mbox: 'mailto:trainee@example.org' };

/** The activity of an exercise or of the course, under this page's address. */
function activity(kind, id) {
  const page = new URL(location.href);
  page.search = '';
  page.hash = '';
  return { objectType: 'Activity', id: `${page.href}#${kind}=${encodeURIComponent(id)}` };
}

/** A score from 0 to 100 as xAPI's result.score. */
const score = (points) => ({ scaled: points / 100, raw: points, min: 0, max: 100 });

function verb(name) {
  return { id: VERBS[name], display: { 'en-US': name } };
}

/** The statement for one of the frame's messages, or null for the others. */
function statement(message) {
  switch (message.type) {
    case 'debrief':
      if (typeof message.score !== 'number') return null;
      return {
        actor: ACTOR,
        verb: verb(message.passed ? 'passed' : 'failed'),
        object: activity('exercise', message.exercise),
        result: {
          score: score(message.score),
          success: message.passed,
          completion: true,
          extensions: { 'https://oncall-sim.example/xapi/attempt': message.attempt },
        },
      };
    case 'progress':
      return {
        actor: ACTOR,
        verb: verb('progressed'),
        object: activity('exercise', message.exercise),
        result: {
          score: score(message.progress.best),
          success: message.progress.passed,
          extensions: { 'https://oncall-sim.example/xapi/attempts': message.progress.attempts },
        },
      };
    case 'complete':
      return {
        actor: ACTOR,
        verb: verb('completed'),
        object: message.exercise === null ? activity('course', message.course) : activity('exercise', message.exercise),
        result: { score: score(message.score), success: true, completion: true },
      };
    default:
      return null;
  }
}

const list = document.getElementById('statements');
window.addEventListener('message', (event) => {
  const frame = document.getElementById('course');
  if (event.source !== frame.contentWindow || event.data?.source !== 'oncall-sim') return;
  // The frame's address is embed.js's; only messages from its origin count.
  if (event.origin !== new URL(frame.src).origin) return;
  const made = statement(event.data);
  if (!made) return;
  const item = document.createElement('li');
  item.dataset.verb = made.verb.display['en-US'];
  item.textContent = JSON.stringify(made);
  list.append(item);
});
