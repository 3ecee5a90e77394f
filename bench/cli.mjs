// cli.mjs: the command line of the bench scripts, one way for all: `--name
// value` options, `--flag` switches, and --help/-h printing the script's
// header comment (its lines after the #! line, up to the first line that is
// not a comment).
import { readFileSync } from 'node:fs';

export function commandLine(scriptUrl, argv = process.argv.slice(2)) {
  if (argv.includes('--help') || argv.includes('-h')) {
    const lines = readFileSync(new URL(scriptUrl), 'utf8').split('\n').slice(1);
    const header = [];
    for (const line of lines) {
      if (!line.startsWith('//')) break;
      header.push(line.replace(/^\/\/ ?/, ''));
    }
    console.log(header.join('\n'));
    process.exit(0);
  }
  return {
    // The value after `name`, or `fallback` when it is absent.
    option(name, fallback) {
      const at = argv.indexOf(name);
      return at >= 0 && argv[at + 1] ? argv[at + 1] : fallback;
    },
    flag(name) {
      return argv.includes(name);
    },
  };
}
