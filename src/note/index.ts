// The note parser: a linear CommonMark reader held to micromark by differential tests (README.md here). The rest of
// needlework imports it from this file only.
export { DEFAULT_EXEMPT_SECTIONS, type ParseNoteOptions, parseNote } from './parse.js';
