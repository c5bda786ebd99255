
// The guest resources as the host reads them (CellCompiler.resource): a line that is only `// @include PATH` or
// `# @include PATH` stands for the resource PATH, each of its lines indented as the directive is.
import fs from 'node:fs';

export const SANDBOX = new URL('../../main/resources/io/github/langchaingraalvm/sandbox/', import.meta.url);

const INCLUDE = /^([ \t]*)(?:\/\/|#) @include (\S+)[ \t]*$/gm;

export function guestSource(name) {
  const text = fs.readFileSync(new URL(name, SANDBOX), 'utf8');
  return text.replace(INCLUDE, (line, indent, path) => {
    const part = guestSource(path).replace(/\n$/, '');
    return part.split('\n').map((l) => (l ? indent + l : l)).join('\n');
  });
}
