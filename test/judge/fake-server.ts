import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake server received: its parsed JSON body and headers. */
export interface Received {
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: unknown;
    temperature?: number;
    seed?: number;
    max_tokens?: number;
  };
  headers: IncomingHttpHeaders;
}

/** How the fake server answers one request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** The answer's `choices[0].message.content`; the body is a well-formed chat completion around it. */
  content?: string | null;
  refusal?: string;
  /** `usage`; `null` leaves it out. @default { prompt_tokens: 100, completion_tokens: 20 } */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** The `model` the answer names. @default the model asked */
  model?: string;
  /** A raw body, sent as is (overrides `content`). */
  raw?: string;
  /** Wait this long before answering, in ms. */
  delayMs?: number;
  /** Never answer (`headers`: send the status line and headers, then never finish the body). */
  hang?: true | 'headers';
}

export interface FakeJudgeServer {
  /** The base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  received: Received[];
  /** The most requests the server had open at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/**
 * A loopback server that speaks just enough of the Chat Completions API for the judge's tests: real HTTP, through
 * the real client, on 127.0.0.1 only. `reply` decides each answer from the request and its 0-based index.
 */
export async function startFakeJudge(
  reply: (request: Received, index: number) => Reply | Promise<Reply>,
): Promise<FakeJudgeServer> {
  let inFlight = 0;
  const state: FakeJudgeServer = {
    url: '',
    received: [],
    maxInFlight: 0,
    close: () => Promise.resolve(),
  };
  const server = createServer(async (req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client gave up (a timeout) before sending the whole request
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let body: Received['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end('{"error":{"message":"the request is not JSON"}}');
      return;
    }
    const received: Received = { body, headers: req.headers };
    const index = state.received.push(received) - 1;
    const answer = await reply(received, index);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (answer.hang === true) return;
    send(res, answer, received);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

function send(res: ServerResponse, answer: Reply, received: Received): void {
  const status = answer.status ?? 200;
  const headers = { 'content-type': 'application/json', ...answer.headers };
  if (answer.hang === 'headers') {
    res.writeHead(status, headers);
    res.write('{"id": "chatcmpl-1", ');
    return;
  }
  const body =
    answer.raw ??
    JSON.stringify({
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: answer.model ?? received.body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: answer.content === undefined ? null : answer.content,
            ...(answer.refusal !== undefined && { refusal: answer.refusal }),
          },
          finish_reason: 'stop',
        },
      ],
      ...(answer.usage !== null && {
        usage: {
          ...(answer.usage ?? { prompt_tokens: 100, completion_tokens: 20 }),
          total_tokens: (answer.usage?.prompt_tokens ?? 100) + (answer.usage?.completion_tokens ?? 20),
        },
      }),
    });
  res.writeHead(status, headers).end(body);
}

/** A verdict as a judge writes it. */
export function verdict(score: unknown, rationale = `Meets anchor ${String(score)}.`): string {
  return JSON.stringify({ rationale, score });
}
