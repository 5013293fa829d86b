// What SPEC D3/D4 require of a compaction, judged with JavaScript's reading
// of the stores (plangate-gc test fixture; MIT, our own code). check()
// compares two readings of one root by upstream's readers (readers.mjs),
// before and after river-gc --force, and lists every broken promise.
//
// An entry's liveness is SPEC D3's, with each field read as upstream's
// code reads it, and an entry counts as live when any of those readings
// keeps it alive:
//   - knowledge: a type other than "review" and "eval_result" (compared
//     with ===, as queryMemory compares), status (?? "active") === "active"
//     (queryMemory), not expired: expiresAt as expireEntries reads it
//     (truthy and new Date(expiresAt) <= now), else context.expiresAt as
//     findActiveSuppressions reads it (truthy and < now.toISOString(), a
//     string comparison) and as a date (new Date(…) <= now): expired only
//     when both readings say so;
//   - a suppression findActiveSuppressions would apply to some file list:
//     type === "suppression", context.active truthy, not revoked by a
//     resurface with context.action === "revoke", context.expiresAt absent
//     or not < now.toISOString();
//   - anything that is not a plain object (upstream's readers cannot judge
//     it, and null makes them throw).
// Ages (SPEC D2) are timestamps as V8's Date.parse reads them, in the
// case's time zone: upstream compares no age, and Date is how its code
// reads every instant it does compare.

// repr is a value's canonical text: -0, Infinity and lone surrogates stay
// distinct (JSON.stringify would write 0 and null for the first two). It
// keeps its own stack, so a store nested deeper than the call stack
// (JSON.parse takes 10,000 levels and more) still has one.
class Text {
  constructor(s) {
    this.s = s;
  }
}
export function repr(value) {
  const out = [];
  const todo = [value];
  while (todo.length) {
    const v = todo.pop();
    if (v instanceof Text) out.push(v.s);
    else if (typeof v === 'number') out.push(Object.is(v, -0) ? '-0' : String(v));
    else if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (v === null || typeof v !== 'object') out.push(String(v));
    else {
      const arr = Array.isArray(v);
      const keys = arr ? null : Object.keys(v);
      const items = arr ? v : keys.map((k) => v[k]);
      out.push(arr ? '[' : '{');
      todo.push(new Text(arr ? ']' : '}'));
      for (let i = items.length - 1; i >= 0; i--) {
        todo.push(items[i]);
        if (!arr) todo.push(new Text(JSON.stringify(keys[i]) + ':'));
        if (i > 0) todo.push(new Text(','));
      }
    }
  }
  return out.join('');
}

// depth is how deeply v nests arrays and objects.
function depth(v) {
  let max = 0;
  const todo = [[v, 0]];
  while (todo.length) {
    const [x, d] = todo.pop();
    max = Math.max(max, d);
    if (x !== null && typeof x === 'object') for (const y of Object.values(x)) todo.push([y, d + 1]);
  }
  return max;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : repr(v)).slice(0, 120);

// keptAsSubsequence matches after against before from the end (so that a
// removal among equal items is charged to the oldest) and returns the
// indices of before that are not in after, or null when after is not
// before with some items left out.
export function removedIndices(before, after) {
  const removed = [];
  let j = after.length - 1;
  for (let i = before.length - 1; i >= 0; i--) {
    if (j >= 0 && before[i] === after[j]) j--;
    else removed.push(i);
  }
  return j < 0 ? removed.reverse() : null;
}

// revocations is findActiveSuppressions' set of revoked ids. A null entry
// makes upstream's query throw (so upstream applies no suppression at all);
// the set is then the one upstream would build without the null entries,
// which river gc cannot be asked to ignore.
function revocations(up, index) {
  const entries = index.entries.filter((e) => e !== null);
  return new Set(
    up
      .queryMemory({ entries }, { type: 'resurface', includeInactive: true })
      .filter((e) => e.context?.action === 'revoke')
      .map((e) => e.context?.suppressionId)
      .filter(Boolean)
  );
}

// liveness says why an entry is live at now (null: it is not).
export function liveness(e, revoked, nowMs) {
  if (!isObject(e)) return 'not a plain object';
  const now = new Date(nowMs);
  const nowISO = now.toISOString();
  const ctx = isObject(e.context) ? e.context : undefined;
  const ctxExp = ctx?.expiresAt;
  let expired;
  if (e.expiresAt) expired = new Date(e.expiresAt) <= now;
  else expired = Boolean(ctxExp) && ctxExp < nowISO && new Date(ctxExp) <= now;
  if (e.type === 'suppression' && e.context?.active && !revoked.has(e.id) && !(e.context?.expiresAt && e.context.expiresAt < nowISO)) {
    return 'a suppression findActiveSuppressions applies';
  }
  if (e.type === 'review' || e.type === 'eval_result') return null;
  if ((e.status ?? 'active') !== 'active') return null;
  return expired ? null : 'live knowledge (active, not expired)';
}

