/**
 * Words laid out in lines of at most `width` characters, each line after the first indented by
 * `indent` spaces: prose in a terminal (explain's sentences) that never runs past its edge. A
 * word longer than a line (an instant, a URL) is broken rather than let through.
 */
export function wrapText(text: string, width: number, indent = 0): string[] {
  const lines: string[] = [];
  const pad = ' '.repeat(indent);
  // The first line keeps the text's own leading spaces (a list item's indent).
  const lead = /^ */.exec(text)?.[0] ?? '';
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = (lines.length === 0 ? lead : pad) + word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = pad + word;
    }
    while (line.length > width) {
      lines.push(line.slice(0, width));
      line = pad + line.slice(width);
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
