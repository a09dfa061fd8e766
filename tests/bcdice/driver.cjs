// Evaluates generic BCDice commands read as JSON lines on stdin with the pinned npm
// `bcdice` (BCDice's own DiceBot and randomizer) and writes one JSON line per command:
// {"text": ..., "rands": [[value, sides], ...], "detailed": [...], "secret": ..., ...}
// or {"none": true} when BCDice answers nothing, {"error": "..."} when it throws.
// Each input line is a JSON string (the command) or {"cmd": "..."}. The last line
// printed is {"done": true, "ms": <total evaluation time>, "count": <commands>}.
'use strict';

const readline = require('readline');

async function main() {
  const { DynamicLoader, Version } = require('bcdice');
  const GameSystem = await new DynamicLoader().dynamicLoad('DiceBot');
  const out = [];
  const flush = () => {
    if (out.length) {
      process.stdout.write(out.join('\n') + '\n');
      out.length = 0;
    }
  };
  process.stdout.write(JSON.stringify({ version: Version }) + '\n');
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let ms = 0;
  let count = 0;
  for await (const line of rl) {
    if (!line.trim()) continue;
    const parsed = JSON.parse(line);
    const cmd = typeof parsed === 'string' ? parsed : parsed.cmd;
    let answer;
    const start = process.hrtime.bigint();
    try {
      const r = GameSystem.eval(cmd);
      if (r === null || r === undefined) {
        answer = { none: true };
      } else {
        answer = {
          text: r.text,
          rands: r.rands,
          detailed: r.detailedRands,
          secret: !!r.secret,
          success: !!r.success,
          failure: !!r.failure,
          critical: !!r.critical,
          fumble: !!r.fumble,
        };
      }
    } catch (e) {
      answer = { error: String(e && e.message ? e.message : e).slice(0, 500) };
    }
    ms += Number(process.hrtime.bigint() - start) / 1e6;
    count += 1;
    out.push(JSON.stringify(answer));
    if (out.length >= 200) flush();
  }
  flush();
  process.stdout.write(JSON.stringify({ done: true, ms, count }) + '\n');
}

main().catch((e) => {
  process.stderr.write(`bcdice driver failed: ${e && e.stack ? e.stack : e}\n`);
  process.exit(2);
});
