/**
 * The judge contract: one chat request in, one verdict (or one reported failure) out. Everything here is plain,
 * JSON-serialisable data, because results cross from Vitest workers to reporters and into cassette files.
 */

/** One chat message, as the Chat Completions API takes it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What a request is for, so failures and cassette misses name the criterion rather than a hash. */
export interface JudgeContext {
  rubric?: string;
  criterion?: string;
  /** 0-based sample index. */
  sample?: number;
  workup?: string;
}

/** One judgement to make: the prompt and the sampling parameters that, with the model, decide the answer. */
export interface JudgeRequest {
  messages: ChatMessage[];
  /** Sampling temperature; not sent when absent (the server's default applies). */
  temperature?: number;
  /** Sampling seed, for servers that honour one (OpenAI, vLLM, Ollama, llama.cpp); not sent when absent. */
  seed?: number;
  /** Cap on the answer's length in tokens; not sent when absent. */
  maxTokens?: number;
  /**
   * The sample this request is: part of the cassette key, so two samples with identical prompts at a non-zero
   * temperature stay two recordings. Not sent to the server.
   */
  sample?: number;
  /** Names the request in messages; not part of the cassette key. */
  context?: JudgeContext;
  /** Cancels the request (and its retries); the judge then reports an `aborted` failure. */
  signal?: AbortSignal;
}

/** Tokens as the server's `usage` reported them. */
export interface TokenCount {
  /** Prompt tokens (`usage.prompt_tokens`). */
  input: number;
  /** Completion tokens (`usage.completion_tokens`). */
  output: number;
}

/** What a judgement cost. */
export interface JudgeUsage {
  /**
   * Tokens over every attempt the judgement took (a malformed answer and its retry both count); absent when the
   * server did not report `usage` for every attempt. A cached verdict keeps the tokens of its recording.
   */
  tokens?: TokenCount;
  /**
   * Cost in USD from the price table; absent when the model has no price or the tokens are unknown (never a guessed
   * 0). A cached verdict costs 0: it was billed when it was recorded.
   */
  costUsd?: number;
  /** True when the verdict came from a cassette rather than the network. */
  cached: boolean;
  /** Chat completion calls made, counting retries; 0 for a cached verdict. */
  calls: number;
}

export type Score = 1 | 2 | 3 | 4 | 5;

/** The judge scored the request. */
export interface JudgeVerdict {
  ok: true;
  score: Score;
  /** The judge's reasoning, as it wrote it. */
  rationale: string;
  /** The answer text the verdict was read from. */
  raw: string;
  /** The model that answered (the server's `model` field when it sends one). */
  model: string;
  usage: JudgeUsage;
}

export type JudgeErrorKind =
  /** The answer was not a valid verdict, twice. */
  | 'malformed'
  /** The server answered with an HTTP error (after any retries). */
  | 'http'
  /** The server answered 2xx with something that is not a chat completion. */
  | 'protocol'
  /** No answer within the configured time (after any retries). */
  | 'timeout'
  /** The server could not be reached. */
  | 'network'
  /** The caller cancelled the request. */
  | 'aborted'
  /** A cassette had no recording and the judge may not call the network. */
  | 'cassette-miss'
  /** The workup gave nothing to judge (no note). */
  | 'input'
  /** Anything else that went wrong while judging (reported, never thrown past the scorer). */
  | 'internal';

/** Why a judgement failed, with what a person needs to see it: the raw answers and what was expected. */
export interface JudgeErrorInfo {
  kind: JudgeErrorKind;
  /** One line a person reads. */
  message: string;
  /** The judge's answers, in order, when it answered but not validly. */
  answers?: string[];
  /** What a valid answer looks like, when the answer was the problem. */
  expected?: string;
  /** The HTTP status of the last response, for `http` failures. */
  status?: number;
}

/** The judge could not score the request; the failure is reported, never thrown. */
export interface JudgeFailure {
  ok: false;
  error: JudgeErrorInfo;
  model: string;
  usage: JudgeUsage;
}

export type JudgeResponse = JudgeVerdict | JudgeFailure;

/**
 * Scores one request. Implementations resolve with a `JudgeFailure` for anything the judge did wrong (bad answer,
 * HTTP error, timeout) so one failed criterion never stops the others; they reject only on misuse or on an
 * environment fault such as an unwritable cassette.
 */
export interface Judge {
  /** The model asked, when the judge has one; part of every cassette key. */
  readonly model?: string;
  judge(request: JudgeRequest): Promise<JudgeResponse>;
  /** Waits for pending side effects (a cassette's writes); absent when there are none. */
  flush?(): Promise<void>;
}
