// The items of a large generated cases list, shared by the tests of the YAML windows.

/** Item `i` of a cases list at `column`, in one of the ways authors write them. */
export function caseItem(i: number, column: number): string {
  const at = ' '.repeat(column);
  switch (i % 6) {
    case 0:
      return `${at}- id: case-${i}\n${at}  expect:\n${at}    calls: [{ name: a, args: { id: ${i} } }, { name: b }]\n${at}    answer: "R${i}."\n`;
    case 1:
      return `${at}- id: c${i}\n${at}  note: |\n${at}    line ${i}\n${at}    - not an item\n${at}  tags:\n${at}    - a\n${at}    - b\n`;
    case 2:
      return `${at}# comment ${i}\n${at}- id: c${i}\n${at}  text: "over\n${at}    two lines"\n`;
    case 3:
      return `${at}-\n${at}  id: c${i}\n\n${at}  v: 1\n`;
    case 4:
      return `${at}- - x${i}\n${at}  - 'y'\n`;
    default:
      return `${at}- id: c${i}\n${at}  plain: some text\n${at}    continued\n`;
  }
}
