import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readInspectEval } from '../../src/adapters/inspect.js';
import { ZipReader } from '../../src/adapters/zip.js';
import { runImport } from '../../src/cli/commands/import.js';
import { UserError } from '../../src/errors/index.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

interface Member {
  name: string;
  data: Buffer;
  /** Deflate it (else stored). @default true */
  deflate?: boolean;
  /** The uncompressed size the directory declares, when it lies. */
  declared?: number;
  /** The CRC-32 the directory declares, when it lies. */
  crc?: number;
}

/** A zip archive written by hand (APPNOTE 4.3): local headers, data, central directory, end record. */
function zip(members: readonly Member[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const body = m.deflate === false ? m.data : deflateRawSync(m.data);
    const name = Buffer.from(m.name, 'utf8');
    const crc = m.crc ?? crc32(m.data);
    const size = m.declared ?? m.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(m.deflate === false ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(m.deflate === false ? 0 : 8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, body);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const header = Buffer.from(
  JSON.stringify({ version: 2, status: 'success', eval: { task: 't', model: 'm' } }),
);
const sample = (id: number) =>
  Buffer.from(
    JSON.stringify({
      id,
      epoch: 1,
      messages: [
        { role: 'user', content: 'list files' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', function: 'bash', arguments: { cmd: 'ls' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'c1',
          function: 'bash',
          content: '',
          error: { type: 'timeout', message: 'timed out' },
        },
        { role: 'assistant', content: 'done' },
      ],
      output: { completion: 'done' },
      scores: { s: { value: 'C' } },
    }),
  );

/** The one line a hostile archive gives: a UserError naming the file, never a crash or an allocation past the limits. */
function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    const diagnostics = (error as UserError).diagnostics;
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.file).toBe('log.eval');
    return diagnostics[0]!.message;
  }
  throw new Error('expected a refusal');
}

describe('reading a zipped Inspect log in memory, within limits', () => {
  it('reads a well-formed archive: header and samples, stored or deflated', () => {
    const log = readInspectEval(
      zip([
        { name: 'header.json', data: header },
        { name: 'samples/1_epoch_1.json', data: sample(1), deflate: false },
        { name: 'samples/2_epoch_1.json', data: sample(2) },
      ]),
      'log.eval',
    );
    expect((log['samples'] as Array<{ id: number }>).map((s) => s.id)).toEqual([1, 2]);
  });

  it('refuses a member past the size limit, by its declared size, before inflating it', () => {
    const archive = zip([{ name: 'header.json', data: Buffer.alloc(5000, 0x20) }]);
    expect(refusal(() => readInspectEval(archive, 'log.eval', { maxEntryBytes: 4096 }))).toBe(
      'member "header.json" is 5000 bytes uncompressed, past the limit of 4096',
    );
  });

  it('refuses a zip bomb by its compression ratio', () => {
    const bomb = Buffer.alloc(8 * 1024 * 1024);
    const archive = zip([
      { name: 'header.json', data: header },
      { name: 'samples/1_epoch_1.json', data: bomb },
    ]);
    expect(refusal(() => readInspectEval(archive, 'log.eval'))).toMatch(
      /^member "samples\/1_epoch_1\.json" would expand \d+ times \(\d+ to 8388608 bytes\), past the limit of 200: a zip bomb$/,
    );
  });

  it('refuses a member that inflates past the size its directory entry declares, stopping there', () => {
    const archive = zip([{ name: 'header.json', data: Buffer.alloc(4 * 1024 * 1024), declared: 100 }]);
    expect(
      refusal(() => new ZipReader(archive, 'log.eval').read(new ZipReader(archive, 'log.eval').entries[0]!)),
    ).toBe('member "header.json" inflates past the 100 bytes its directory entry declares: a zip bomb');
  });

  it('refuses members that together expand past the total limit', () => {
    const archive = zip([
      { name: 'header.json', data: header },
      ...[1, 2, 3].map((i) => ({
        name: `samples/${i}_epoch_1.json`,
        data: Buffer.from(JSON.stringify({ pad: ' '.repeat(3000) })),
      })),
    ]);
    expect(refusal(() => readInspectEval(archive, 'log.eval', { maxTotalBytes: 8000 }))).toBe(
      'the members read so far expand past the limit of 8000 bytes in all',
    );
  });

  it.each([
    ['../header.json'],
    ['/etc/passwd'],
    ['samples/../../x.json'],
    ['C:/x.json'],
    ['samples\\1.json'],
    ['samples/\u0000.json'],
  ])('refuses an archive with an unsafe member name (%j)', (name) => {
    const archive = zip([
      { name: 'header.json', data: header },
      { name, data: sample(1) },
    ]);
    expect(refusal(() => readInspectEval(archive, 'log.eval'))).toBe(
      `member ${JSON.stringify(name)}: an unsafe name (absolute, "..", or a control character)`,
    );
  });

  it('refuses a damaged member (CRC-32) and an archive with no end record', () => {
    const damaged = zip([{ name: 'header.json', data: header, crc: 1234 }]);
    expect(refusal(() => readInspectEval(damaged, 'log.eval'))).toBe(
      'member "header.json": its CRC-32 does not match (a damaged archive)',
    );
    const cut = zip([{ name: 'header.json', data: header }]).subarray(0, 40);
    expect(
      refusal(() => readInspectEval(Buffer.concat([Buffer.from('PK\u0003\u0004'), cut]), 'log.eval')),
    ).toBe('not a zip archive: no end of central directory record');
  });

  it('needlework import: a bomb is one error line and exit 1, and nothing is written', async () => {
    const dir = await tmp();
    const file = join(dir, 'log.eval');
    await writeFile(
      file,
      zip([
        { name: 'header.json', data: header },
        { name: '../../escape.json', data: sample(1) },
      ]),
    );
    const out = join(dir, 'out');
    const io = captureIo();
    expect(await runImport({ file, out }, io)).toBe(1);
    expect(io.stderr()).toBe(
      `✗ ${file}: member "../../escape.json": an unsafe name (absolute, "..", or a control character)`,
    );
    expect(await readdir(dir)).toEqual(['log.eval']);
  });

  it('needlework import: a well-formed .eval imports each sample, its tool error counted', async () => {
    const dir = await tmp();
    const file = join(dir, 'log.eval');
    await writeFile(
      file,
      zip([
        { name: 'header.json', data: header },
        { name: 'samples/7_epoch_1.json', data: sample(7) },
      ]),
    );
    const out = join(dir, 'out');
    const io = captureIo();
    expect(await runImport({ file, out }, io)).toBe(0);
    expect(io.stdout()).toContain('Detected format: inspect');
    expect(io.stdout()).toContain('tool errors: 1 (bash)');
    const meta = JSON.parse(await readFile(join(out, '7-epoch-1', 'meta.json'), 'utf8'));
    expect(meta.outcome).toEqual({ succeeded: true, reward: 1 });
  });
});