// young says why a removal by age contradicts the retention: the entry's
// timestamp, as Date.parse reads it, is not older than now minus the
// retention (by more than a second: river-gc counts whole seconds). The
// generated stores are far below the count and size limits, so every
// removal is one by age.
function young(ts, c, nowMs) {
  const ms = typeof ts === 'string' ? Date.parse(ts) : NaN;
  if (!Number.isFinite(ms) || ms < nowMs - c.retentionDays * 864e5 + 1000) return null;
  return `its timestamp ${show(ts)} is within the retention of ${c.retentionDays} days`;
}

// entryTime is a memory entry's timestamp (SPEC D2): metadata.updatedAt
// when Date.parse reads it, else metadata.createdAt.
function entryTime(e) {
  const md = isObject(e.metadata) ? e.metadata : {};
  return typeof md.updatedAt === 'string' && Number.isFinite(Date.parse(md.updatedAt)) ? md.updatedAt : md.createdAt;
}

// attempt runs f and returns its answer's repr, or what it threw.
function attempt(f) {
  try {
    return f();
  } catch (err) {
    return { threw: String(err?.message ?? err) };
  }
}

// checkMemory compares the two readings of index.json.
function checkMemory(up, c, after, gc, problems, stats) {
  const b = c.before;
  if (b.index.threw !== undefined || !isObject(b.index.value) || !Array.isArray(b.index.value.entries)) {
    if (!eqBytes(b.indexBytes, after.indexBytes)) {
      problems.push(`index.json changed though upstream cannot read its entries (${b.index.threw ?? 'no entries array'})`);
    }
    if (gc.memory > 0) problems.push(`river-gc reports ${gc.memory} memory removals from an index upstream cannot read`);
    return;
  }
  if (after.index.threw !== undefined) {
    problems.push(`after the compaction upstream's loadMemory throws: ${after.index.threw}`);
    return;
  }
  const bi = b.index.value;
  const ai = after.index.value;
  const top = (o) => repr(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'entries' ? null : v])));
  if (!isObject(ai) || !Array.isArray(ai.entries) || top(bi) !== top(ai)) {
    problems.push('index.json: the members beside entries changed');
    return;
  }
  const removed = removedIndices(bi.entries.map(repr), ai.entries.map(repr));
  if (removed === null) {
    problems.push('index.json: the kept entries are not the entries before, unchanged and in order');
    return;
  }
  stats.memoryRemoved = removed.length;
  // SPEC D5: an index in upstream's own form comes out in that form.
  const form = (bytes, v) => {
    // Laid out, depth d takes d² bytes: a deeper store is not in the form.
    const d = depth(v);
    if (d * d > bytes.length) return false;
    const text = attempt(() => JSON.stringify(v, null, 2) + '\n');
    return typeof text === 'string' && bytes.equals(Buffer.from(text));
  };
  if (removed.length > 0 && form(b.indexBytes, bi) && !form(after.indexBytes, ai)) {
    problems.push("index.json was in upstream's form (JSON.stringify(index, null, 2) + newline) and is not after the rewrite");
  }
  if (removed.length !== gc.memory) {
    problems.push(`river-gc reports ${gc.memory} memory removals; upstream's reading lost ${removed.length} entries`);
  }
  const nowMs = globalThis.__simClock.get();
  const revoked = revocations(up, bi);
  const gone = new Set(removed.map((i) => bi.entries[i]));
  for (const e of bi.entries) {
    if (!liveness(e, revoked, nowMs)) stats.memoryRemovable++;
  }
  for (const e of gone) {
    const why = liveness(e, revoked, nowMs) ?? young(entryTime(e), c, nowMs);
    if (why) problems.push(`removed entry ${show(e?.id)} (type ${show(e?.type)}): ${why}`);
  }
  const kept = bi.entries.filter((e) => !gone.has(e));
  const goneIds = new Set([...gone].filter(isObject).map((e) => e.id));
  const goneSuppressions = new Set([...gone].filter((e) => e?.type === 'suppression').map((e) => e.id));
  const keptSuppressions = new Set(kept.filter((e) => e?.type === 'suppression').map((e) => e.id));
  const revokes = (e) => e?.type === 'resurface' && e.context?.action === 'revoke';
  for (const k of kept.filter(isObject)) {
    if (k.supersededBy !== undefined && goneIds.has(k.supersededBy)) {
      problems.push(`kept entry ${show(k.id)} names removed entry ${show(k.supersededBy)} in supersededBy`);
    }
    if (revokes(k) && goneSuppressions.has(k.context.suppressionId)) {
      problems.push(`kept resurface ${show(k.id)} revokes removed suppression ${show(k.context.suppressionId)}`);
    }
  }
  for (const r of gone) {
    if (revokes(r) && keptSuppressions.has(r.context.suppressionId)) {
      problems.push(`removed resurface ${show(r.id)} revoked kept suppression ${show(r.context.suppressionId)}`);
    }
  }
  checkQueries(up, bi, ai, gone, problems);
}

