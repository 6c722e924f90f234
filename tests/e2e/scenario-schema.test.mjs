// The exercise file's JSON Schema (docs/scenario.schema.json) against the files the reader
// takes and refuses: every built-in exercise and every authored example is valid, and each
// malformed file is invalid where JSON Schema can say so. What depends on other fields (a
// minute before the end, overlaps, regions, lo ≤ hi, the request engine) is left to the
// reader: those files are schema-valid, and this test says so, to keep the split visible.
// The schema is also checked against the reader's own lists (fields, fault kinds and their
// ranges), so that a new field or fault kind cannot leave it behind. No browser is needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'scenario.schema.json'), 'utf8'));
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

const EXERCISES = join(ROOT, 'sim', 'tests', 'data', 'exercises');

function filesIn(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), 'utf8')]);
}

function problems() {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('\n');
}

for (const dir of [join(ROOT, 'sim', 'scenarios'), join(EXERCISES, 'good')]) {
  const files = filesIn(dir);
  test(`${dir.slice(ROOT.length + 1)} holds exercises`, () => assert.ok(files.length > 0));
  for (const [name, text] of files) {
    test(`${name} is a valid exercise`, () => {
      assert.ok(validate(JSON.parse(text)), problems());
    });
  }
}

/** The malformed files the schema refuses, with the field it names. */
const CAUGHT = {
  'unknown-fault.json': '/timeline/0/fault',
  'wrong-type.json': '/minutes',
  'unknown-parameter.json': '/service',
  'missing-briefing.json': '',
  'bad-start.json': '/start',
  'newer-version.json': '/version',
  'out-of-range.json': '/budget_left',
};

/** Malformed only in what JSON Schema cannot express: only the reader (`oncall-sim scenario
 * check`) refuses them. */
const BEYOND_SCHEMA = {
  'minute-past-end.json': 'a minute past the end of the exercise',
  'overlapping-deploys.json': 'two bad deploys that may overlap in time',
  'range-reversed.json': 'a range [lo, hi] with lo > hi',
  'needs-request-engine.json': 'a hot key on the formulas engine',
  'no-such-region.json': 'a region the exercise does not run',
};

/** Not JSON at all: a missing comma. */
const NOT_JSON = 'not-json.json';

const bad = filesIn(join(EXERCISES, 'bad'));

test('every malformed file is listed here as caught, beyond the schema or not JSON', () => {
  const listed = [...Object.keys(CAUGHT), ...Object.keys(BEYOND_SCHEMA), NOT_JSON].sort();
  assert.deepEqual(bad.map(([name]) => name), listed);
});

for (const [name, text] of bad) {
  if (name === NOT_JSON) {
    test(`${name} is not JSON`, () => assert.throws(() => JSON.parse(text), SyntaxError));
  } else if (name in CAUGHT) {
    test(`${name} is refused by the schema at ${CAUGHT[name] || 'the top'}`, () => {
      assert.equal(validate(JSON.parse(text)), false, 'the schema takes it');
      const paths = validate.errors.map((e) => e.instancePath);
      assert.ok(paths.includes(CAUGHT[name]), problems());
    });
  } else if (name in BEYOND_SCHEMA) {
    test(`${name} (${BEYOND_SCHEMA[name]}) passes the schema: only the reader refuses it`, () => {
      assert.ok(validate(JSON.parse(text)), problems());
    });
  }
}

// ---- The schema against the reader's own lists -------------------------------------------

const FILE_RS = readFileSync(join(ROOT, 'sim', 'src', 'exercise', 'file.rs'), 'utf8');
const FAULTS_RS = readFileSync(join(ROOT, 'sim', 'src', 'exercise', 'faults.rs'), 'utf8');

/** The strings of `const NAME: &[&str] = &[ … ];` in the reader. */
function names(source, constant) {
  const list = source.match(new RegExp(`const ${constant}: &\\[&str\\] = &\\[([^\\]]*)\\];`));
  assert.ok(list, `${constant} not found`);
  return [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

test('the schema has the fields the reader takes, in the order the writer writes them', () => {
  assert.deepEqual(Object.keys(schema.properties), names(FILE_RS, 'TOP_FIELDS'));
  assert.deepEqual(
    Object.keys(schema.properties.service.properties),
    names(FILE_RS, 'SERVICE_FIELDS'),
  );
  assert.deepEqual(
    Object.keys(schema.properties.objectives.properties),
    names(FILE_RS, 'OBJECTIVE_FIELDS'),
  );
  assert.deepEqual(
    schema.properties.expected_response.items.properties.when.enum,
    names(FILE_RS, 'STEP_WHEN'),
  );
  const hintWhen = schema.properties.hints.items.oneOf
    .map((shape) => shape.properties.when?.const)
    .filter(Boolean);
  assert.deepEqual(hintWhen, names(FILE_RS, 'HINT_WHEN'));
});

/** `drawn("share", Number, 0.0, 1.0)` or `fixed(…)`: a field of the registry. */
const FIELD = /(drawn|fixed)\("(\w+)", (\w+), (-?[\d.]+), (-?[\d.]+)\)/;

function field(match) {
  const [, how, name, kind, lo, hi] = match;
  return { name, drawn: how === 'drawn', whole: kind !== 'Number', lo: Number(lo), hi: Number(hi) };
}

/** The fault kinds of the registry, with their fields. */
function registry() {
  const shared = {};
  for (const m of FAULTS_RS.matchAll(new RegExp(`const (\\w+): Field = ${FIELD.source};`, 'g'))) {
    shared[m[1]] = field(m.slice(1));
  }
  const list = FAULTS_RS.slice(FAULTS_RS.indexOf('pub const FAULT_KINDS'));
  const kinds = list.matchAll(/name: "(\w+)",\s*fields: &\[([\s\S]*?)\],\s*needs/g);
  return [...kinds].map(([, name, body]) => {
    const token = new RegExp(`${FIELD.source}|\\b([A-Z][A-Z_]+)\\b`, 'g');
    const fields = [...body.matchAll(token)].map((m) => (m[6] ? shared[m[6]] : field(m)));
    assert.ok(fields.every(Boolean), `a field of ${name} not understood`);
    return { name, fields };
  });
}

test('the schema has every fault kind of the registry, with its fields and their ranges', () => {
  const kinds = registry();
  assert.ok(kinds.length >= 12, `${kinds.length} fault kinds read from the registry`);
  const inject = schema.$defs.inject;
  assert.deepEqual(inject.properties.fault.enum, kinds.map((k) => k.name));
  assert.deepEqual(inject.oneOf.map((s) => s.$ref), kinds.map((k) => `#/$defs/${k.name}`));
  for (const kind of kinds) {
    const def = schema.$defs[kind.name];
    assert.deepEqual(def.required, ['fault', ...kind.fields.map((f) => f.name)], kind.name);
    assert.equal(def.additionalProperties, false, kind.name);
    for (const f of kind.fields) {
      const property = def.properties[f.name];
      const one = f.drawn ? property.anyOf[0] : property;
      const where = `${kind.name}.${f.name}`;
      assert.equal(one.type, f.whole ? 'integer' : 'number', where);
      assert.equal(one.minimum, f.lo, where);
      assert.equal(one.maximum, f.hi, where);
      if (f.drawn) {
        const range = { type: 'array', items: one, minItems: 2, maxItems: 2 };
        assert.deepEqual(property.anyOf[1], range, where);
      } else {
        assert.equal(property.anyOf, undefined, where);
      }
    }
  }
});
