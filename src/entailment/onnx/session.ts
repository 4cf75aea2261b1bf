import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { UserError } from '../../errors/index.js';
import { loadNliPeers } from './peers.js';

export type { InferenceSession };

/**
 * One InferenceSession per model file and thread count per process. Loading a model costs far more than scoring a
 * batch, and every verifier in a Vitest worker should share the weights' memory, so the promise (not the session) is
 * cached: concurrent first calls wait on one load.
 */
const sessions = new Map<string, Promise<InferenceSession>>();

/** The model file's sha256, computed once per process: it keys the score cache and never changes under a run. */
const hashes = new Map<string, Promise<string>>();

export interface SessionOptions {
  /** Threads one inference may use (onnxruntime's intra-op pool). Default: onnxruntime's choice (the core count). */
  threads?: number;
}

export function loadSession(modelPath: string, options: SessionOptions = {}): Promise<InferenceSession> {
  const key = `${resolve(modelPath)}\u0000${options.threads ?? ''}`;
  let session = sessions.get(key);
  if (!session) {
    session = createSession(modelPath, options);
    sessions.set(key, session);
    // A failed load is not cached: the user may fix the file and try again in the same process (watch mode).
    session.catch(() => sessions.delete(key));
  }
  return session;
}

async function createSession(modelPath: string, options: SessionOptions): Promise<InferenceSession> {
  const { ort } = await loadNliPeers();
  try {
    return await ort.InferenceSession.create(modelPath, {
      graphOptimizationLevel: 'all',
      ...(options.threads !== undefined ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
    });
  } catch (error) {
    throw new UserError({
      file: modelPath,
      message: `not a loadable ONNX model (${firstLine(error)}): expected an ONNX graph exported from a Hugging Face model`,
    });
  }
}

export function modelHash(modelPath: string): Promise<string> {
  const key = resolve(modelPath);
  let hash = hashes.get(key);
  if (!hash) {
    hash = sha256File(modelPath);
    hashes.set(key, hash);
    hash.catch(() => hashes.delete(key));
  }
  return hash;
}

export function sha256File(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim();
}
