/** What a file system error code means, said for a person (the code follows in brackets for a search). */
const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file stands where a folder is needed',
  EISDIR: 'a folder stands where the file should be',
  ENOENT: 'a folder on the path does not exist',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links on the path',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
  EIO: 'an input/output error on the device',
  EBUSY: 'the file is busy',
  EXDEV: 'the path crosses file systems',
};

/**
 * Why a file could not be read or written, as one short phrase: `no space left on the device (ENOSPC)`. An error
 * without a code is given by its message.
 */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return CAUSES[code] ? `${CAUSES[code]} (${code})` : code;
  return error instanceof Error ? error.message : String(error);
}
