import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, ErrorCode } from '../../../shared/messages';
import { errorResponse } from '../filters/error-response';

/** What the HTTP server's parser refused, by the error's code: the status, the machine code and the text. */
const REFUSALS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: ERROR_CODES.REQUEST_HEADERS_TOO_LARGE,
    message: 'The request line and headers are too large (a long query string or many cookies).',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: ERROR_CODES.PAYLOAD_TOO_LARGE,
    message: 'The request body is too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: ERROR_CODES.REQUEST_TIMEOUT,
    message: 'The request did not arrive in time.',
  },
};
const MALFORMED = {
  status: 400,
  code: ERROR_CODES.MALFORMED_REQUEST,
  message: 'The request is not a well-formed HTTP request.',
};

/** The request target of the bytes received, when they begin with a request line. */
function targetOf(raw: unknown): string {
  if (!Buffer.isBuffer(raw)) return '';
  return /^[A-Z]+ (\S+)/.exec(raw.toString('latin1', 0, 1024))?.[1] ?? '';
}

/**
 * Requests the HTTP server refuses before the application sees them (a request line and headers over Node's limit,
 * bytes that are no HTTP, headers that never finish) are answered in the error body every other error has
 * (errorResponse: the error body (docs/product-rules.md §3); the SCIM error schema too when the request line names a SCIM path), not
 * Node's empty one. Through the server's documented `clientError` event, as Node's default does: the answer is
 * written on the socket, which is then closed; nothing is written where an answer is already under way.
 */
export function answerClientErrors(server: Server): void {
  const inFlight = new WeakMap<object, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => inFlight.set(req.socket, res));
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex) => {
    const busy = inFlight.get(socket);
    if (err.code === 'ECONNRESET' || !socket.writable || (busy && busy.headersSent && !busy.writableFinished)) {
      socket.destroy();
      return;
    }
    const { status, code, message } = REFUSALS[err.code ?? ''] ?? MALFORMED;
    const { contentType, text } = errorResponse(targetOf(err.rawPacket), status, {
      success: false,
      statusCode: status,
      code,
      message,
    });
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      `Content-Type: ${contentType}`,
      `Content-Length: ${Buffer.byteLength(text)}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${text}`, () => socket.destroy());
  });
}
