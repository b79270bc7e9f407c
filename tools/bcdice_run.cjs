// Runs SwordWorld2.5 commands through BCDice (the npm package `bcdice`) with the dice given.
//
//   node tools/bcdice_run.cjs < cases.json > results.json
//
// Input: a JSON array of {"command": text, "pool": [n, ...]}; each die BCDice asks for takes the
// next number of the pool, folded onto the die's sides (((n - 1) % sides) + 1). Output: a JSON array
// of {"command", "text", "rands": [[value, sides], ...], "secret", "success", "failure", "critical",
// "fumble"}, as BCDice's GameSystem#eval returns them ("text": null when BCDice does not take the
// command). The module is looked up from the working directory or NODE_PATH
// (`npm install bcdice@4.9.0` in a scratch folder, then NODE_PATH=<folder>/node_modules).
"use strict";

const { DynamicLoader, Version } = require("bcdice");

async function main() {
  const input = require("fs").readFileSync(0, "utf8");
  const cases = JSON.parse(input);
  const GameSystem = await new DynamicLoader().dynamicLoad("SwordWorld2.5");
  const out = [];
  for (const { command, pool } of cases) {
    const system = new GameSystem(command);
    let next = 0;
    Object.assign(system.randomizer, {
      $random: (sides) => {
        if (next >= pool.length) throw new Error(`pool exhausted: ${command}`);
        return ((pool[next++] - 1) % sides) + 1;
      },
    });
    const result = system.eval();
    out.push({
      command,
      text: result ? result.text : null,
      rands: result ? result.rands : [],
      secret: result ? result.secret : false,
      success: result ? result.success : false,
      failure: result ? result.failure : false,
      critical: result ? result.critical : false,
      fumble: result ? result.fumble : false,
    });
  }
  process.stdout.write(JSON.stringify({ bcdice: Version, results: out }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