// checkQueries asks queryMemory (every filter it supports, over the values
// the store holds) and findActiveSuppressions (every file list the store
// names) of both readings.
function checkQueries(up, bi, ai, gone, problems) {
  // Filter values are the primitives the store holds: an object or array
  // from one reading is never === one from the other.
  const primitive = (x) => x === null || typeof x !== 'object';
  const distinct = (xs) => [...new Map(xs.filter(primitive).map((x) => [repr(x), x])).values()];
  const objects = bi.entries.filter(isObject);
  const types = distinct(objects.map((e) => e.type).filter((t) => t !== undefined));
  const phases = distinct(objects.map((e) => e.metadata?.phase).filter((p) => p !== undefined));
  const tagLists = objects.map((e) => e.metadata?.tags).filter(Array.isArray);
  const tags = distinct(tagLists.flat());
  const tagSets = [...tags.map((t) => [t]), ...tagLists.filter((ts) => ts.length > 1 && ts.every(primitive)).slice(0, 8)];
  const filters = [{}, ...types.map((type) => ({ type })), ...phases.map((phase) => ({ phase })), ...tagSets.map((tags) => ({ tags }))];
  for (const type of types.slice(0, 4)) {
    for (const phase of phases.slice(0, 3)) filters.push({ type, phase });
    for (const t of tagSets.slice(0, 3)) filters.push({ type, tags: t });
  }
  for (const f of filters) {
    for (const includeInactive of [false, true]) {
      const q = { ...f, includeInactive };
      const want = attempt(() => up.queryMemory(bi, q).filter((e) => !gone.has(e)).map(repr));
      const got = attempt(() => up.queryMemory(ai, q).map(repr));
      if (repr(want) !== repr(got)) problems.push(`queryMemory(${repr(q).slice(0, 160)}) lost other than the removed entries`);
    }
  }
  const files = distinct(objects.flatMap((e) => (Array.isArray(e.metadata?.relatedFiles) ? e.metadata.relatedFiles : [])));
  const lists = [[], ['src/elsewhere/x.ts'], files, ...files.slice(0, 12).map((f) => [f])];
  for (const list of new Map(lists.map((l) => [repr(l), l])).values()) {
    const want = attempt(() => up.findActiveSuppressions(bi, list).map(repr));
    const got = attempt(() => up.findActiveSuppressions(ai, list).map(repr));
    if (repr(want) !== repr(got)) problems.push(`findActiveSuppressions(${repr(list).slice(0, 160)}) answers differently`);
  }
}

const eqBytes = (a, b) => (a === null || b === null ? a === b : a.equals(b));

// checkLedger compares the two readings of results.jsonl.
function checkLedger(c, after, gc, problems, stats) {
  const b = c.before;
  if (b.ledgerBytes === null) {
    if (after.ledgerBytes !== null) problems.push('results.jsonl appeared');
    return;
  }
  if (after.ledgerBytes === null) {
    problems.push('results.jsonl was deleted');
    return;
  }
  if (repr(b.compare) !== repr(after.compare)) {
    problems.push(`compare-eval-ledger answers differently: before ${show(b.compare)} after ${show(after.compare)}`);
  }
  // Lines as bytes (latin1 keeps each byte one code unit): a kept line
  // keeps its bytes. '\n' is never inside a maximal invalid subpart, so a
  // line decodes alone as it does within the file.
  const lines = (bytes) => {
    const ls = bytes.toString('latin1').split('\n');
    if (ls.at(-1) === '') ls.pop();
    return ls;
  };
  const raw = lines(b.ledgerBytes);
  const removed = removedIndices(raw, lines(after.ledgerBytes));
  const bl = raw.map((l) => Buffer.from(l, 'latin1').toString('utf8'));
  if (removed === null) {
    problems.push('results.jsonl: the kept lines are not the lines before, byte for byte and in order');
    return;
  }
  stats.ledgerRemoved = removed.length;
  if (removed.length !== gc.ledger) {
    problems.push(`river-gc reports ${gc.ledger} ledger removals; upstream's reading lost ${removed.length} lines`);
  }
  const entries = bl.map((l, i) => [l.trim(), i]).filter(([t]) => t);
  const guarded = new Set(entries.slice(-2).map(([, i]) => i));
  for (const i of removed) {
    const t = bl[i].trim();
    if (!t) continue;
    if (guarded.has(i)) problems.push(`removed ledger line ${i + 1}, one of the newest two compare-eval-ledger reads`);
    const v = attempt(() => ({ ok: JSON.parse(t) }));
    const ts = v.ok?.timestamp;
    const why = young(ts, c, globalThis.__simClock.get());
    if (why) problems.push(`removed ledger line ${i + 1}: ${why}`);
    if (!isObject(v.ok)) {
      problems.push(`removed ledger line ${i + 1}, not a JSON object to JSON.parse: ${show(t)}`);
    } else if (typeof ts !== 'string' || !Number.isFinite(Date.parse(ts))) {
      problems.push(`removed ledger line ${i + 1}, whose timestamp (as JSON.parse reads the line) Date.parse cannot read: ${show(ts)}`);
    }
  }
}

// check lists every way the reading after breaks the promises of D3/D4.
export function check(up, c, after, gc) {
  const problems = [];
  const stats = { memoryRemoved: 0, memoryRemovable: 0, ledgerRemoved: 0 };
  checkMemory(up, c, after, gc, problems, stats);
  checkLedger(c, after, gc, problems, stats);
  return { problems, stats };
}
